/**
 * startWorker (backend-emulator/worker-threads.ts): a worker runs its entry, compiled or source,
 * ten nice steps below the main thread, so that the thread answering requests is not kept waiting
 * for a core by an import (Linux: a thread's own nice value), or as many steps as asked
 * (`niceSteps`); a worker started by a worker is placed against the main thread, not below its
 * starter.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { once } from 'events';
import { startWorker } from '../../backend-emulator/worker-threads';
import { tempDir } from '../../support/temp-dir';

// Apps on a data dir and worker starts take seconds on a loaded 2-core machine.
jest.setTimeout(60_000);

/** An entry that answers its own thread's id and nice value, and what the thread that started it has. */
const ENTRY = `
const fs = require('fs');
const os = require('os');
const { parentPort } = require('worker_threads');
const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
parentPort.postMessage({ tid, nice: os.getPriority(tid), pid: process.pid });
`;

const onLinux = process.platform === 'linux' && fs.existsSync('/proc/thread-self');
// The priority is a thread's own only on Linux (elsewhere startWorker changes nothing).
const linuxTest = onLinux ? test : test.skip;

async function niceOf(entry: string, niceSteps?: number): Promise<{ tid: number; nice: number; pid: number }> {
  const worker = startWorker(entry, niceSteps === undefined ? {} : { niceSteps });
  try {
    const [message] = (await once(worker, 'message')) as [{ tid: number; nice: number; pid: number }];
    return message;
  } finally {
    await worker.terminate();
  }
}

describe('startWorker', () => {
  linuxTest.each(['js', 'ts'])('a %s entry runs in a thread of its own ten nice steps below the main thread, which is unchanged', async (ext) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, `entry.${ext}`), ENTRY);
    const before = os.getPriority(process.pid);
    const worker = await niceOf(path.join(dir, 'entry'));
    expect(worker.pid).toBe(process.pid);
    expect(worker.tid).not.toBe(process.pid);
    expect(worker.nice).toBe(Math.min(19, before + 10));
    expect(os.getPriority(process.pid)).toBe(before);
  });

  linuxTest('a worker started by a worker is placed against the main thread (ten steps below it by default), not below its starter', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'inner.js'), ENTRY);
    // The outer entry is a source one: it loads startWorker from this checkout's TypeScript.
    fs.writeFileSync(
      path.join(dir, 'outer.ts'),
      `
const os = require('os');
const fs = require('fs');
const { parentPort } = require('worker_threads');
const { startWorker } = require(${JSON.stringify(path.resolve(__dirname, '../../backend-emulator/worker-threads.ts'))});
const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
const inner = startWorker(${JSON.stringify(path.join(dir, 'inner'))});
inner.once('message', (m) => {
  parentPort.postMessage({ tid, nice: os.getPriority(tid), pid: process.pid, inner: m });
  void inner.terminate();
});
`,
    );
    const before = os.getPriority(process.pid);
    const outer = (await niceOf(path.join(dir, 'outer'))) as Awaited<ReturnType<typeof niceOf>> & { inner: { tid: number; nice: number } };
    expect(outer.nice).toBe(Math.min(19, before + 10));
    expect(outer.inner.tid).not.toBe(outer.tid);
    expect(outer.inner.nice).toBe(Math.min(19, before + 10));

    // Started thirteen steps down (as the import worker is), its own worker (a run's writer) runs
    // ten below the main thread: above its starter.
    const lower = (await niceOf(path.join(dir, 'outer'), 13)) as typeof outer;
    expect(lower.nice).toBe(Math.min(19, before + 13));
    expect(lower.inner.nice).toBe(Math.min(19, before + 10));
  });

  linuxTest('niceSteps places a worker that many steps below the main thread', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'entry.js'), ENTRY);
    const before = os.getPriority(process.pid);
    expect((await niceOf(path.join(dir, 'entry'), 13)).nice).toBe(Math.min(19, before + 13));
    expect((await niceOf(path.join(dir, 'entry'), 0)).nice).toBe(before);
  });
});
