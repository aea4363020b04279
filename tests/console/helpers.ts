/** Shared helpers of the web console tests: apps, calls, seed documents, big reports. */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildEmulatorApp, type EmulatorAppOptions } from '../../backend-emulator/app';

/*
 * fastify's inject() loads light-my-request, which require()s `cookie` 2.x, an ESM-only package
 * that jest cannot load untransformed; these tests never send cookies, so a stand-in of the one
 * function used is enough (as in tests/emulator/helpers.ts).
 */
jest.mock('cookie', () => ({
  stringifySetCookie: (c: { name: string; value: string }) => `${c.name}=${encodeURIComponent(c.value)}`,
}));

export const NS_PARENT = 'projects/p1/locations/global';
export const MC_PARENT = 'projects/p1/locations/us-central1';
export const CONSOLE = '/emulator/v1/console';

export const MATCHER = {
  metadataLabelMatcher: {
    metadataLabelMatchCriteria: 'MATCH_ANY',
    metadataLabels: [{ labelName: 'app', labelValue: 'web' }],
  },
};

export const CONDITION = {
  title: 'expires-end-of-2099',
  description: 'Temporary access for the migration',
  expression: 'request.time < timestamp("2100-01-01T00:00:00Z")',
};

export function newApp(options: EmulatorAppOptions = {}): FastifyInstance {
  return buildEmulatorApp({ inMemory: true, logLevel: 'silent', ...options });
}

export interface Res {
  status: number;
  body: any;
  raw: string;
  headers: Record<string, unknown>;
}

export async function call(app: FastifyInstance, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const options: InjectOptions = { method: method as InjectOptions['method'], url, headers };
  if (payload !== undefined) {
    options.payload = typeof payload === 'string' ? payload : JSON.stringify(payload);
    options.headers = { ...headers, 'content-type': 'application/json' };
  }
  const res = await app.inject(options);
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, raw: res.body, headers: res.headers as Record<string, unknown> };
}

export function ok(res: Res, status = 200): any {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.raw.slice(0, 2000)}`);
  return res.body;
}

export function googleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw.slice(0, 2000)}`);
  return res.body.error;
}

export const SEVERITY_CYCLE = ['ERROR', 'WARNING', 'INFO'] as const;

/**
 * A validation report with `total` row errors (one error each), spread over `files` in order
 * ({name: rows}); row i (0-based over the whole report) has severity SEVERITY_CYCLE[i % 3].
 */
export function bigReport(files: Record<string, number>): Record<string, unknown> {
  let i = 0;
  const fileValidations = Object.entries(files).map(([fileName, rows]) => {
    const rowErrors = [];
    for (let r = 0; r < rows; r++, i++) {
      const severity = SEVERITY_CYCLE[i % 3];
      rowErrors.push({
        rowNumber: r + 2,
        vmName: `vm-${i}`,
        vmUuid: `uuid-${i}`,
        errors: [{ severity, errorDetails: `${severity === 'ERROR' ? 'MemoryGiB is not a number' : severity === 'WARNING' ? 'TotalDiskUsedGiB exceeds TotalDiskAllocatedGiB' : 'OsVersion is empty'} (line ${i})` }],
        csvError: { rowNumber: r + 2 },
      });
    }
    return { fileName, rowErrors, partialReport: false, fileErrors: [] };
  });
  return { fileValidations, jobErrors: [] };
}

/** How many lines of bigReport(files) file `name` has of `severity`. */
export function expectedCount(files: Record<string, number>, name: string | undefined, severity: string | undefined): number {
  let i = 0;
  let n = 0;
  for (const [fileName, rows] of Object.entries(files)) {
    for (let r = 0; r < rows; r++, i++) {
      if (name !== undefined && fileName !== name) continue;
      if (severity !== undefined && SEVERITY_CYCLE[i % 3] !== severity) continue;
      n++;
    }
  }
  return n;
}

export const BIG_FILES = { 'vmInfo.csv': 60_000, 'perfInfo.csv': 40_000 };

/** A seeded FAILED_VALIDATION job whose validation report has `files` row errors. */
export function bigJobSeed(id: string, files: Record<string, number> = BIG_FILES): Record<string, unknown> {
  return {
    name: `${MC_PARENT}/importJobs/${id}`,
    displayName: 'Big import',
    state: 'IMPORT_JOB_STATE_FAILED_VALIDATION',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports/big/' },
    createTime: '2024-05-01T10:00:00.000Z',
    updateTime: '2024-05-01T10:05:00.000Z',
    validationReport: bigReport(files),
  };
}

// ---------------------------------------------------------------- manual CSV

export const VM_HEADER =
  'MachineId,MachineName,PrimaryIPAddress,PrimaryMACAddress,PublicIPAddress,IpAddressListSemiColonDelimited,TotalDiskAllocatedGiB,TotalDiskUsedGiB,MachineTypeLabel,AllocatedProcessorCoreCount,MemoryGiB,HostingLocation,OsType,OsName,OsVersion,MachineStatus,ProvisioningState,CreateDate,IsPhysical';

export function vmRow(id: string, name: string, over: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    MachineId: id,
    MachineName: name,
    PrimaryIPAddress: '10.0.0.1',
    PrimaryMACAddress: '00:11:22:33:44:55',
    PublicIPAddress: '',
    IpAddressListSemiColonDelimited: '10.0.0.1',
    TotalDiskAllocatedGiB: '100',
    TotalDiskUsedGiB: '40',
    MachineTypeLabel: 'n1-standard-2',
    AllocatedProcessorCoreCount: '2',
    MemoryGiB: '8',
    HostingLocation: 'us-east-1',
    OsType: 'Linux',
    OsName: 'Ubuntu',
    OsVersion: '22.04',
    MachineStatus: 'Running',
    ProvisioningState: '',
    CreateDate: '2023-01-15 10:00:00',
    IsPhysical: '0',
    ...over,
  };
  return VM_HEADER.split(',')
    .map((c) => values[c] ?? '')
    .join(',');
}

export function csv(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function inlinePayload(files: Record<string, string>): Record<string, unknown> {
  return { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: Object.entries(files).map(([name, text]) => ({ name, data: Buffer.from(text, 'utf8').toString('base64') })) };
}

/** Good rows web-1 and db-1, row 4 with an ERROR (cores not a number), row 5 with a WARNING. */
export const MIXED_CSV = csv(
  VM_HEADER,
  vmRow('m-1', 'web-1'),
  vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }),
  vmRow('m-3', 'bad-1', { AllocatedProcessorCoreCount: 'many' }),
  vmRow('m-4', 'warn-1', { TotalDiskAllocatedGiB: '10', TotalDiskUsedGiB: '20' }),
);

/** Three importable machines, one with a WARNING. */
export const GOOD_CSV = csv(
  VM_HEADER,
  vmRow('g-1', 'app-1'),
  vmRow('g-2', 'app-2', { AllocatedProcessorCoreCount: '4', MemoryGiB: '16' }),
  vmRow('g-3', 'app-3', { TotalDiskAllocatedGiB: '10', TotalDiskUsedGiB: '20' }),
);
