/**
 * The emulator's glibc malloc settings, set by the serving entry points re-executing themselves
 * once, in the same process, before anything runs: at most two arenas (MALLOC_ARENA_MAX=2), and
 * fixed thresholds for returning memory (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_).
 *
 * glibc gives each thread that allocates while another holds an arena an arena of its own, up to
 * eight per core, each reserving 64 MB and keeping what its thread freed for that thread's next
 * allocations. The emulator's threads (the request thread, the import worker, the run's writer,
 * libuv's pool) each kept megabytes that way; with two arenas the lean assets bench peaked some
 * 20 to 25 MB lower, at no CPU cost seen.
 *
 * glibc's thresholds are dynamic by default: once a block it had mapped for itself (one of 128 KiB
 * or more) is freed, blocks up to that size come from the arenas from then on, and an arena keeps
 * up to twice that much free memory before giving any back. One inline payload's 15.6 MB buffer
 * freed, and the arenas kept some 30 MB each that nothing used: 38 MB resident in the second
 * arena (the import threads') after a 600,000-row run, the request thread's grown to 45 MB after
 * an inline create. Fixed at 1 MiB (larger blocks are mapped, and unmapped when freed) and 4 MiB
 * (free memory an arena keeps at its top), the lean bench's peak fell by 30 to 40 MB, with no CPU
 * cost seen and about 5% more page faults in a run; a 128 KiB threshold had cost a fifth more CPU
 * (the batches' buffers mapped and unmapped each time), 256 KiB half again the page faults
 * (docs/benchmarks.md, issue 27).
 *
 * glibc reads the variables once, when the process starts: a running process cannot change them,
 * hence the re-exec. `process.execve` replaces the process's image and keeps its pid, so there is
 * no parent waiting on a child (and no second resident process); it exists from Node 22.15 and
 * 23.11, and where it does not the emulator runs on as it is. Any of the variables set by the user
 * (any value) leaves malloc as the user chose it: no re-exec, which is also what stops a second one.
 */
import * as fs from 'fs';

/** The arenas the emulator asks glibc for. */
export const MALLOC_ARENA_MAX = '2';

/** The emulator's malloc settings, by environment variable (see the module comment). */
export const MALLOC_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX,
  MALLOC_MMAP_THRESHOLD_: String(1 << 20),
  MALLOC_TRIM_THRESHOLD_: String(4 << 20),
};

/** How to start this process's entry point again: `process.execve`'s arguments. */
export interface Reexec {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** What the decision reads of the running process (the process itself, or a test's stand-in). */
export interface ProcessFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  /** Whether `process.execve` exists (Node >= 22.15 / 23.11, POSIX). */
  canExecve: boolean;
  /** Whether the process runs on glibc (other C libraries ignore the variable: no re-exec for nothing). */
  glibc: boolean;
}

/** The re-exec that gives `facts`'s process the emulator's malloc settings, or undefined when none is due. */
export function fewerArenasReexec(facts: ProcessFacts): Reexec | undefined {
  if (facts.platform !== 'linux' || !facts.canExecve || !facts.glibc) return undefined;
  if (Object.keys(MALLOC_SETTINGS).some((name) => facts.env[name] !== undefined)) return undefined;
  return {
    file: facts.execPath,
    args: [facts.execPath, ...facts.execArgv, ...facts.argv.slice(1)],
    env: { ...facts.env, ...MALLOC_SETTINGS },
  };
}

/** Whether this process's C library is glibc: its shared object is mapped (a cheap read, unlike a diagnostic report). */
function runsOnGlibc(): boolean {
  try {
    return /\/libc\.so\.6$/m.test(fs.readFileSync('/proc/self/maps', 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Re-executes the running entry point with the emulator's malloc settings when that is due (see above); returns
 * only when it is not, or when the re-exec failed (the process then runs on unchanged). Call it
 * first thing, before any thread or file is opened.
 */
export function reexecWithFewerArenas(): void {
  const execve = (process as { execve?: (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never }).execve;
  const plan = fewerArenasReexec({
    platform: process.platform,
    env: process.env,
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    canExecve: typeof execve === 'function',
    glibc: process.platform === 'linux' && runsOnGlibc(),
  });
  if (!plan || !execve) return;
  try {
    // Experimental in Node 22 to 26: its warning is emitted on a later tick, which the new image never reaches.
    execve.call(process, plan.file, plan.args, plan.env);
  } catch {
    // Refused (a seccomp filter, a vanished binary): the emulator runs with glibc's defaults.
  }
}
