/**
 * kill -9 right after operations.cancel during a `:run` (issue 27: the import work runs in a worker
 * thread, the request thread writes its batches): after the restart the job is FAILED, its report
 * counts exactly the assets in the store, and those are whole batches. The compiled CLI, with a
 * durable data dir. Kill tests: run by `npm test`, left out of `test:quick`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { http } from '../../../support/cli-process';
import { tempDir } from '../../../support/temp-dir';
import { cliStarterOfThisFile } from '../../support/cli-processes';
import { RUN_BATCH_SIZE } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-work';
import { VM_HEADER, vmRow } from '../../support/migrationcenter';

jest.setTimeout(240_000);

const start = cliStarterOfThisFile();
const PARENT = 'projects/p1/locations/us-central1';
const MACHINES = 100_000;

async function assetCount(url: string): Promise<number> {
  let n = 0;
  let token = '';
  do {
    const res = await http(`${url}/v1alpha1/${PARENT}/assets?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, 'GET');
    expect(res.status).toBe(200);
    n += (res.body.assets ?? []).length;
    token = res.body.nextPageToken ?? '';
  } while (token);
  return n;
}

test('kill -9 just after :cancel during a run: on restart the job is FAILED and counts exactly the whole batches stored', async () => {
  const dataDir = tempDir();
  const storageDir = tempDir();
  fs.mkdirSync(path.join(storageDir, 'bucket'));
  const lines = [VM_HEADER];
  for (let i = 1; i <= MACHINES; i++) lines.push(vmRow(`m-${i}`, `vm-${i}`));
  fs.writeFileSync(path.join(storageDir, 'bucket', 'vmInfo.csv'), lines.join('\n') + '\n');

  const p = await start(['--port', '0', '--data-dir', dataDir, '--storage-dir', storageDir]);
  const post = async (url: string, body: unknown = {}) => {
    const res = await http(`${p.url}${url}`, 'POST', body);
    expect(res.status).toBe(200);
    return res.body;
  };
  const get = async (url: string) => {
    const res = await http(`${p.url}${url}`, 'GET');
    expect(res.status).toBe(200);
    return res.body;
  };
  await post(`/v1alpha1/${PARENT}/sources?sourceId=src`, { type: 'SOURCE_TYPE_UPLOAD' });
  await post(`/v1alpha1/${PARENT}/importJobs?importJobId=big`, {
    assetSource: `${PARENT}/sources/src`,
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/vmInfo.csv' },
  });
  const validating = await post(`/v1alpha1/${PARENT}/importJobs/big:validate`);
  while (!(await get(`/v1alpha1/${validating.name}`)).done) await new Promise((r) => setTimeout(r, 20));
  const running = await post(`/v1alpha1/${PARENT}/importJobs/big:run`);
  for (;;) {
    const op = await get(`/v1alpha1/${running.name}`);
    expect(op.done).toBeUndefined();
    if (/[1-9][\d,]* assets written$/.test(op.metadata.statusMessage ?? '')) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await post(`/v1alpha1/${running.name}:cancel`);
  p.child.kill('SIGKILL');
  expect((await p.exited).signal).toBe('SIGKILL');

  const again = await start(['--port', '0', '--data-dir', dataDir, '--storage-dir', storageDir]);
  const job = (await http(`${again.url}/v1alpha1/${PARENT}/importJobs/big`, 'GET')).body;
  expect(job.state).toBe('IMPORT_JOB_STATE_FAILED');
  const op = (await http(`${again.url}/v1alpha1/${running.name}`, 'GET')).body;
  expect(op.done).toBe(true);
  // The cancel's end was committed before the kill: CANCELLED, not the restart's ABORTED.
  expect(op.error.code).toBe(1);
  const frames = Number(job.executionReport.framesReported ?? 0);
  expect(frames % RUN_BATCH_SIZE).toBe(0);
  expect(frames).toBeGreaterThan(0);
  expect(frames).toBeLessThan(MACHINES);
  expect(await assetCount(again.url)).toBe(frames);
});
