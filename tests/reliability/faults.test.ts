/**
 * Faults: kill -9 of the compiled CLI at random moments of a mixed workload (the short version of
 * `runKillRounds`; the bench runs 20 rounds), and a data directory that is read-only or on a full
 * disk at start-up, or fills up while the emulator runs.
 *
 * Read-only as root: chmod does not stop root, so the tests use directories the kernel refuses to
 * root too: a read-only tmpfs mount (when this process may mount, as root in a container with
 * CAP_SYS_ADMIN), and always paths under /proc (an existing /proc/<pid> folder: EPERM; a new folder
 * under /proc/self: ENOENT). Disk full: a 64 KiB tmpfs filled to the last block (when mounting is
 * possible), and always a database file that is a symbolic link to /dev/full (every write: ENOSPC).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runKillRounds } from '../../bench/reliability';
import { runCli, spawnCli } from '../../support/cli-process';
import { tempDir } from '../../support/temp-dir';
import { cliProcessesOfThisFile } from '../support/cli-processes';
import { MATCHER } from '../support/networkservices';
import { testSeed } from '../support/seeds';

jest.setTimeout(180_000);

const linux = process.platform === 'linux';
const running = cliProcessesOfThisFile();

describe('kill -9 at random moments of a mixed workload', () => {
  test('6 rounds (2 aimed at a running import): every acknowledged write survives, nothing half-written, no job left in progress', async () => {
    const seed = process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : testSeed('kill moments');
    const result = await runKillRounds({ rounds: 6, aimEvery: 3, rows: 8_000, killWindowMs: [50, 1500], seed });
    // The seed (printed) replays the same kill moments: TEST_SEED=<seed> npx jest tests/reliability/faults
    expect({ seed: result.seed, violations: result.violations }).toEqual({ seed: result.seed, violations: [] });
    expect(result.integrity).toBe('ok');
    expect(result.ackedIamWrites).toBeGreaterThan(0);
    expect(result.ackedJobCreates).toBeGreaterThan(0);
    expect(Object.values(result.longJobOutcomes).reduce((a, b) => a + b, 0)).toBe(6);
    // The aimed rounds kill a run in progress: it must have ended FAILED with "interrupted: ...".
    expect(result.interruptedRunFrames.length).toBeGreaterThanOrEqual(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The data directory at start-up

/** Mounts a tmpfs (size, options) at a new folder; undefined when this process may not mount. */
function tryMount(options: string): string | undefined {
  if (!linux) return undefined;
  const dir = tempDir('gnl-mnt-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function unmount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'pipe' });
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Decided once, when the tests are defined: a tmpfs can be mounted here (root with CAP_SYS_ADMIN,
 * as in CI). When it cannot, the tests that need one are defined as skipped, with the reason in
 * their name, so jest reports them as skipped and never as passed.
 */
const canMount = ((): boolean => {
  const probe = tryMount('size=4k');
  if (probe) unmount(probe);
  return probe !== undefined;
})();
const SKIPPED_REASON = ' [SKIPPED: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)]';
/** A test that needs a tmpfs: run where one can be mounted, reported as skipped (with why) elsewhere. */
const tmpfsTest = (name: string, fn: () => Promise<void>, timeout?: number) =>
  canMount ? test(name, fn, timeout) : test.skip(name + SKIPPED_REASON, fn, timeout);

// CI runs as root and must run the tmpfs tests: there, not being able to mount is a failure.
if (!canMount && process.env.CI)
  test('CI can mount a tmpfs (the disk-full and read-only tests need one)', () => {
    throw new Error('CI is set but a tmpfs cannot be mounted: run CI as root with CAP_SYS_ADMIN, or the disk-fault tests check nothing');
  });

/** A tmpfs this test mounted: a failure to mount here (after the probe succeeded) fails the test. */
function mount(options: string): string {
  const mnt = tryMount(options);
  if (!mnt) throw new Error(`mounting a tmpfs (${options}) failed although the probe at definition time succeeded`);
  return mnt;
}

/** Fills a filesystem to its last block. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

async function expectRefused(dataDir: string, reason: RegExp): Promise<string> {
  // runCli's 10 s limit guards against a hang; how long the refusal takes is not asserted.
  const res = await runCli(['--port', '0', '--data-dir', dataDir], {}, 10_000);
  expect(res.code).toBe(1);
  expect(res.stdout).toBe('');
  expect(res.stderr).toMatch(/^error: /);
  expect(res.stderr).toContain(dataDir);
  expect(res.stderr).toMatch(reason);
  return res.stderr;
}

(linux ? describe : describe.skip)('a read-only data directory at start-up: exit 1, the path named', () => {
  test("a folder under /proc that does not exist: ENOENT at once (Node's recursive mkdir used to spin there forever)", async () => {
    await expectRefused('/proc/self/gnl-data/emulator', /Cannot create the data directory .*ENOENT/);
  });

  test('an existing /proc/<pid> folder: not writable, even for root', async () => {
    await expectRefused('/proc/1', /not writable: (EPERM|EACCES|EROFS)/);
  });

  tmpfsTest('a read-only tmpfs: EROFS, for the folder and for a sub-folder to create', async () => {
    const mnt = mount('ro,size=64k');
    try {
      await expectRefused(mnt, /not writable: EROFS/);
      // Node's recursive mkdir reported ENOENT here; the real cause is named now.
      await expectRefused(path.join(mnt, 'data', 'sub'), /Cannot create the data directory .*EROFS/);
    } finally {
      unmount(mnt);
    }
  });
});

(linux ? describe : describe.skip)('a full disk', () => {
  test('the database file on /dev/full (every write fails with ENOSPC): exit 1 naming the path and "disk is full"', async () => {
    const dir = tempDir('gnl-devfull-');
    fs.symlinkSync('/dev/full', path.join(dir, 'emulator.sqlite'));
    await expectRefused(dir, /database or disk is full/);
  });

  tmpfsTest('a tmpfs filled to the last block: exit 1 naming the path', async () => {
    const mnt = mount('size=64k');
    try {
      fill(mnt);
      await expectRefused(path.join(mnt, 'data'), /disk is full|ENOSPC/);
    } finally {
      unmount(mnt);
    }
  });

  tmpfsTest(
    'the disk fills while the emulator runs: 500 INTERNAL in the Google shape, the server stays up, nothing half-written, writes resume when space is back',
    async () => {
      const mnt = mount('size=1m');
      try {
        const p = await spawnCli(['--port', '0', '--data-dir', path.join(mnt, 'data')]);
        running.push(p);
        const resource = 'projects/full/locations/global/endpointPolicies/ep';
        const set = async (member: string) => {
          const res = await fetch(`${p.url}/v1/${resource}:setIamPolicy`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ policy: { bindings: [{ role: 'roles/viewer', members: [member] }] } }),
          });
          return { status: res.status, body: (await res.json()) as any };
        };
        // The endpoint policy exists before its IAM policy is written (404 otherwise).
        const created = await fetch(`${p.url}/v1/projects/full/locations/global/endpointPolicies?endpointPolicyId=ep`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }),
        });
        expect(created.status).toBe(200);
        const first = await set('user:before@example.com');
        expect(first.status).toBe(200);
        const filler = fill(mnt);
        for (let i = 0; i < 3; i++) {
          const res = await set(`user:full-${i}@example.com`);
          expect(res.status).toBe(500);
          expect(res.body).toEqual({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
        }
        expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
        const policy = (await (await fetch(`${p.url}/v1/${resource}:getIamPolicy`)).json()) as { etag: string };
        expect(policy.etag).toBe(first.body.etag);
        fs.rmSync(filler);
        const after = await set('user:after@example.com');
        expect(after.status).toBe(200);
        const hist = (await (await fetch(`${p.url}/emulator/v1/iamHistory?resource=${encodeURIComponent(resource)}`)).json()) as {
          entries: Array<{ revision: number; policy: { bindings: Array<{ members: string[] }> } }>;
        };
        expect(hist.entries.map((e) => [e.revision, e.policy.bindings[0].members[0]])).toEqual([
          [1, 'user:before@example.com'],
          [2, 'user:after@example.com'],
        ]);
        p.child.kill('SIGTERM');
        expect((await p.exited).code).toBe(0);
      } finally {
        unmount(mnt);
      }
    },
  );
});
