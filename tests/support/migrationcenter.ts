/** Shared helpers of the Migration Center tests. */
import type { FastifyInstance } from 'fastify';
import { call, ok, type Res } from './inject';
import { csv, vmRow, VM_HEADER } from './manual-csv';
export { call, ok, googleError, type Res } from './inject';
export { VM_HEADER, vmRow, csv, b64, inlinePayload } from './manual-csv';
export { inMemoryApp as newApp } from './app';
export { tempDir } from '../../support/temp-dir';

export const PARENT = 'projects/p1/locations/us-central1';
export const BASE = `/v1alpha1/${PARENT}`;
export const IMPORT_JOB_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJob';
export const METADATA_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.OperationMetadata';
export const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

/** Two good machines. */
export const GOOD_VM_INFO = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }));

/** The field violations of an INVALID_ARGUMENT error. */
export function violations(error: { details: any[] }): Array<{ field: string; description: string }> {
  const bad = error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
  return bad ? bad.fieldViolations : [];
}

/** The source the tests' jobs name unless they say otherwise (created by `ensureSource`). */
export const SOURCE = `${PARENT}/sources/src`;

/** Creates a source of PARENT unless it exists (assetSource must name an existing source). */
export async function ensureSource(app: FastifyInstance, name = SOURCE): Promise<void> {
  if ((await call(app, 'GET', `/v1alpha1/${name}`)).status === 200) return;
  const [parent, id] = name.split('/sources/');
  ok(await call(app, 'POST', `/v1alpha1/${parent}/sources?sourceId=${id}`, { type: 'SOURCE_TYPE_UPLOAD' }));
}

/**
 * Creates an import job. A body without an `assetSource` key names SOURCE, created first; a body
 * with one (even undefined) is sent as it is, for the tests of the reference itself.
 */
export async function createJob(app: FastifyInstance, id: string, body: Record<string, unknown>, query = ''): Promise<Res> {
  if (!('assetSource' in body)) {
    await ensureSource(app);
    body = { assetSource: SOURCE, ...body };
  }
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

/**
 * What ProtoJSON puts on the wire for an engine value (a report that never went over the wire):
 * the same value with the default-valued fields left out at every depth — empty lists, `false`,
 * `0`, `""`, `null`, enum zeros — list elements all kept. Written on the test side, apart from the
 * emulator's serializer, so that the wire is compared with the engine by an independent reading.
 */
const ENUM_ZERO = /^[A-Z][A-Z0-9_]*_UNSPECIFIED$|^SOURCE_TYPE_UNKNOWN$|^OS_FAMILY_UNKNOWN$/;
export function onTheWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(onTheWire);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined || field === null || field === false || field === 0 || field === '') continue;
    if (Array.isArray(field) && field.length === 0) continue;
    if (typeof field === 'string' && ENUM_ZERO.test(field) && key !== 'errorDetails' && key !== 'message') continue;
    out[key] = onTheWire(field);
  }
  return out;
}

export const DATA_FILE_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportDataFile';

/** Creates an import data file of job `jobId` (a manual CSV by default); returns the response. */
export async function createDataFile(app: FastifyInstance, jobId: string, fileId: string, body: Record<string, unknown> = {}, query = ''): Promise<Res> {
  return call(app, 'POST', `/v1alpha1/${jobName(jobId)}/importDataFiles?importDataFileId=${fileId}${query}`, {
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    ...body,
  });
}

/** PUTs bytes to a data file's signed URL through inject() (the URL's path and query), with its headers. */
export async function upload(app: FastifyInstance, info: { signedUri: string; headers: Record<string, string> }, bytes: string | Buffer): Promise<Res> {
  const url = new URL(info.signedUri);
  return call(app, 'PUT', `${url.pathname}${url.search}`, bytes, info.headers);
}
