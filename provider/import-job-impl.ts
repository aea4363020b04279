/**
 * The ImportJob provider's work: create with a requestId, validate, run, and wait for the end,
 * so a job's outputs carry both reports and its final state. Data errors are not call errors:
 * they show in the reports and in `state`. A job declared without a payload is only created (it
 * stays PENDING until data files are added to it): validating it would fail for want of data.
 *
 * Local `files` (with their `format`) become import data files: on create the job is created
 * without payload, each file is added as a data file and its bytes streamed to the signed upload
 * URL, then the job is validated and run as for a payload. `check` records each file's sha256 (so a
 * preview knows whether a file changed); `diff` replaces the job when a file's name or bytes
 * changed, as for a payload change: a job runs once.
 *
 * Arguments may use the resource reference's neutral names (`storagePayload`, `_VMTOOL_*`,
 * `_EXPORTED_CLOUDA/CLOUDB_CSV`): `check` translates them (schemas/aliases.ts) and only Google's
 * wire names are ever sent.
 */
import type * as pulumi from '@pulumi/pulumi';
import { v4 as uuidv4 } from 'uuid';
import { importJobToWire, validateImportJobArgs, withRequiredDefaults } from '../schemas';
import * as path from 'node:path';
import { isNotFound, type Operation } from './client';
import { inspectLocalFiles, uploadLocalFile, type LocalFileState } from './data-files';
import { clientFor, configValue, containsUnknown, defaultLocation, defaultProject, sameJson, withoutUndefined } from './runtime';

const API_VERSION = 'v1alpha1';
const DEFAULT_TIMEOUT_SECONDS = 20 * 60;

/** Inputs after `check`: wire spelling (`gcsPayload`, `IMPORT_JOB_FORMAT_RVTOOLS_*`), defaults filled. */
export interface ImportJobInputs {
  importJobId: string;
  project: string;
  location: string;
  assetSource?: string;
  displayName?: string;
  labels?: Record<string, string>;
  requestId?: string;
  gcsPayload?: { format: string; path: string };
  inlinePayload?: { format: string; payload: Array<{ name: string; data: string }> };
  /** The format of `files` (wire spelling). */
  format?: string;
  /** Local files, with the size and sha256 `check` read (outputs: those that were uploaded). */
  files?: LocalFileState[];
}

interface ImportJobWire {
  name: string;
  displayName?: string;
  labels?: Record<string, string>;
  assetSource?: string;
  state?: string;
  createTime?: string;
  updateTime?: string;
  completeTime?: string;
  validationReport?: unknown;
  executionReport?: unknown;
}

const REPLACE_ON_CHANGE = ['importJobId', 'project', 'location', 'assetSource', 'gcsPayload', 'inlinePayload', 'format', 'files'] as const;
const UPDATE_IN_PLACE = ['displayName', 'labels'] as const;

const client = () => clientFor('migrationcenter');

function timeoutMs(): number {
  const configured = Number(configValue('importTimeoutSeconds'));
  return (Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_TIMEOUT_SECONDS) * 1000;
}

function jobName(inputs: Pick<ImportJobInputs, 'project' | 'location' | 'importJobId'>): string {
  return `projects/${inputs.project}/locations/${inputs.location}/importJobs/${inputs.importJobId}`;
}

function wait<R>(op: Operation<R>): Promise<Operation<R>> {
  return client().waitForOperation(op, { apiVersion: API_VERSION, timeoutMs: timeoutMs(), initialPollMs: 100, maxPollMs: 2000 });
}

/**
 * Reads the local files of `inputs.files` (when every path is known): their size and sha256 go
 * into the inputs, so a preview already knows whether a file changed; a missing, unreadable or too
 * large file is a check failure naming it.
 */
async function withFileHashes(inputs: Record<string, unknown>, failures: Array<{ property: string; reason: string }>): Promise<void> {
  const files = inputs.files;
  if (!Array.isArray(files) || containsUnknown(files)) return;
  if (failures.some((f) => f.property === 'files' || f.property.startsWith('files['))) return;
  const paths = files.map((f: { path: string }) => f.path);
  const inspected = await inspectLocalFiles(paths);
  for (const f of inspected.failures) failures.push({ property: `files[${f.index}].path`, reason: f.reason });
  if (inspected.failures.length === 0) inputs.files = inspected.files;
}

export async function check(_olds: pulumi.Inputs, news: pulumi.Inputs): Promise<pulumi.dynamic.CheckResult> {
  const raw: Record<string, unknown> = { ...news };
  delete raw.__provider;
  delete raw.name;
  for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];
  const inputs: Record<string, unknown> = { project: defaultProject(), location: defaultLocation(), ...raw };
  const known = Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined && !containsUnknown(v)));
  const failures = validateImportJobArgs(known).filter((f) => !(f.reason.startsWith('is required') && Object.values(raw).some(containsUnknown)));
  if (inputs.project === undefined) {
    failures.push({
      property: 'project',
      reason: 'is required: set it, or the stack config google-native-local:project, or GOOGLE_CLOUD_PROJECT',
    });
  }
  await withFileHashes(inputs, failures);
  // The name follows from the inputs: known at preview, so what refers to it does not preview as replaced.
  const place = [inputs.project, inputs.location, inputs.importJobId];
  if (place.every((v) => typeof v === 'string' && !containsUnknown(v))) inputs.name = jobName(inputs as unknown as ImportJobInputs);
  return { inputs: withoutUndefined(importJobToWire(inputs)), failures };
}

/**
 * What of the files Google sees: each data file's name and bytes. The path itself is not (moving
 * the folder of unchanged files changes nothing); a file not hashed yet (unknown at preview) counts
 * as changed.
 */
function filesSeenByGoogle(files: LocalFileState[] | undefined): unknown {
  return files?.map((f) => [path.basename(f.path), f.sha256 ?? f.path]);
}

function changed(olds: ImportJobInputs, news: ImportJobInputs, key: (typeof REPLACE_ON_CHANGE)[number]): boolean {
  if (key === 'files') return !sameJson(filesSeenByGoogle(olds.files), filesSeenByGoogle(news.files));
  return !sameJson(olds[key], news[key]);
}

export function diff(_id: string, olds: ImportJobInputs, news: ImportJobInputs): pulumi.dynamic.DiffResult {
  const replaces = REPLACE_ON_CHANGE.filter((k) => changed(olds, news, k));
  const updates = UPDATE_IN_PLACE.filter((k) => !sameJson(olds[k], news[k]));
  // The same job name cannot hold two jobs: the old one must go first.
  const sameName = olds.importJobId === news.importJobId && olds.project === news.project && olds.location === news.location;
  return {
    changes: replaces.length > 0 || updates.length > 0,
    replaces: [...replaces],
    stables: ['importJobId', 'project', 'location'].filter((k) => !replaces.includes(k as (typeof REPLACE_ON_CHANGE)[number])),
    deleteBeforeReplace: replaces.length > 0 && sameName,
  };
}

async function getJob(name: string): Promise<ImportJobWire> {
  return client().get<ImportJobWire>(`/${API_VERSION}/${name}`, { view: 'IMPORT_JOB_VIEW_FULL' });
}

function outputs(inputs: ImportJobInputs, job: ImportJobWire): Record<string, unknown> {
  return withoutUndefined({
    ...inputs,
    name: job.name,
    displayName: job.displayName ?? inputs.displayName,
    labels: job.labels ?? inputs.labels,
    assetSource: job.assetSource ?? inputs.assetSource,
    state: job.state,
    createTime: job.createTime,
    updateTime: job.updateTime,
    completeTime: job.completeTime,
    // The wire leaves out empty lists and zeros (ProtoJSON); outputs keep every reported field.
    validationReport: job.validationReport && withRequiredDefaults('ValidationReport', job.validationReport),
    executionReport: job.executionReport && withRequiredDefaults('ExecutionReport', job.executionReport),
  });
}

export async function create(inputs: ImportJobInputs): Promise<pulumi.dynamic.CreateResult> {
  const requestId = inputs.requestId ?? uuidv4();
  const parent = `projects/${inputs.project}/locations/${inputs.location}`;
  const body = withoutUndefined({
    displayName: inputs.displayName,
    labels: inputs.labels,
    assetSource: inputs.assetSource,
    gcsPayload: inputs.gcsPayload,
    inlinePayload: inputs.inlinePayload,
  });
  // The same requestId on a retry makes the server return the first attempt's job.
  const created = await client().post<Operation>(`/${API_VERSION}/${parent}/importJobs`, body, {
    importJobId: inputs.importJobId,
    requestId,
  });
  await wait(created);
  const name = jobName(inputs);
  let files: LocalFileState[] | undefined;
  if (inputs.files && inputs.format) {
    files = [];
    // One after the other: each upload streams one file, so memory stays flat whatever their number.
    for (const file of inputs.files) files.push(await uploadLocalFile(client(), name, file.path, inputs.format, { timeoutMs: timeoutMs() }));
  }
  inputs = withoutUndefined({ ...inputs, requestId, files });
  if (!inputs.gcsPayload && !inputs.inlinePayload && !files) return { id: name, outs: outputs(inputs, await getJob(name)) };
  await wait(await client().post<Operation>(`/${API_VERSION}/${name}:validate`, {}));
  let job = await getJob(name);
  if (job.state === 'IMPORT_JOB_STATE_READY') {
    try {
      await wait(await client().post<Operation>(`/${API_VERSION}/${name}:run`, {}));
    } catch (err) {
      // A failed run is reported by the job's state and execution report, not as a call error.
      if (!(err as { status?: string }).status) throw err;
    }
    job = await getJob(name);
  }
  return { id: name, outs: outputs(inputs, job) };
}

export async function update(id: string, olds: ImportJobInputs, news: ImportJobInputs): Promise<pulumi.dynamic.UpdateResult> {
  const mask = UPDATE_IN_PLACE.filter((k) => !sameJson(olds[k], news[k]));
  if (mask.length > 0) {
    const body = { displayName: news.displayName ?? '', labels: news.labels ?? {} };
    await wait(await client().patch<Operation>(`/${API_VERSION}/${id}`, body, { updateMask: mask.join(',') }));
  }
  return { outs: outputs({ ...news, requestId: news.requestId ?? olds.requestId }, await getJob(id)) };
}

export async function remove(id: string): Promise<void> {
  try {
    await wait(await client().delete<Operation>(`/${API_VERSION}/${id}`, { force: true }));
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

const JOB_NAME = /^(?:v1alpha1\/)?projects\/([^/]+)\/locations\/([^/]+)\/importJobs\/([^/]+)$/;

export async function read(id: string, props: Partial<ImportJobInputs>): Promise<pulumi.dynamic.ReadResult> {
  const match = JOB_NAME.exec(id);
  if (!match) throw new Error(`'${id}' is not an ImportJob id: expected projects/{project}/locations/{location}/importJobs/{id}`);
  const name = id.replace(/^v1alpha1\//, '');
  let job: ImportJobWire & Partial<ImportJobInputs>;
  try {
    job = await getJob(name);
  } catch (err) {
    if (isNotFound(err)) return { id: '' };
    throw err;
  }
  const [, project, location, importJobId] = match;
  const inputs: ImportJobInputs = withoutUndefined({
    importJobId,
    project,
    location,
    assetSource: job.assetSource,
    displayName: job.displayName,
    labels: job.labels,
    requestId: props.requestId,
    gcsPayload: job.gcsPayload ?? props.gcsPayload,
    inlinePayload: job.inlinePayload ?? props.inlinePayload,
    // Local files are the program's, not the job's: what was uploaded stays as recorded.
    format: props.format,
    files: props.files,
  });
  return { id: name, props: outputs(inputs, job), inputs };
}
