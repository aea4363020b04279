/**
 * `google-native-local import --job NAME FILE...`: local files into an import job of a running
 * emulator or of Google, through Google's own upload flow (create the job if needed, one import
 * data file per file, bytes PUT to its signed URL, `:validate`, then `:run`).
 *
 * It talks through the provider's one REST client and its transports (provider/client.ts,
 * provider/backends.ts, provider/data-files.ts), which load no Pulumi: the same requests, errors
 * and Application Default Credentials as the ImportJob resource, no second HTTP client.
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { withRequiredDefaults } from '../../schemas';
import { ENDPOINT_ENV } from '../../provider/backends';
import { isGoogleApiCallError, type GoogleRestClient, type Operation } from '../../provider/client';
import { dataFileId, inspectLocalFiles, uploadLocalFile, type LocalFileState } from '../../provider/data-files';
import type { ValidationReport } from '../import-engine';
import { countBySeverity } from '../import-engine/report';
import { FORMAT_NAMES } from '../import-engine/formats';
import { collectFiles, UsageError } from './local-files';
import { progressBar } from './progress';
import { formatReport } from './report-text';
import { parseFormat } from './validate';
import { RESOURCE_ID } from '../http/names';
import { API, connect, DEFAULT_ENDPOINT, failureMessage, isMissing, wait } from './rest-session';

/** An import job's name; its id follows the one resource id rule (http/names.ts RESOURCE_ID). */
const JOB_NAME = new RegExp(`^projects/[^/]+/locations/[^/]+/importJobs/${RESOURCE_ID.source.replace(/^\^|\$$/g, '')}$`);

export const IMPORT_HELP = `Usage: google-native-local import --job NAME FILE... [--format FORMAT] [--source SOURCE]
                                  [--create-source] [--endpoint URL] [--no-run]

Imports local files (or every file directly inside a folder) into a Migration Center import job:
creates the job if it does not exist, adds one import data file per file (id from the file name,
display name the file name), uploads its bytes to the data file's signed URL, validates the job,
prints the validation report, and runs the job when validation is READY.

Options:
  --job NAME        projects/{project}/locations/{location}/importJobs/{id}
  --format FORMAT   the files' format: ${FORMAT_NAMES.join(', ')}
                    (see docs/formats/), or its IMPORT_JOB_FORMAT_* name; required to
                    create the job, otherwise the job's
  --source SOURCE   the job's source, to create the job: a source id of the job's project and
                    location, or projects/{project}/locations/{location}/sources/{id}; it must
                    exist (as on Google, a job never creates its source)
  --create-source   create the source (type UPLOAD) when it does not exist yet
  --endpoint URL    an emulator (default ${ENDPOINT_ENV}, else ${DEFAULT_ENDPOINT}), or
                    "google" for the real API with Application Default Credentials
                    (GOOGLE_NATIVE_LOCAL_TOKEN is sent to an emulator started with --auth)
  --no-run          stop after validation
  -h, --help        this text

Exit status: 0 when the job is COMPLETED (READY with --no-run), 1 when it is FAILED_VALIDATION or
FAILED or a request fails, 2 on bad usage.
`;

interface JobWire {
  name: string;
  state?: string;
  gcsPayload?: { format?: string };
  inlinePayload?: { format?: string };
  validationReport?: unknown;
  executionReport?: { framesReported?: number; totalRowsCount?: number; executionErrors?: unknown };
}

/**
 * One local file into the job as a data file. A data file of the same id (the file uploaded
 * before, e.g. into a job that failed validation) is deleted and created again: the new bytes
 * replace the old ones, and the job goes back to PENDING to be validated again. Deleting it is
 * what works on Google too (its signed URL may have expired; a new one comes with the new file).
 */
async function putDataFile(
  client: GoogleRestClient,
  job: string,
  file: string,
  format: string,
  onBytes: (n: number) => void,
): Promise<LocalFileState & { replaced: boolean }> {
  try {
    return { ...(await uploadLocalFile(client, job, file, format, { onBytes })), replaced: false };
  } catch (err) {
    if (!isGoogleApiCallError(err, 'ALREADY_EXISTS') || !err.googleShaped) throw err;
  }
  const existing = `${job}/importDataFiles/${dataFileId(path.basename(file))}`;
  await wait(client, await client.delete<Operation>(`/${API}/${existing}`), 'replacing the data file');
  return { ...(await uploadLocalFile(client, job, file, format, { onBytes })), replaced: true };
}

async function findJob(client: GoogleRestClient, name: string): Promise<JobWire | undefined> {
  try {
    return await client.get<JobWire>(`/${API}/${name}`, { view: 'IMPORT_JOB_VIEW_FULL' });
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** The format of the job's payload or of its first data file: what a new data file must share. */
async function jobFormat(client: GoogleRestClient, job: JobWire): Promise<string | undefined> {
  const own = job.gcsPayload?.format ?? job.inlinePayload?.format;
  if (own) return own;
  const files = await client.get<{ importDataFiles?: Array<{ format?: string }> }>(`/${API}/${job.name}/importDataFiles`, { pageSize: 1 });
  return files.importDataFiles?.[0]?.format;
}

/**
 * Whether the job's source exists, created first (type UPLOAD) when `create` says so. Asked
 * before the job is created, so that a missing source is told with the flag that fixes it.
 */
async function ensureSource(client: GoogleRestClient, source: string, create: boolean, out: NodeJS.WritableStream): Promise<boolean> {
  try {
    await client.get(`/${API}/${source}`);
    return true;
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  if (!create) return false;
  const at = source.lastIndexOf('/sources/');
  const created = await client.post<Operation>(
    `/${API}/${source.slice(0, at)}/sources`,
    { type: 'SOURCE_TYPE_UPLOAD' },
    { sourceId: source.slice(at + '/sources/'.length) },
  );
  await wait(client, created, 'creating the source');
  out.write(`created source ${source}\n`);
  return true;
}

export async function importCommand(argv: string[], out: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      job: { type: 'string' },
      format: { type: 'string' },
      source: { type: 'string' },
      'create-source': { type: 'boolean', default: false },
      endpoint: { type: 'string' },
      'no-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    out.write(IMPORT_HELP);
    return 0;
  }
  if (!values.job) throw new UsageError('--job is required: projects/{project}/locations/{location}/importJobs/{id}');
  if (!JOB_NAME.test(values.job))
    throw new UsageError(`--job '${values.job}' is not projects/{project}/locations/{location}/importJobs/{id} (id: a resource id)`);
  if (positionals.length === 0) throw new UsageError('give at least one file or folder to import');
  const format = values.format === undefined ? undefined : parseFormat(values.format, 'api');
  const paths = collectFiles(positionals);
  const inspected = await inspectLocalFiles(paths);
  if (inspected.failures.length > 0) throw new UsageError(inspected.failures.map((f) => f.reason).join('\n'));

  const session = connect(values.endpoint, env);
  const { client } = session;
  const name = values.job;
  const parent = name.slice(0, name.indexOf('/importJobs/'));

  try {
    let job = await findJob(client, name);
    let wireFormat: string | undefined = format;
    if (!job) {
      if (!values.source || !format) throw new UsageError(`job ${name} does not exist: give --source and --format to create it`);
      const assetSource = values.source.includes('/') ? values.source : `${parent}/sources/${values.source}`;
      if (!(await ensureSource(client, assetSource, values['create-source'], out))) {
        process.stderr.write(`google-native-local import: source ${assetSource} does not exist: create it first, or add --create-source\n`);
        return 1;
      }
      const id = name.slice(name.lastIndexOf('/') + 1);
      await wait(client, await client.post<Operation>(`/${API}/${parent}/importJobs`, { assetSource }, { importJobId: id }), 'creating the job');
      out.write(`created import job ${name}\n`);
    } else {
      wireFormat ??= await jobFormat(client, job);
      if (!wireFormat) throw new UsageError(`job ${name} has no payload and no data files to take the format from: give --format`);
    }

    const total = inspected.files.reduce((sum, f) => sum + f.size, 0);
    const bar = progressBar(total);
    for (const file of inspected.files) {
      const sent = await putDataFile(client, name, file.path, wireFormat as string, (n) => bar.add(n));
      bar.done();
      out.write(`${sent.replaced ? 'replaced' : 'uploaded'} ${file.path} (${sent.size} bytes, sha256 ${sent.sha256.slice(0, 12)})\n`);
    }

    await wait(client, await client.post<Operation>(`/${API}/${name}:validate`, {}), 'validating');
    job = (await findJob(client, name)) as JobWire;
    const report = withRequiredDefaults('ValidationReport', job.validationReport ?? {}) as ValidationReport;
    out.write(formatReport(report, wireFormat as string));
    out.write(`job ${name}: ${job.state}\n`);
    if (job.state !== 'IMPORT_JOB_STATE_READY') return 1;
    if (values['no-run']) return 0;

    try {
      await wait(client, await client.post<Operation>(`/${API}/${name}:run`, {}), 'running');
    } catch (err) {
      // A run that fails on its data ends the Operation with an error: the job's report says why.
      if (!isGoogleApiCallError(err)) throw err;
    }
    job = (await findJob(client, name)) as JobWire;
    const exec = job.executionReport ?? {};
    out.write(`job ${name}: ${job.state} (${exec.totalRowsCount ?? 0} row(s), ${exec.framesReported ?? 0} frame(s) reported)\n`);
    const errors = withRequiredDefaults('ValidationReport', exec.executionErrors ?? {}) as ValidationReport;
    // The run's warnings and infos are the validation's, printed above: the run's report is
    // printed when it has errors of its own (or the run failed).
    if (countBySeverity(errors).ERROR > 0 || job.state !== 'IMPORT_JOB_STATE_COMPLETED') {
      out.write(`\nExecution errors:\n${formatReport(errors, wireFormat as string)}`);
    }
    return job.state === 'IMPORT_JOB_STATE_COMPLETED' ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError || !isGoogleApiCallError(err)) throw err;
    process.stderr.write(`google-native-local import: ${failureMessage(err, session)}\n`);
    return 1;
  }
}
