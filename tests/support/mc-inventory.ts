/** A small hand-made inventory imported through the REST wire (groups and reports tests). */
import type { FastifyInstance } from 'fastify';
import { BASE, PARENT, act, createJob, csv, inlinePayload, ok, vmRow, VM_HEADER } from './migrationcenter';
import { operationDone, type RestApi } from './rest-api';

/**
 * Five machines whose figures the tests know by heart:
 *
 *   id    cores  memory   disk (allocated / used)   OS
 *   m-1       2   8 GiB   100 GiB / 40 GiB           Linux
 *   m-2       4  16 GiB   200 GiB / 50 GiB           Linux
 *   m-3       8  32 GiB   500 GiB / 100 GiB          Windows
 *   m-4      16  64 GiB  1000 GiB / 250 GiB          Windows
 *   m-5       1   2 GiB    20 GiB / 10 GiB           Linux
 */
export const FIVE_MACHINES = csv(
  VM_HEADER,
  vmRow('m-1', 'web-1', { AllocatedProcessorCoreCount: '2', MemoryGiB: '8', TotalDiskAllocatedGiB: '100', TotalDiskUsedGiB: '40' }),
  vmRow('m-2', 'web-2', { AllocatedProcessorCoreCount: '4', MemoryGiB: '16', TotalDiskAllocatedGiB: '200', TotalDiskUsedGiB: '50' }),
  vmRow('m-3', 'db-1', {
    AllocatedProcessorCoreCount: '8',
    MemoryGiB: '32',
    TotalDiskAllocatedGiB: '500',
    TotalDiskUsedGiB: '100',
    OsType: 'Windows',
    OsName: 'Windows Server 2019',
    OsVersion: '10.0',
  }),
  vmRow('m-4', 'db-2', {
    AllocatedProcessorCoreCount: '16',
    MemoryGiB: '64',
    TotalDiskAllocatedGiB: '1000',
    TotalDiskUsedGiB: '250',
    OsType: 'Windows',
    OsName: 'Windows Server 2019',
    OsVersion: '10.0',
  }),
  vmRow('m-5', 'tool-1', { AllocatedProcessorCoreCount: '1', MemoryGiB: '2', TotalDiskAllocatedGiB: '20', TotalDiskUsedGiB: '10' }),
);

/** The asset name of machine `m-N` of FIVE_MACHINES. */
export function assetOf(machineId: string): string {
  return `${PARENT}/assets/vm-${machineId}`;
}

/** Imports `vmInfo` (FIVE_MACHINES by default) through an import job that runs to completion. */
export async function importMachines(app: FastifyInstance, vmInfo = FIVE_MACHINES, jobId = 'inventory'): Promise<void> {
  ok(await createJob(app, jobId, { inlinePayload: inlinePayload({ 'vmInfo.csv': vmInfo }) }));
  await act(app, jobId, 'validate');
  const [, job] = await act(app, jobId, 'run');
  if (job.state !== 'IMPORT_JOB_STATE_COMPLETED') throw new Error(`import ${jobId} ended ${job.state}: ${JSON.stringify(job.executionReport)}`);
}

/**
 * The planning inventory of a listening emulator, seeded in `parent` through its REST API:
 * FIVE_MACHINES imported (source and job `inventory`), the preference set `moderate` ("Moderate":
 * europe-west1, Compute Engine, one-year commitment, moderate sizing, N2 then E2) made the
 * location's default, and the group `web` ("Web tier", labelled tier=web) of m-1, m-2 and m-5.
 * Only data: the tests that use it keep their expected figures, worked out by hand.
 */
export async function seedPlanningInventory(api: RestApi, parent: string): Promise<void> {
  await api('POST', '/emulator/v1/seed', { sources: [{ name: `${parent}/sources/inventory` }] });
  await api('POST', `/v1alpha1/${parent}/importJobs?importJobId=inventory`, {
    assetSource: `${parent}/sources/inventory`,
    inlinePayload: inlinePayload({ 'vmInfo.csv': FIVE_MACHINES }),
  });
  await operationDone(api, await api('POST', `/v1alpha1/${parent}/importJobs/inventory:validate`, {}));
  await operationDone(api, await api('POST', `/v1alpha1/${parent}/importJobs/inventory:run`, {}));
  await api('POST', `/v1alpha1/${parent}/preferenceSets?preferenceSetId=moderate`, {
    displayName: 'Moderate',
    regionPreferences: { preferredRegions: ['europe-west1'] },
    virtualMachinePreferences: {
      targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
      commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR',
      sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_MODERATE',
      computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'N2' }, { code: 'E2' }] } },
    },
  });
  await api('PATCH', `/v1alpha1/${parent}/settings?updateMask=preferenceSet`, { preferenceSet: `${parent}/preferenceSets/moderate` });
  await api('POST', `/v1alpha1/${parent}/groups?groupId=web`, { displayName: 'Web tier', description: 'front ends', labels: { tier: 'web' } });
  await api('POST', `/v1alpha1/${parent}/groups/web:addAssets`, { assets: { assetIds: ['m-1', 'm-2', 'm-5'].map((m) => `${parent}/assets/vm-${m}`) } });
}

export { BASE, PARENT };
