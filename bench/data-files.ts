/**
 * Import data files over HTTP: a ~100 MB manual-CSV `vmInfo.csv` (just under Google's 100 MB per
 * file) PUT to a data file's signed URL on an emulator running in its own process, then the job
 * validated; against a bare streaming copy of the same bytes to disk (read stream -> write stream,
 * fsync) measured in the same run. Prints seconds, the ratio to the bare copy (target: upload
 * within 2x) and the emulator's peak RSS over its idle RSS (target: under 150 MB more).
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { generateVmInfo } from './import-csv';

const MB = 1024 * 1024;
const LIMIT = 100 * MB;

export interface DataFilesBenchResult {
  fileBytes: number;
  bareSeconds: number;
  uploadSeconds: number;
  validateSeconds: number;
  idleRssMb: number;
  peakRssMb: number;
  validation: string;
}

// ------------------------------------------------------------------ the emulator's process

/** In the child: an emulator on a free port, its RSS sampled every 20 ms; answers 'rss' / 'peak'. */
async function serveChild(dataDir: string): Promise<void> {
  const { startEmulator } = await import('../backend-emulator');
  // The import engine is loaded before the idle figure, as it would be after a first validation.
  await import('../backend-emulator/import-engine');
  const emulator = await startEmulator({ port: 0, dataDir, inMemory: false, logLevel: 'silent' });
  let peak = process.memoryUsage().rss;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20).unref();
  process.on('message', (m) => {
    if (m === 'rss') {
      peak = process.memoryUsage().rss;
      process.send!({ rss: peak });
    } else if (m === 'peak') process.send!({ peak: Math.max(peak, process.memoryUsage().rss) });
    else if (m === 'stop') void emulator.close().then(() => process.exit(0));
  });
  process.send!({ url: emulator.url });
}

function ask<T>(child: ChildProcess, message: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (key in m) {
        child.off('message', onMessage);
        resolve(m[key] as T);
      }
    };
    child.on('message', onMessage);
    if (message) child.send(message);
  });
}

// ------------------------------------------------------------------ the client side

async function json(url: string, method: string, body?: unknown): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** PUTs a file to a signed URL as a stream (never read whole). */
function putFile(signedUri: string, headers: Record<string, string>, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(signedUri, { method: 'PUT', headers: { ...headers, 'content-length': fs.statSync(file).size } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    fs.createReadStream(file).pipe(req);
  });
}

async function bareCopy(file: string, target: string): Promise<number> {
  const start = process.hrtime.bigint();
  const out = fs.createWriteStream(target);
  await pipeline(fs.createReadStream(file), out);
  const fd = fs.openSync(target, 'r+');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function runDataFilesBench(): Promise<DataFilesBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-files-bench-'));
  const file = path.join(dir, 'vmInfo.csv');
  let child: ChildProcess | undefined;
  try {
    // About 195 bytes a row (random machine UUIDs, machine-ids.ts): 530,000 rows stay under the 100 MB limit.
    const fileBytes = await generateVmInfo(file, 530_000);
    if (fileBytes > LIMIT) throw new Error(`generated ${fileBytes} bytes, over the ${LIMIT} limit`);
    const bareSeconds = await bareCopy(file, path.join(dir, 'copy.csv'));
    fs.rmSync(path.join(dir, 'copy.csv'));

    const dataDir = path.join(dir, 'emulator');
    fs.mkdirSync(dataDir);
    child = fork(__filename, ['--serve', dataDir], {
      execArgv: __filename.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await ask<string>(child, '', 'url');
    const parent = 'projects/bench/locations/us-central1';
    await json(`${url}/v1alpha1/${parent}/sources?sourceId=src`, 'POST', { type: 'SOURCE_TYPE_UPLOAD' });
    await json(`${url}/v1alpha1/${parent}/importJobs?importJobId=job`, 'POST', { assetSource: `${parent}/sources/src` });
    const job = `${parent}/importJobs/job`;
    const created = await json(`${url}/v1alpha1/${job}/importDataFiles?importDataFileId=vm`, 'POST', {
      displayName: 'vmInfo.csv',
      format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    });
    const info = created.response.uploadFileInfo as { signedUri: string; headers: Record<string, string> };
    const idleRss = await ask<number>(child, 'rss', 'rss');

    const u0 = process.hrtime.bigint();
    const status = await putFile(info.signedUri, info.headers, file);
    const uploadSeconds = Number(process.hrtime.bigint() - u0) / 1e9;
    if (status !== 200) throw new Error(`upload answered ${status}`);

    const v0 = process.hrtime.bigint();
    const op = await json(`${url}/v1alpha1/${job}:validate`, 'POST', {});
    for (;;) {
      const now = await json(`${url}/v1alpha1/${op.name}`, 'GET');
      if (now.done) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const validateSeconds = Number(process.hrtime.bigint() - v0) / 1e9;
    const validated = await json(`${url}/v1alpha1/${job}`, 'GET');
    const rowErrors = (validated.validationReport?.fileValidations ?? []).reduce((n: number, f: any) => n + (f.rowErrors?.length ?? 0), 0);
    const peak = await ask<number>(child, 'peak', 'peak');
    child.send('stop');
    await once(child, 'exit');
    child = undefined;
    return {
      fileBytes,
      bareSeconds,
      uploadSeconds,
      validateSeconds,
      idleRssMb: Math.round(idleRss / MB),
      peakRssMb: Math.round(peak / MB),
      validation: `${validated.state}, ${rowErrors} row error(s)`,
    };
  } finally {
    child?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printDataFilesBench(r: DataFilesBenchResult): void {
  const ratio = r.uploadSeconds / r.bareSeconds;
  const extra = r.peakRssMb - r.idleRssMb;
  console.log(`data-files: vmInfo.csv of ${(r.fileBytes / 1e6).toFixed(1)} MB, emulator in its own process, cores ${os.cpus().length}`);
  console.log(`  bare streaming copy to disk   ${r.bareSeconds.toFixed(2)} s`);
  console.log(`  upload (PUT to signed URL)    ${r.uploadSeconds.toFixed(2)} s  x${ratio.toFixed(2)} of the bare copy`);
  console.log(`  validate (:validate to done)  ${r.validateSeconds.toFixed(2)} s  [${r.validation}]`);
  console.log(`  emulator RSS: idle ${r.idleRssMb} MB, peak ${r.peakRssMb} MB (+${extra} MB)`);
  console.log(`  target: upload within 2x of the bare copy: ${ratio <= 2 ? 'met' : 'NOT met'}`);
  console.log(`  target: peak RSS under 150 MB over idle: ${extra < 150 ? 'met' : 'NOT met'}`);
}

if (require.main === module) {
  const at = process.argv.indexOf('--serve');
  if (at !== -1) {
    serveChild(process.argv[at + 1]).catch((e) => {
      console.error(e);
      process.exit(1);
    });
  } else {
    runDataFilesBench().then(printDataFilesBench, (e) => {
      console.error(e);
      process.exit(1);
    });
  }
}
