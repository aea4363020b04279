/**
 * The import worker kept ready (import-thread.ts keepImportWorkerReady, which the CLI turns on):
 * it warms up on a generated vmInfo.csv before any job (worker-warm-up.ts). The warm-up file must
 * be one the engine reads without a single error (or the warm-up would compile the error paths),
 * and a job that comes during the warm-up must get exactly its own report and assets: the warm-up
 * writes nothing and leaves nothing behind.
 */
import * as fs from 'fs';
import * as os from 'os';
import { Readable } from 'stream';
import type { FastifyInstance } from 'fastify';
import { validateImport } from '../../../backend-emulator/import-engine';
import { closeIdleImportWorker, IMPORT_NICE_EXTRA, keepImportWorkerReady } from '../../../backend-emulator/migrationcenter/import-jobs/import-thread';
import { WORKER_NICE_STEPS } from '../../../backend-emulator/worker-threads';
import { warmUpVmInfo } from '../../../backend-emulator/migrationcenter/import-jobs/worker-warm-up';
import { BASE, VM_HEADER, act, call, createJob, csv, inlinePayload, newApp, ok, vmRow } from '../../support/migrationcenter';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

describe('the warm-up file', () => {
  const bytes = warmUpVmInfo(10);
  const text = bytes.toString('utf8');
  const files = [{ name: 'vmInfo.csv', size: bytes.length, open: () => Readable.from([bytes]) }];

  test('has the header and one line per machine, the first half CRLF and the rest LF, with both date forms', () => {
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(11);
    expect(lines[0].startsWith('MachineId,MachineName,')).toBe(true);
    expect(lines.slice(0, 6).every((l) => l.endsWith('\r'))).toBe(true);
    expect(lines.slice(6).some((l) => l.endsWith('\r'))).toBe(false);
    expect(text).toContain('2023-05-01T08:00:00Z');
    expect(text).toContain('2024-01-15 10:00:00');
  });

  test('validates without a job, file or row error', async () => {
    expect(await validateImport(FORMAT, files)).toEqual({
      fileValidations: [{ fileName: 'vmInfo.csv', rowErrors: [], partialReport: false, fileErrors: [] }],
      jobErrors: [],
    });
  });
});

/** This process's threads at nice value `nice`, by thread id (Linux: /proc names them; a thread that ended meanwhile is left out). */
function threadsAt(nice: number): Set<string> {
  const tids = new Set<string>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === nice) tids.add(tid);
    } catch {
      // ended since the listing
    }
  }
  return tids;
}

const onLinux = process.platform === 'linux' && fs.existsSync('/proc/self/task');

(onLinux ? test : test.skip)(
  'the import worker runs three nice steps below the other workers (below a run writer it starts), thirteen below the main thread (skipped off Linux)',
  async () => {
    // The literal 13 is the design (import-thread.ts IMPORT_NICE_EXTRA, worker-threads.ts WORKER_NICE_STEPS), not read from them.
    expect(WORKER_NICE_STEPS + IMPORT_NICE_EXTRA).toBe(13);
    const expected = Math.min(19, os.getPriority(process.pid) + 13);
    // An import worker of an earlier test file may still idle in this process (IDLE_WORKER_MS): the new one is a thread not there before.
    const before = threadsAt(expected);
    keepImportWorkerReady();
    try {
      // A worker's start takes milliseconds on a quiet machine, seconds on a loaded one: looked for up to 20 s.
      let started: string[] = [];
      for (let i = 0; i < 800 && started.length === 0; i++) {
        started = [...threadsAt(expected)].filter((tid) => !before.has(tid));
        if (started.length === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(started).toHaveLength(1);
    } finally {
      keepImportWorkerReady(false);
      await closeIdleImportWorker();
    }
  },
  60_000,
);

(onLinux ? test : test.skip)(
  'the last emulator to close ends the idle import worker then, not IDLE_WORKER_MS later (skipped off Linux)',
  async () => {
    // A process ending must stop an idle worker, at the worker's low priority: under load, past
    // the 500 ms jest gives its worker processes to end. Closed with the emulator, it is stopped there.
    const nice = Math.min(19, os.getPriority(process.pid) + 13);
    const before = threadsAt(nice);
    const ours = () => [...threadsAt(nice)].filter((tid) => !before.has(tid));
    const app = newApp();
    try {
      ok(await createJob(app, 'idle', { inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, vmRow('i-1', 'web-1')) }) }));
      expect((await act(app, 'idle', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
      // The job's worker idles, kept for a next job.
      expect(ours()).toHaveLength(1);
    } finally {
      await app.close();
    }
    // Node emits a worker's 'exit', which its terminate() awaits, once its thread has ended.
    expect(ours()).toEqual([]);
  },
  60_000,
);

describe('with a ready import worker', () => {
  let app: FastifyInstance;

  beforeEach(() => {
    app = newApp();
  });

  afterEach(async () => {
    await app.close();
  });

  afterAll(async () => {
    keepImportWorkerReady(false);
    await closeIdleImportWorker();
  });

  test('a job sent while the ready worker warms up gets its own report, and its run writes only its machines', async () => {
    // Started now: the job below reaches the worker while it loads or warms up.
    keepImportWorkerReady();
    const payload = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-1', 'web-2'), vmRow('m-3', 'db-1', { MemoryGiB: 'lots' }), vmRow('m-4', 'app-1'));
    ok(await createJob(app, 'ready', { inlinePayload: inlinePayload({ 'vmInfo.csv': payload }) }));
    const [validated, job] = await act(app, 'ready', 'validate');
    expect(validated.error).toBeUndefined();
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const rows = job.validationReport.fileValidations[0].rowErrors.map((e: any) => [e.rowNumber, e.errors.map((x: any) => x.errorDetails)]);
    expect(rows).toEqual([
      [3, ['MachineId "m-1" is a duplicate: row 2 has the same MachineId']],
      [4, [expect.stringMatching(/^MemoryGiB /)]],
    ]);

    // A clean payload, validated and run by the same (now warm) worker.
    ok(await createJob(app, 'clean', { inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, vmRow('c-1', 'web-1'), vmRow('c-2', 'web-2')) }) }));
    expect((await act(app, 'clean', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    const [ran, done] = await act(app, 'clean', 'run');
    expect(ran.error).toBeUndefined();
    expect(done.executionReport.framesReported).toBe(2);
    const assets = ok(await call(app, 'GET', `${BASE}/assets?pageSize=100`)).assets ?? [];
    expect(assets.map((a: any) => a.attributes?.MachineId ?? a.virtualMachineDetails?.vmUuid).sort()).toEqual(['c-1', 'c-2']);
  }, 60_000);
});
