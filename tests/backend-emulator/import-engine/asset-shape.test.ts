/**
 * Every key path the import engine writes exists in Google's v1alpha1 client (`googleapis`
 * migrationcenter/v1alpha1.d.ts, `Schema$Asset` and below) with the same name and JSON type; int64
 * fields are decimal strings; the two string fields with a closed vocabulary hold Google's values.
 * Checked on the assets of every format's fixtures, and on the assets the REST API lists after a
 * real import job, so the shapes cannot drift again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { executeImport, listFormats, type Asset, type ImportJobFormat, type PayloadFile } from '../../../backend-emulator/import-engine';
import { bufferFile, FIXTURES } from '../../support/import-formats';
import { loadSchemas, shapeViolations } from '../../support/googleapis-schema';
import { act, BASE, call, createJob, newApp, ok, PARENT } from '../../support/migrationcenter';

const SCHEMAS = loadSchemas('migrationcenter', 'v1alpha1');

/** The fixtures each implemented format is checked with (a directory: all its files; a file: alone). */
const FIXTURES_BY_FORMAT: Record<string, string[]> = {
  IMPORT_JOB_FORMAT_MANUAL_CSV: readdirSync(join(FIXTURES, 'manual-csv', 'valid')).map((d) => `manual-csv/valid/${d}`),
  IMPORT_JOB_FORMAT_RVTOOLS_CSV: ['rvtools/csv-valid'],
  IMPORT_JOB_FORMAT_RVTOOLS_XLSX: ['rvtools/BillSampleNextRvtoolsFinal.xlsx', 'rvtools/SizingWorkshop-RVTools.xlsx'],
  IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: ['aws/valid'],
  IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: ['azure/valid'],
  IMPORT_JOB_FORMAT_CMDB: ['cmdb/valid'],
};

function payload(relative: string): PayloadFile[] {
  const path = join(FIXTURES, relative);
  if (relative.endsWith('.xlsx')) return [bufferFile(relative.split('/').pop()!, readFileSync(path))];
  return readdirSync(path)
    .sort()
    .map((n) => bufferFile(n, readFileSync(join(path, n))));
}

async function assetsOf(format: ImportJobFormat, relative: string): Promise<Asset[]> {
  const assets: Asset[] = [];
  await executeImport(format, payload(relative), { write: (batch) => void assets.push(...batch) });
  return assets;
}

/** The engine's asset as the store writes it: `machineId` is the engine's key, not a wire field. */
function wireOf(asset: Asset): Record<string, unknown> {
  const { machineId: _key, ...wire } = asset;
  return wire;
}

/** Values of the two string fields whose vocabulary Google documents. */
function vocabularyViolations(asset: Record<string, any>): string[] {
  const d = asset.virtualMachineDetails ?? {};
  const out: string[] = [];
  // "Power state of VM (poweredOn or poweredOff)"; vSphere's third state is `suspended`.
  if (d.powerState !== undefined && !['poweredOn', 'poweredOff', 'suspended'].includes(d.powerState)) out.push(`powerState ${d.powerState}`);
  if (d.osFamily !== undefined && !['OS_FAMILY_UNKNOWN', 'OS_FAMILY_WINDOWS', 'OS_FAMILY_LINUX', 'OS_FAMILY_UNIX'].includes(d.osFamily))
    out.push(`osFamily ${d.osFamily}`);
  for (const disk of d.vmDisks?.disks?.entries ?? []) {
    if (disk.interfaceType !== undefined && !['IDE', 'SATA', 'SCSI', 'NVME', 'SAS'].includes(disk.interfaceType))
      out.push(`interfaceType ${disk.interfaceType}`);
  }
  return out;
}

describe('the googleapis type definitions as read by the checker', () => {
  test('Schema$Asset and the machine details are found with their fields', () => {
    expect([...SCHEMAS.get('Asset')!.keys()]).toEqual(
      expect.arrayContaining(['name', 'attributes', 'labels', 'virtualMachineDetails', 'performanceData', 'sources', 'title']),
    );
    expect(SCHEMAS.get('NetworkAddressList')!.get('addresses')).toEqual({ kind: 'array', of: { kind: 'schema', name: 'NetworkAddress' } });
    expect(SCHEMAS.get('Asset')!.get('labels')).toEqual({ kind: 'map', of: { kind: 'string' } });
  });

  test('the checker refuses the old shapes (so the tests below can fail)', () => {
    const old = {
      machineDetails: {},
      virtualMachineDetails: {
        powerState: 'ACTIVE',
        coreCount: '4',
        vmNetwork: { ipAddresses: ['10.0.0.1'], networkAdapters: { networkAdapters: [{ addresses: { entries: [{ ipAddress: '10.0.0.1' }] } }] } },
        vmDisks: { hddTotalCapacityBytes: '1.5', disks: { entries: [{ capacityBytes: '1' }] } },
      },
    };
    expect(shapeViolations(SCHEMAS, 'Asset', old)).toEqual([
      'machineDetails: Schema$Asset has no field "machineDetails"',
      'virtualMachineDetails.coreCount: expected a number, got "4"',
      'virtualMachineDetails.vmNetwork.ipAddresses: Schema$VirtualMachineNetworkDetails has no field "ipAddresses"',
      'virtualMachineDetails.vmNetwork.networkAdapters.networkAdapters[].addresses.entries: Schema$NetworkAddressList has no field "entries"',
      'virtualMachineDetails.vmDisks.hddTotalCapacityBytes: int64 must be a decimal string, got "1.5"',
      'virtualMachineDetails.vmDisks.disks.entries[].capacityBytes: Schema$DiskEntry has no field "capacityBytes"',
    ]);
    expect(vocabularyViolations(old)).toEqual(['powerState ACTIVE']);
  });
});

describe("every format's assets have Google's v1alpha1 shapes", () => {
  test('every implemented format has fixtures here', () => {
    expect(Object.keys(FIXTURES_BY_FORMAT).sort()).toEqual(
      listFormats()
        .map((f) => f.format)
        .sort(),
    );
  });

  const seen = new Set<string>();

  test.each(Object.entries(FIXTURES_BY_FORMAT).flatMap(([format, dirs]) => dirs.map((d) => [format, d])))('%s: %s', async (format, relative) => {
    const assets = await assetsOf(format as ImportJobFormat, relative);
    expect(assets.length).toBeGreaterThan(0);
    const problems = new Set<string>();
    for (const a of assets) {
      for (const p of shapeViolations(SCHEMAS, 'Asset', wireOf(a), seen)) problems.add(p);
      for (const p of vocabularyViolations(wireOf(a))) problems.add(p);
    }
    expect([...problems]).toEqual([]);
  });

  test('the walk reached the nested lists (it is not vacuous)', () => {
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'virtualMachineDetails.vmNetwork.networkAdapters.networkAdapters[].addresses.addresses[].ipAddress',
        'virtualMachineDetails.vmNetwork.networkAdapters.networkAdapters[].macAddress',
        'virtualMachineDetails.vmDisks.disks.entries[].interfaceType',
        'virtualMachineDetails.vmDisks.disks.entries[].totalCapacityBytes',
        'virtualMachineDetails.vmDisks.hddTotalFreeBytes',
        'virtualMachineDetails.platform.awsEc2Details.machineTypeLabel',
        'virtualMachineDetails.platform.azureVmDetails.provisioningState',
        'virtualMachineDetails.platform.physicalDetails.location',
        'virtualMachineDetails.vmArchitecture.cpuSocketCount',
        'virtualMachineDetails.powerState',
        'virtualMachineDetails.osFamily',
        'performanceData.dailyResourceUsageAggregations[].disk.readIops.ninteyFifthPercentile',
        'labels{}',
        'attributes{}',
      ]),
    );
  });
});

describe('assets listed by the REST API after an import job', () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = newApp();
  });
  afterAll(() => app.close());

  test.each([
    ['IMPORT_JOB_FORMAT_MANUAL_CSV', 'manual-csv/valid/basic'],
    ['IMPORT_JOB_FORMAT_RVTOOLS_CSV', 'rvtools/csv-valid'],
    ['IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV', 'azure/valid'],
  ])('%s (%s): list and get, FULL view, match Schema$Asset', async (format, relative) => {
    const id = format.toLowerCase().replace(/_/g, '-').replace('import-job-format-', 'shape-');
    ok(await call(app, 'POST', `${BASE}/sources?sourceId=${id}`, {}));
    const files = readdirSync(join(FIXTURES, relative)).sort();
    const inlinePayload = { format, payload: files.map((n) => ({ name: n, data: readFileSync(join(FIXTURES, relative, n)).toString('base64') })) };
    ok(await createJob(app, id, { assetSource: `${PARENT}/sources/${id}`, inlinePayload }));
    expect((await act(app, id, 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    expect((await act(app, id, 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');

    const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=1000&view=ASSET_VIEW_FULL`));
    const assets: Array<Record<string, any>> = (page.assets ?? []).filter((a: any) => (a.sources ?? []).includes(`${PARENT}/sources/${id}`));
    expect(assets.length).toBeGreaterThan(0);
    const one = ok(await call(app, 'GET', `/v1alpha1/${assets[0].name}?view=ASSET_VIEW_FULL`));
    const problems = [...assets, one].flatMap((a) => [...shapeViolations(SCHEMAS, 'Asset', a), ...vocabularyViolations(a)]);
    expect(problems).toEqual([]);
    // The address lists are Google's `{addresses: [...]}`, read as a googleapis client would.
    const adapters = assets.flatMap((a) => a.virtualMachineDetails?.vmNetwork?.networkAdapters?.networkAdapters ?? []);
    expect(adapters.flatMap((n: any) => n.addresses?.addresses ?? []).length).toBeGreaterThan(0);
  });
});
