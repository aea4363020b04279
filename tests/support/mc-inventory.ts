/** A small hand-made inventory imported through the REST wire (groups and reports tests). */
import type { FastifyInstance } from 'fastify';
import { BASE, PARENT, act, createJob, csv, inlinePayload, ok, vmRow, VM_HEADER } from './migrationcenter';

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

export { BASE, PARENT };
