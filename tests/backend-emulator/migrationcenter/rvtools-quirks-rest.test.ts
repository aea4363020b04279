/**
 * Issue 26 through the REST flow: the assets an import job makes from the quirk fixtures of
 * tests/support/rvtools-quirks.ts (the report side runs in real-exports-rest.test.ts). Expected
 * values are literals worked out by hand from the fixtures.
 */
import type { FastifyInstance } from 'fastify';
import { act, BASE, call, createJob, newApp, ok } from '../../support/migrationcenter';
import type { NamedBytes } from '../../support/real-exports';
import { noCreationDate, orphanRows, rvtoolsCsvUnnamed, tieBreakers } from '../../support/rvtools-quirks';
import { sharedApp } from '../../support/app';

interface Vm {
  vmName?: string;
  createTime?: string;
  vmArchitecture?: { cpuSocketCount?: number };
  vmDisks?: { hddTotalFreeBytes?: string };
}

// One emulator per test: the fixtures share VM UUIDs, so their assets would be one another's.
let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});

/** Runs one import job of `files` to COMPLETED and returns its VMs by name. */
async function importVms(id: string, format: string, files: NamedBytes[]): Promise<Map<string, Vm>> {
  const payload = { format, payload: files.map((f) => ({ name: f.name, data: f.data.toString('base64') })) };
  ok(await createJob(app, id, { inlinePayload: payload }));
  const [, validated] = await act(app, id, 'validate');
  expect(validated.state).toBe('IMPORT_JOB_STATE_READY');
  const [, job] = await act(app, id, 'run');
  expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=500`));
  const vms = new Map<string, Vm>();
  for (const a of (page.assets ?? []) as Array<{ virtualMachineDetails: Vm }>) vms.set(`${a.virtualMachineDetails.vmName}`, a.virtualMachineDetails);
  return vms;
}

it('class 1: the orphan rows add nothing to the VMs of vInfo', async () => {
  const vms = await importVms('quirk-orphans', 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', await orphanRows());
  expect([...vms.keys()].sort()).toEqual(['web-01', 'web-02']);
  expect(vms.get('web-01')!.vmDisks?.hddTotalFreeBytes).toBe('6442450944' /* 6,144 MiB */);
});

it('class 2: the epoch placeholder gives no createTime', async () => {
  const vms = await importVms('quirk-dates', 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', await noCreationDate());
  expect(['web-01', 'web-02', 'web-03', 'web-04'].map((n) => vms.get(n)!.createTime)).toEqual([undefined, undefined, undefined, '2023-05-01T08:00:00Z']);
});

it('class 3: vCPU rows join by unique name, and by datacenter where two VMs share a name', async () => {
  const vms = await importVms('quirk-ties', 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', await tieBreakers());
  expect(vms.get('web-01')!.vmArchitecture?.cpuSocketCount).toBe(1);
});

it('class 5: RVTools tabs without their names join as the named tabs do', async () => {
  const vms = await importVms('quirk-names', 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', rvtoolsCsvUnnamed());
  expect(vms.get('web-01')!.vmDisks?.hddTotalFreeBytes).toBe('6442450944' /* 6,144 MiB */);
});
