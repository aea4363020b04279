/**
 * Worker threads run below the request thread's priority (worker-threads.ts), and libuv's thread
 * pool, which serves every thread's file and zlib work, does not: it is made by the thread that
 * starts the first worker, not by the worker's first file read (a new thread takes its maker's
 * priority). Checked in a fresh process, where nothing has made the pool yet; Linux only, where a
 * thread's priority is its own and /proc names the threads.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compiledPackage, ROOT } from '../../support/compiled';

jest.setTimeout(120_000);

const onLinux = process.platform === 'linux';

/**
 * A worker that reads a file first (the pool's first use, if nothing made it before), then sends
 * its thread id (threads' names differ between Node lines: a worker is `node` on 22), and stays
 * until the process ends (ended, its thread left /proc while the main thread read it).
 */
const WORKER = `const fs = require('fs');
fs.readFile(__filename, () => {
  require('worker_threads').parentPort.postMessage(fs.readlinkSync('/proc/thread-self').split('/').pop());
  setInterval(() => undefined, 60_000);
});
`;

/** Starts the worker through the package's startWorker, then prints each thread's name and nice. */
const MAIN = (workerThreads: string, worker: string) => `
const fs = require('fs');
const { startWorker } = require(${JSON.stringify(workerThreads)});
startWorker(${JSON.stringify(worker)}).on('message', (workerTid) => {
  const threads = [];
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let stat, name;
    try {
      stat = fs.readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
      name = fs.readFileSync('/proc/self/task/' + tid + '/comm', 'utf8').trim();
    } catch (err) {
      if (err.code === 'ENOENT') continue; // a short-lived thread of the runtime, ended since the listing
      throw err;
    }
    threads.push({ main: tid === String(process.pid), worker: tid === workerTid, name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) });
  }
  process.stdout.write(JSON.stringify(threads));
  process.exit(0);
});
`;

(onLinux ? it : it.skip)(
  'a worker runs ten nice steps below the main thread; the thread pool its first file read used runs at the main thread priority (skipped off Linux)',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-worker-priority-'));
    const worker = path.join(dir, 'worker.js');
    const main = path.join(dir, 'main.js');
    fs.writeFileSync(worker, WORKER);
    fs.writeFileSync(main, MAIN(path.join(compiledPackage(), 'backend-emulator', 'worker-threads.js'), worker.replace(/\.js$/, '')));
    const run = spawnSync(process.execPath, [main], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    const threads = JSON.parse(run.stdout) as Array<{ main: boolean; worker: boolean; name: string; nice: number }>;
    const mainNice = threads.find((t) => t.main)?.nice as number;
    const pool = threads.filter((t) => t.name === 'libuv-worker');
    const workers = threads.filter((t) => t.worker);
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.map((t) => t.nice)).toEqual(pool.map(() => mainNice));
    expect(workers.map((t) => t.nice)).toEqual([Math.min(19, mainNice + 10)]);
  },
);
