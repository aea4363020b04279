import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateVmInfo } from '../bench/import-csv';
import { buildEmulatorApp } from '../backend-emulator/app';
const PARENT = 'projects/bench/locations/us-central1';
async function main() {
  const root = '/tmp/a/keep'; fs.rmSync(root, { recursive: true, force: true });
  const storageDir = path.join(root, 'storage'); fs.mkdirSync(path.join(storageDir, 'bench'), { recursive: true });
  await generateVmInfo(path.join(storageDir, 'bench', 'vmInfo.csv'), Number(process.env.N ?? 100000));
  const app = buildEmulatorApp({ dataDir: path.join(root, 'data'), storageDir, logLevel: 'silent' });
  await app.ready();
  const req = async (method: any, url: string, body?: unknown) => (await app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) })).json();
  const waitOp = async (name: string) => { for (;;) { const op = await req('GET', `/v1alpha1/${name}`); if (op.done) return op; await new Promise((r) => setTimeout(r, 20)); } };
  await req('POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, { type: 'SOURCE_TYPE_UPLOAD' });
  await req('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=big`, { assetSource: `${PARENT}/sources/src`, gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bench/vmInfo.csv' } });
  let t = Date.now();
  await waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:validate`, {})).name); console.log('validate', Date.now() - t);
  t = Date.now();
  const { Assets } = require('../backend-emulator/migrationcenter/assets');
  let upsertMs = 0; const orig = Assets.prototype.upsert;
  Assets.prototype.upsert = function (...a: any[]) { const s = process.hrtime.bigint(); const r = orig.apply(this, a); upsertMs += Number(process.hrtime.bigint() - s) / 1e6; return r; };
  await waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:run`, {})).name); console.log('run', Date.now() - t, 'upsert', upsertMs.toFixed(0), 'rss', process.memoryUsage().rss / 1e6);
  await app.close();
}
main();
