/**
 * At most two glibc malloc arenas for the emulator's process (MALLOC_ARENA_MAX=2), set by the
 * serving entry points re-executing themselves once, in the same process, before anything runs.
 *
 * glibc gives each thread that allocates while another holds an arena an arena of its own, up to
 * eight per core, each reserving 64 MB and keeping what its thread freed for that thread's next
 * allocations. The emulator's threads (the request thread, the import worker, the run's writer,
 * libuv's pool) each kept megabytes that way; with two arenas the lean assets bench peaked some
 * 20 to 25 MB lower, at no CPU cost seen (docs/benchmarks.md, issue 27; unlike a fixed mmap
 * threshold, which cost a fifth more CPU for a run). glibc reads the variable once, when the
 * process starts: a running process cannot change it, hence the re-exec. `process.execve` replaces
 * the process's image and keeps its pid, so there is no parent waiting on a child (and no second
 * resident process); it exists from Node 22.15 and 23.11, and where it does not the emulator runs
 * on as it is. A variable the user set (any value) is left as it is, and is what stops a second
 * re-exec.
 */
import * as fs from 'fs';

/** The arenas the emulator asks glibc for. */
export const MALLOC_ARENA_MAX = '2';

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

/** The re-exec that gives `facts`'s process two malloc arenas, or undefined when none is due. */
export function fewerArenasReexec(facts: ProcessFacts): Reexec | undefined {
  if (facts.platform !== 'linux' || !facts.canExecve || !facts.glibc) return undefined;
  if (facts.env.MALLOC_ARENA_MAX !== undefined) return undefined;
  return {
    file: facts.execPath,
    args: [facts.execPath, ...facts.execArgv, ...facts.argv.slice(1)],
    env: { ...facts.env, MALLOC_ARENA_MAX },
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
 * Re-executes the running entry point with two malloc arenas when that is due (see above); returns
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
