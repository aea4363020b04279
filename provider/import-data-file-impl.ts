/**
 * The ImportDataFile provider's work: a data file of an import job whose bytes come from a local
 * file, streamed to the data file's signed upload URL. `check` reads the file's sha256, so a
 * preview already shows a changed file as a replacement (Google has no update method for data
 * files: new bytes are a new data file). Without a `path` (google-native's arguments) the data
 * file is only created, and its `uploadFileInfo` output says where the program puts the bytes.
 */
import * as path from 'node:path';
import type * as pulumi from '@pulumi/pulumi';
import { toWireFormat } from '../schemas/aliases';
import { inspectLocalFiles, uploadLocalFile } from './data-files';
import { restResource } from './rest-resource';
import { clientFor, containsUnknown, sameJson } from './runtime';

type Props = Record<string, unknown>;

const base = restResource({
  schema: 'ImportDataFileArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'importDataFiles',
  idField: 'importDataFileId',
  parent: { collection: 'importJobs', idField: 'importJobId' },
  bodyFields: ['displayName', 'format'],
  outputFields: ['name', 'createTime', 'state', 'uploadFileInfo'],
  createOnly: true,
  requestId: true,
});

/** The local file's facts kept in state: where it was read, and what its bytes were. */
const FILE_FIELDS = ['path', 'sha256', 'size'] as const;

export async function check(olds: pulumi.Inputs, news: pulumi.Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = base.check(olds, news);
  const inputs = { ...(result.inputs as Props) };
  const failures = [...(result.failures ?? [])];
  if (typeof inputs.format === 'string') inputs.format = toWireFormat(inputs.format);
  // The import reads the file under its display name: by default the file's own name, known at preview.
  if (inputs.displayName === undefined && typeof inputs.path === 'string' && !containsUnknown(inputs.path)) inputs.displayName = path.basename(inputs.path);
  if (typeof inputs.path === 'string' && !containsUnknown(inputs.path) && !failures.some((f) => f.property === 'path')) {
    const inspected = await inspectLocalFiles([inputs.path]);
    for (const f of inspected.failures) failures.push({ property: 'path', reason: f.reason });
    if (inspected.files.length === 1) Object.assign(inputs, { sha256: inspected.files[0].sha256, size: inspected.files[0].size });
  }
  return { inputs, failures };
}

export function diff(id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const result = base.diff(id, olds, news);
  // What Google holds is the bytes, not where they were read: a moved, unchanged file changes nothing.
  const bytesChanged = !sameJson(olds.sha256, news.sha256);
  if (!bytesChanged) return result;
  const replaces = [...(result.replaces ?? []), 'sha256'];
  // New bytes under the same name: the old data file goes first (base.diff says so for a replace of its own).
  const deleteBeforeReplace = result.replaces?.length ? result.deleteBeforeReplace : true;
  return { ...result, changes: true, replaces, stables: [], deleteBeforeReplace };
}

export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  if (inputs.path === undefined) return base.create(inputs);
  const job = `projects/${String(inputs.project)}/locations/${String(inputs.location)}/importJobs/${String(inputs.importJobId)}`;
  const file = String(inputs.path);
  const sent = await uploadLocalFile(clientFor('migrationcenter'), job, file, String(inputs.format), {
    importDataFileId: String(inputs.importDataFileId),
    displayName: String(inputs.displayName),
    ...(typeof inputs.requestId === 'string' ? { requestId: inputs.requestId } : {}),
  });
  const name = `${job}/importDataFiles/${String(inputs.importDataFileId)}`;
  const onServer = await clientFor('migrationcenter').get<Props>(`/v1alpha1/${name}`);
  // The inputs as checked, the server's output fields, and the bytes as sent.
  const outputs = { name, createTime: onServer.createTime, state: onServer.state, uploadFileInfo: onServer.uploadFileInfo };
  return { id: name, outs: { ...inputs, ...outputs, sha256: sent.sha256, size: sent.size, path: file } };
}

export async function read(id: string, props: Props = {}): Promise<pulumi.dynamic.ReadResult> {
  const result = await base.read(id);
  if (!result.id) return result;
  const kept = Object.fromEntries(FILE_FIELDS.filter((f) => props[f] !== undefined).map((f) => [f, props[f]]));
  return { ...result, props: { ...(result.props as Props), ...kept }, inputs: { ...(result.inputs as Props), ...kept } };
}

export const { update, remove } = base;
