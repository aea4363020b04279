/** Shared helpers of the Migration Center tests. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
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

export const PARENT = 'projects/p1/locations/us-central1';
export const BASE = `/v1alpha1/${PARENT}`;
export const IMPORT_JOB_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJob';
export const METADATA_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.OperationMetadata';
export const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

export const VM_HEADER =
  'MachineId,MachineName,PrimaryIPAddress,PrimaryMACAddress,PublicIPAddress,IpAddressListSemiColonDelimited,TotalDiskAllocatedGiB,TotalDiskUsedGiB,MachineTypeLabel,AllocatedProcessorCoreCount,MemoryGiB,HostingLocation,OsType,OsName,OsVersion,MachineStatus,ProvisioningState,CreateDate,IsPhysical';

/** A vmInfo.csv row; `over` replaces columns by name. */
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

export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function inlinePayload(files: Record<string, string>, format = 'IMPORT_JOB_FORMAT_MANUAL_CSV'): Record<string, unknown> {
  return { format, payload: Object.entries(files).map(([name, text]) => ({ name, data: b64(text) })) };
}

/** Two good machines. */
export const GOOD_VM_INFO = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }));

export function tempDir(prefix = 'mc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function newApp(options: EmulatorAppOptions = {}): FastifyInstance {
  return buildEmulatorApp({ inMemory: true, logLevel: 'silent', ...options });
}

export interface Res {
  status: number;
  body: any;
  raw: string;
}

export async function call(app: FastifyInstance, method: string, url: string, payload?: unknown): Promise<Res> {
  const options: InjectOptions = { method: method as InjectOptions['method'], url };
  if (payload !== undefined) {
    options.payload = typeof payload === 'string' ? payload : JSON.stringify(payload);
    options.headers = { 'content-type': 'application/json' };
  }
  const res = await app.inject(options);
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, raw: res.body };
}

export function ok(res: Res, status = 200): any {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.raw}`);
  return res.body;
}

/** Asserts a google.rpc.Status error and returns it. */
export function googleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw}`);
  return res.body.error;
}

/** The field violations of an INVALID_ARGUMENT error. */
export function violations(error: { details: any[] }): Array<{ field: string; description: string }> {
  const bad = error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
  return bad ? bad.fieldViolations : [];
}

export async function createJob(app: FastifyInstance, id: string, body: Record<string, unknown>, query = ''): Promise<Res> {
  return call(app, 'POST', `${BASE}/importJobs?importJobId=${id}${query}`, body);
}

export function jobName(id: string): string {
  return `${PARENT}/importJobs/${id}`;
}

/** Polls an Operation (GET, as clients do) until it is done. */
export async function waitOperation(app: FastifyInstance, name: string, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${name}`));
    if (op.done) return op;
    if (Date.now() > deadline) throw new Error(`operation ${name} not done after ${timeoutMs} ms: ${JSON.stringify(op)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** :validate or :run, then waits for the operation; returns [operation, job]. */
export async function act(app: FastifyInstance, id: string, verb: 'validate' | 'run'): Promise<[any, any]> {
  const op = ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:${verb}`, {}));
  const done = await waitOperation(app, op.name);
  const job = ok(await call(app, 'GET', `/v1alpha1/${jobName(id)}`));
  return [done, job];
}
