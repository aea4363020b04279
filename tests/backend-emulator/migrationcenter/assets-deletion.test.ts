/** Deleting a source or an import job: the assets stay (as on Google), their `sources` shrink. */
import type { FastifyInstance } from 'fastify';
import {
  act,
  BASE,
  call,
  createJob,
  csv,
  ensureSource,
  inlinePayload,
  newApp,
  ok,
  PARENT,
  VM_HEADER,
  vmRow,
  waitOperation,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const SRC_A = `${PARENT}/sources/a`;
const SRC_B = `${PARENT}/sources/b`;

async function importRows(app: FastifyInstance, id: string, source: string, rows: string[]): Promise<void> {
  await ensureSource(app, source);
  ok(await createJob(app, id, { assetSource: source, inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, ...rows) }) }));
  await act(app, id, 'validate');
  expect((await act(app, id, 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
}

/** Each asset's sources by VM name (absent `sources` is the empty list on the wire). */
async function sourcesByVm(app: FastifyInstance): Promise<Record<string, string[]>> {
  const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=100`));
  return Object.fromEntries(page.assets.map((a: any) => [a.virtualMachineDetails.vmName, a.sources ?? []]));
}

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await importRows(app, 'j-a', SRC_A, [vmRow('m-1', 'one'), vmRow('m-2', 'two')]);
  await importRows(app, 'j-b', SRC_B, [vmRow('m-2', 'two'), vmRow('m-3', 'three')]);
});

test('deleting a source keeps its assets and takes it out of their sources', async () => {
  expect(await sourcesByVm(app)).toEqual({ one: [SRC_A], two: [SRC_A, SRC_B], three: [SRC_B] });
  const op = ok(await call(app, 'DELETE', `/v1alpha1/${SRC_B}`));
  await waitOperation(app, op.name);
  expect(await sourcesByVm(app)).toEqual({ one: [SRC_A], two: [SRC_A], three: [] });
  // No filter finds the deleted source any more; GetAsset agrees with the list.
  expect(ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent(`sources:"${SRC_B}"`)}`)).assets).toBeUndefined();
  const three = ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent('virtualMachineDetails.vmName = three')}`)).assets[0];
  expect(ok(await call(app, 'GET', `/v1alpha1/${three.name}`)).sources).toBeUndefined();
});

test("deleting an import job keeps its assets; they keep naming the job's source, which still exists", async () => {
  ok(await call(app, 'DELETE', `${BASE}/importJobs/j-b?force=true`));
  expect(await sourcesByVm(app)).toEqual({ one: [SRC_A], two: [SRC_A, SRC_B], three: [SRC_B] });
});

test('a source imported again after deletion is a new reporter of the assets it imports', async () => {
  ok(await call(app, 'DELETE', `/v1alpha1/${SRC_B}`));
  await importRows(app, 'j-b2', SRC_B, [vmRow('m-3', 'three')]);
  expect(await sourcesByVm(app)).toEqual({ one: [SRC_A], two: [SRC_A], three: [SRC_B] });
});
