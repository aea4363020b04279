/**
 * The import job domain: create, get, list, patch, delete, :validate, :run (the background work
 * and the recovery of jobs a stopped emulator left VALIDATING or RUNNING: import-job-work.ts).
 *
 * States and transitions (as the real service):
 *   create                       -> PENDING
 *   :validate  from PENDING, READY, FAILED_VALIDATION -> VALIDATING -> READY | FAILED_VALIDATION
 *   :run       from READY        -> RUNNING -> COMPLETED | FAILED
 *   patch of the payload, from PENDING, READY, FAILED_VALIDATION -> PENDING (reports cleared)
 *   delete, in any state (work in progress is cancelled first); a job with data files needs force
 * Anything else is FAILED_PRECONDITION naming the state; so is :validate or :run of a job whose
 * `assetSource` was deleted (naming the field), and a run ends FAILED if it is deleted meanwhile. A job may be created with no payload (its
 * data comes later); validating it then ends FAILED_VALIDATION with a job error saying so. FAILED_VALIDATION iff the validation
 * report holds a severity ERROR anywhere.
 *
 * Every request-time change is one synchronous store transaction (requestId check, state check,
 * write, Operation record). Validation and execution run in the background through the shared
 * Operations: the request returns a not-done Operation, the job shows VALIDATING or RUNNING, and the
 * Operation ends with `google.protobuf.Empty` (or an error) once the job has its final state.
 */
import { createHash } from 'crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../store/store';
import { aborted, alreadyExists, failedPrecondition, internal, invalidArgument, notFound, type FieldViolation } from '../../errors';
import { EMPTY_TYPE, type Operation, type RecoveryHook, type ServiceOperations } from '../../operations/operations';
import { decodedBase64Size, storagePathProblem, type PayloadFile, type StorageSettings } from '../../payloads';
import { LargeBytesText } from '../../http/large-bytes';
import type { WriteRequest } from '../../operations/writes';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, lastSegment } from '../names';
import {
  STATE,
  type ImportJobOverview,
  type ImportJobView,
  type ImportJobWire,
  type InlinePayloadRef,
  type InlinePayloadWire,
  type JobState,
  type PayloadFileWire,
  type StoredJob,
} from '../types';
import { requestHash } from '../../operations/request-ids';
import { checkRequestId } from '../request-id-rule';
import { importJobArgsViolations } from '../schemas-bridge';
import { refuseNonWireFormats } from '../wire-names';
import { importJobShape } from '../request-bodies';
import { refuseUnknownNames } from '../../http/request-bodies';
import { maskPaths as splitMask } from '../masks';
import { keysetPage, listPage, type KeysetPageRequest, type ListFields, type ListPage, type ListRequest } from '../../query/list-query';
import type { Sources } from '../sources/sources';
import type { Assets } from '../assets/assets';
import type { DataFileJobs, JobDataFiles } from '../import-data-files/import-data-files';
import { ImportJobWork } from './import-job-work';
import type { InlinePayloadFiles, InputInlineFile } from './inline-payload-files';
import type { FileString } from '../../http/file-string';
import { StreamedProtoJson } from '../../http/streamed-json';
import { readRowCells } from './engine';
import type { RowCells, RowLocation } from '../../import-engine/row-cells';
import { NO_DATA_MESSAGE, RUN_PROGRESS, hasPayload, normalizeStored, now, ordered, payloadFormat } from './import-job-model';
import { NOT_A_TIMESTAMP, isWireTimestamp } from '../../http/wire-timestamp';
import { KeptReads } from '../../store/kept-reads';

/**
 * Jobs kept in the console's view while the store is unchanged (`read`): the console reads one job
 * page after page (its details, then its row errors); a few, for a second tab or a job list beside.
 */
const KEPT_OVERVIEWS = 4;

/** How many times a FULL view reads its records again when a payload is replaced while its files are opened. */
const FULL_VIEW_ATTEMPTS = 3;

/** Fields the server sets; ignored in request bodies, as the real API ignores output-only fields. */
const OUTPUT_ONLY = ['name', 'createTime', 'updateTime', 'completeTime', 'state', 'validationReport', 'executionReport'] as const;
/** Fields patch can change. */
const PAYLOAD_FIELDS = ['inlinePayload', 'gcsPayload'];
const PATCHABLE = ['displayName', 'labels', ...PAYLOAD_FIELDS];

const VALIDATABLE: readonly JobState[] = [STATE.PENDING, STATE.READY, STATE.FAILED_VALIDATION];
const PAYLOAD_EDITABLE: readonly JobState[] = [STATE.PENDING, STATE.READY, STATE.FAILED_VALIDATION];

export const JOB_LIST_FIELDS: ListFields<ImportJobWire> = {
  scalars: {
    name: (j) => j.name,
    displayName: (j) => j.displayName,
    state: (j) => j.state,
    createTime: (j) => j.createTime,
    updateTime: (j) => j.updateTime,
    completeTime: (j) => j.completeTime,
    assetSource: (j) => j.assetSource,
  },
  maps: { labels: (j) => j.labels },
  enumPrefixes: { state: 'IMPORT_JOB_STATE_' },
  name: (j) => j.name,
};

export function parseJobView(value: string | undefined, fallback: ImportJobView): ImportJobView {
  if (value === undefined || value === '' || value === 'IMPORT_JOB_VIEW_UNSPECIFIED') return fallback;
  if (value === 'IMPORT_JOB_VIEW_BASIC' || value === 'BASIC') return 'IMPORT_JOB_VIEW_BASIC';
  if (value === 'IMPORT_JOB_VIEW_FULL' || value === 'FULL') return 'IMPORT_JOB_VIEW_FULL';
  throw invalidArgument([{ field: 'view', description: 'must be IMPORT_JOB_VIEW_BASIC or IMPORT_JOB_VIEW_FULL' }]);
}

/** BASIC leaves out the reports and the payload; FULL shows everything. */
export function jobInView(job: ImportJobWire, view: ImportJobView): ImportJobWire {
  if (view === 'IMPORT_JOB_VIEW_FULL') return ordered(job);
  const { validationReport: _v, executionReport: _e, gcsPayload: _g, inlinePayload: _i, ...basic } = job;
  return ordered(basic as ImportJobWire);
}

/**
 * The settable fields of a request body: non-wire format values are refused as Google refuses them
 * (names that are no ImportJob field, the reference's storagePayload among them, were refused by the
 * front end); output-only fields are dropped.
 */
function inputFields(body: Record<string, unknown>): Record<string, unknown> {
  refuseNonWireFormats(body);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!(OUTPUT_ONLY as readonly string[]).includes(key) && value !== undefined) out[key] = value;
  return out;
}

export interface ImportJobsDeps {
  store: Store;
  ops: ServiceOperations;
  sources: Sources;
  assets: Assets;
  storage: () => StorageSettings;
  log: FastifyBaseLogger;
  /**
   * The job's import data files (`importJobs/{job}/importDataFiles`, import-data-files.ts): delete
   * without force refuses a job that has any, with force removes them; validation and execution
   * read them. Absent: no job has any.
   */
  dataFiles?: JobDataFiles;
  /** Where inline payloads are kept, apart from the jobs' records (inline-payload-files.ts). */
  inlineFiles: InlinePayloadFiles;
}

/** An inline payload as its job's record keeps it when its text is kept apart: the file names only. */
function withoutText(payload: InlinePayloadWire): InlinePayloadWire {
  return { format: payload.format, payload: payload.payload.map((f) => ({ name: f.name })) };
}

/**
 * The job as a create's or a patch's Operation answers it: the FULL view, but an inline payload's
 * files by name only. Their text is the caller's own, possibly megabytes, and an Operation is
 * read at every poll; `get` shows it (docs/emulator.md, known differences).
 */
function answerJob(job: ImportJobWire): ImportJobWire {
  return job.inlinePayload ? { ...job, inlinePayload: withoutText(job.inlinePayload) } : job;
}

function inputInlineFiles(wire: Partial<ImportJobWire>): InputInlineFile[] {
  return (wire.inlinePayload?.payload ?? []) as unknown as InputInlineFile[];
}

/**
 * The request's fields for its requestId fingerprint, each inline file's text replaced by its
 * SHA-256: the same request gives the same fingerprint, and the text is hashed in one pass instead
 * of being copied into the canonical JSON first (2 s of a 100,000-row create under load). A large
 * text's hash was taken by the body worker.
 */
function withTextDigests<T extends Partial<ImportJobWire>>(wire: T): T {
  if (!wire.inlinePayload) return wire;
  const payload = inputInlineFiles(wire).map((f) => ({
    name: f.name,
    sha256:
      f.data instanceof LargeBytesText
        ? f.data.sha256
        : createHash('sha256')
            .update(f.data ?? '', 'utf8')
            .digest('hex'),
  }));
  return { ...wire, inlinePayload: { ...wire.inlinePayload, payload } };
}

/**
 * The job's fields as the schema checks them: a large text stands in as a short text its rule
 * judges the same way (LargeBytesText.validationStandIn), so a refusal names the same field and rule.
 */
function forValidation(args: Record<string, unknown>): Record<string, unknown> {
  const inline = args.inlinePayload as InlinePayloadWire | undefined;
  if (!Array.isArray(inline?.payload) || !inline.payload.some((f) => (f as { data?: unknown } | null)?.data instanceof LargeBytesText)) return args;
  const payload = (inline.payload as unknown[]).map((f) => {
    const data = (f as { data?: unknown } | null)?.data;
    return data instanceof LargeBytesText ? { ...(f as object), data: data.validationStandIn } : f;
  });
  return { ...args, inlinePayload: { ...inline, payload } };
}

/** The job with each inline file's decoded size in place of its text (ImportJobOverview). */
function overview(stored: StoredJob): ImportJobOverview {
  const { job, inlinePayloadFiles: ref } = stored;
  if (!job.inlinePayload) return job as ImportJobOverview;
  const payload = job.inlinePayload.payload.map((f, i) => ({ name: f.name, size: ref ? (ref.sizes[i] ?? 0) : decodedBase64Size(f.data ?? '') }));
  return { ...job, inlinePayload: { format: job.inlinePayload.format, payload } };
}

export class ImportJobs implements DataFileJobs {
  private readonly store: Store;
  private readonly ops: ServiceOperations;

  /** Validation and execution in the background (the same deps: the dataFiles seam is shared). */
  private readonly work: ImportJobWork;

  /** The last jobs `read` returned, while the store's documents are unchanged. */
  private readonly overviews = new KeptReads<ImportJobOverview>(KEPT_OVERVIEWS);

  constructor(private readonly deps: ImportJobsDeps) {
    this.store = deps.store;
    this.ops = deps.ops;
    this.work = new ImportJobWork(deps);
  }

  /** This domain's part in restart recovery (the operations module drives it). */
  get recovery(): RecoveryHook {
    return this.work.recovery;
  }

  // ------------------------------------------------------------------ reads

  private find(name: string): StoredJob | undefined {
    return this.store.get<StoredJob>(COLLECTIONS.importJobs, name);
  }

  private mustFind(name: string): StoredJob {
    const stored = this.find(name);
    if (!stored) throw notFound(RESOURCE_TYPES.importJob, name);
    return stored;
  }

  /**
   * The FULL views of `stored` in the answer `answer` makes of them. A payload whose text is kept
   * apart shows each file's text as the file itself, opened now (`data` a FileString): the answer
   * is then streamed, the text read from the file as it is sent (http/streamed-json.ts), never a
   * string on the request thread. With no such payload, the answer as it is.
   */
  private async fullAnswer<T>(stored: readonly StoredJob[], answer: (jobs: ImportJobWire[]) => T): Promise<T | StreamedProtoJson> {
    if (!stored.some((s) => s.inlinePayloadFiles && s.job.inlinePayload)) return answer(stored.map((s) => jobInView(s.job, 'IMPORT_JOB_VIEW_FULL')));
    const files: FileString[] = [];
    try {
      const jobs: ImportJobWire[] = [];
      // One file after the other: a list's answer holds no more descriptors at once than it keeps.
      for (const s of stored) jobs.push(await this.withPayloadFiles(s, files));
      return StreamedProtoJson.of(answer(jobs), files);
    } catch (err) {
      for (const file of files) await file.close();
      throw err;
    }
  }

  /** A job's FULL view with its payload's files, opened (each also put in `files`), in place of their text. */
  private async withPayloadFiles(stored: StoredJob, files: FileString[]): Promise<ImportJobWire> {
    const { job, inlinePayloadFiles: ref } = stored;
    if (!job.inlinePayload || !ref) return jobInView(job, 'IMPORT_JOB_VIEW_FULL');
    const payload: PayloadFileWire[] = [];
    for (const [i, file] of job.inlinePayload.payload.entries()) {
      const text = await this.deps.inlineFiles.open(job.name, ref, i);
      files.push(text);
      // The wire shape, with a file where the text goes (a FileString is written as the string it holds).
      payload.push({ name: file.name, data: text as unknown as string });
    }
    return jobInView({ ...job, inlinePayload: { format: job.inlinePayload.format, payload } }, 'IMPORT_JOB_VIEW_FULL');
  }

  /**
   * The answer `answer` makes of the records `read` reads, in `view`. A FULL view opens the inline
   * payloads' files after the read, while other requests go on: a patch or delete may replace or
   * remove a payload meanwhile. Its files are then gone (ENOENT), and the records are read again
   * (a deleted job: NOT_FOUND for a get, left out of a list), a few times at most (ABORTED after).
   */
  private async answerInView<T>(view: ImportJobView, read: () => StoredJob[], answer: (jobs: ImportJobWire[]) => T): Promise<T | StreamedProtoJson> {
    if (view !== 'IMPORT_JOB_VIEW_FULL') return answer(read().map((s) => jobInView(s.job, view)));
    for (let attempt = 1; ; attempt++) {
      const stored = read();
      try {
        return await this.fullAnswer(stored, answer);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        const replaced = stored.find((s) => s.inlinePayloadFiles && this.find(s.job.name)?.inlinePayloadFiles?.generation !== s.inlinePayloadFiles.generation);
        if (!replaced) throw internal(`The inline payload text of an import job is missing from the emulator's data dir: ${(err as Error).message}`);
        if (attempt === FULL_VIEW_ATTEMPTS) {
          throw aborted(`The inline payload of import job ${replaced.job.name} was replaced or deleted while it was read (${attempt} times); read it again.`);
        }
      }
    }
  }

  get(name: string, view: ImportJobView): Promise<ImportJobWire | StreamedProtoJson> {
    return this.answerInView(
      view,
      () => [this.mustFind(name)],
      (jobs) => jobs[0],
    );
  }

  list(parent: string, request: ListRequest, view: ImportJobView): Promise<{ importJobs: ImportJobWire[]; nextPageToken?: string } | StreamedProtoJson> {
    let nextPageToken: string | undefined;
    const read = (): StoredJob[] => {
      const stored = this.store.list<StoredJob>(COLLECTIONS.importJobs, { prefix: `${parent}/importJobs/` }).map((e) => e.value);
      const byJob = new Map(stored.map((s) => [s.job, s]));
      const page = listPage(
        stored.map((s) => s.job),
        request,
        JOB_LIST_FIELDS,
        `importJobs:${parent}`,
      );
      nextPageToken = page.nextPageToken;
      return page.items.map((j) => byJob.get(j)!);
    };
    return this.answerInView(view, read, (importJobs) => ({ importJobs, ...(nextPageToken ? { nextPageToken } : {}) }));
  }

  private readStored(name: string): StoredJob {
    const value = this.store.get<StoredJob | ImportJobWire>(COLLECTIONS.importJobs, name);
    if (!value) throw notFound(RESOURCE_TYPES.importJob, name);
    return normalizeStored(value);
  }

  /**
   * The job as stored, in the console's view (a bare wire job written into the store by hand too);
   * NOT_FOUND otherwise. While the store's documents are unchanged, the same object, shared (the
   * caller must not change it): a report of 100,000 row errors is a 15 MB record, parsed once for
   * the console's pages of it rather than once a page.
   */
  read(name: string): ImportJobOverview {
    return this.overviews.get(name, this.store.documentsVersion(), () => overview(this.readStored(name)));
  }

  /** Every job of every project, by name, in the console's view (its list). */
  listAll(page: KeysetPageRequest): ListPage<ImportJobOverview> {
    const result = keysetPage(
      page,
      (after, limit) => this.store.list<StoredJob | ImportJobWire>(COLLECTIONS.importJobs, { after, limit }),
      (e) => e.key,
    );
    return { items: result.items.map((e) => overview(normalizeStored(e.value))), nextPageToken: result.nextPageToken };
  }

  count(): number {
    return this.store.count(COLLECTIONS.importJobs);
  }

  /**
   * One row of the job's data read back from its payload or data files (the report names where;
   * the reports themselves hold no cell values). Undefined when that row is not there any more.
   */
  async rowCells(name: string, where: RowLocation, signal?: AbortSignal): Promise<RowCells | undefined> {
    const data = await this.work.jobData(this.readStored(name));
    return readRowCells(data.format, data.files, where, signal);
  }

  // ------------------------------------------------------------------ create

  /**
   * An inline payload's text is written to its own files first (inline-payload-files.ts), then
   * the record naming them commits; text no record names afterwards (a refused or replayed
   * create) is removed at once.
   */
  async create(parent: string, importJobId: string | undefined, requestId: string | undefined, body: Record<string, unknown>): Promise<Operation> {
    const input = inputFields(body);
    const args: Record<string, unknown> = { ...input };
    if (importJobId !== undefined) args.importJobId = importJobId;
    if (requestId !== undefined && requestId !== '') args.requestId = requestId;
    const violations = importJobArgsViolations(forValidation(args));
    if (violations.length > 0) throw invalidArgument(violations);
    const id = importJobId as string;
    const wire = input as Partial<ImportJobWire>;
    if (wire.gcsPayload) this.checkStoragePath(wire.gcsPayload.path);
    const name = `${parent}/importJobs/${id}`;
    const hash = requestHash('create', name, withTextDigests(wire));

    const write = { parent, target: name, verb: 'create', responseType: TYPES.importJob, requestId: requestId || undefined, requestHash: hash };
    const text = wire.inlinePayload ? await this.deps.inlineFiles.write(name, inputInlineFiles(wire)) : undefined;
    try {
      return this.recordCreate(write, parent, name, wire, text);
    } finally {
      if (text) this.dropUnlessStored(name, text);
    }
  }

  private recordCreate(write: WriteRequest, parent: string, name: string, wire: Partial<ImportJobWire>, text: InlinePayloadRef | undefined): Operation {
    return this.ops.write(write, () => {
      if (this.find(name)) throw alreadyExists(RESOURCE_TYPES.importJob, name);
      // Required (the schema said so above): the source must exist; nothing is created for it.
      this.deps.sources.resolveReference(parent, wire.assetSource as string);
      const time = now();
      const job = ordered({
        ...(wire as Record<string, unknown>),
        name,
        createTime: time,
        updateTime: time,
        state: STATE.PENDING,
      } as ImportJobWire);
      // The record names the payload's files instead of holding their text; so does the answer
      // (answerJob): the text was sent by the caller, and `get` shows it.
      const record: StoredJob = text
        ? { job: { ...job, inlinePayload: withoutText(job.inlinePayload!) }, attempt: 0, inlinePayloadFiles: text }
        : { job, attempt: 0 };
      this.store.put<StoredJob>(COLLECTIONS.importJobs, name, record);
      return answerJob(record.job);
    });
  }

  /** Removes payload text written for `name` that its record does not name (the write was refused, replayed or replaced). */
  private dropUnlessStored(name: string, text: InlinePayloadRef): void {
    if (this.find(name)?.inlinePayloadFiles?.generation !== text.generation) this.deps.inlineFiles.remove(name, text);
  }

  /** Removes inline payload text no record names (a kill -9 between its write and the commit, a delete's leftovers); at start-up. */
  sweepPayloads(): number {
    const kept = this.store
      .list<StoredJob | ImportJobWire>(COLLECTIONS.importJobs)
      .map((e) => normalizeStored(e.value))
      .filter((s) => s.inlinePayloadFiles !== undefined)
      .map((s) => ({ jobName: s.job.name, ref: s.inlinePayloadFiles! }));
    return this.deps.inlineFiles.sweep(kept);
  }

  private checkStoragePath(gsPath: string): void {
    const problem = storagePathProblem(this.deps.storage(), gsPath);
    if (problem) throw invalidArgument([{ field: 'gcsPayload.path', description: problem }]);
  }

  // ------------------------------------------------------------------ patch

  /** The mask's paths (top-level fields, in the spelling the caller used). */
  private maskPaths(updateMask: string | undefined, input: Record<string, unknown>): string[] {
    // Required, as on Google (UpdateImportJobRequest.update_mask); either spelling of a path.
    const given = splitMask(updateMask, PATCHABLE);
    const paths = new Set<string>();
    const violations: FieldViolation[] = [];
    for (const path of given) {
      if (path === '*') {
        paths.add('displayName');
        paths.add('labels');
        for (const f of PAYLOAD_FIELDS) if (f in input) paths.add(f);
      } else if (PATCHABLE.includes(path)) {
        paths.add(path);
      } else if (path === 'assetSource') {
        violations.push({ field: 'updateMask', description: 'assetSource cannot be changed after the import job is created' });
      } else if ((OUTPUT_ONLY as readonly string[]).includes(path)) {
        violations.push({ field: 'updateMask', description: `${path} is output only` });
      } else if (PATCHABLE.some((f) => path.startsWith(`${f}.`))) {
        violations.push({ field: 'updateMask', description: `'${path}': update the whole ${path.slice(0, path.indexOf('.'))} field` });
      } else {
        violations.push({ field: 'updateMask', description: `'${path}' is not a field that can be updated (displayName, labels, inlinePayload, gcsPayload)` });
      }
    }
    if (violations.length > 0) throw invalidArgument(violations);
    return [...paths];
  }

  /** A new inline payload's text is written first, as on create; the text it replaces goes once the patch committed. */
  async patch(name: string, parent: string, updateMask: string | undefined, requestId: string | undefined, body: Record<string, unknown>): Promise<Operation> {
    requestId = checkRequestId(requestId);
    // Fields outside the mask are ignored, but a name that is no field of ImportJob is refused, as on create.
    const input = inputFields(body);
    const paths = this.maskPaths(updateMask, input);
    const isPayload = (p: string) => PAYLOAD_FIELDS.includes(p);
    const payloadChange = paths.some(isPayload);
    // The new payload, in the caller's spelling; a mask naming both payloads keeps the one given.
    const payloadKey = payloadChange ? (paths.filter(isPayload).find((p) => p in input) ?? paths.find(isPayload)) : undefined;
    const changes: Record<string, unknown> = {};
    for (const p of paths) if (!isPayload(p) && p in input) changes[p] = input[p];
    if (payloadKey && payloadKey in input) changes[payloadKey] = input[payloadKey];
    const wireChanges = changes as Partial<ImportJobWire>;
    const cleared = paths.filter((p) => !isPayload(p) && !(p in input));
    const hash = requestHash('update', name, { paths: paths.map((p) => (isPayload(p) ? 'payload' : p)).sort(), values: withTextDigests(wireChanges) });
    const write = { parent, target: name, verb: 'update', responseType: TYPES.importJob, requestId, requestHash: hash };
    const text = wireChanges.inlinePayload ? await this.deps.inlineFiles.write(name, inputInlineFiles(wireChanges)) : undefined;
    let replaced: InlinePayloadRef | undefined;
    try {
      return this.recordPatch(write, name, { payloadChange, changes, cleared, text }, (ref) => (replaced = ref));
    } finally {
      if (text) this.dropUnlessStored(name, text);
      if (replaced) this.dropUnlessStored(name, replaced);
    }
  }

  /** The patch's transaction; `replacing` learns the payload text the new payload replaces. */
  private recordPatch(
    write: WriteRequest,
    name: string,
    patch: { payloadChange: boolean; changes: Record<string, unknown>; cleared: string[]; text: InlinePayloadRef | undefined },
    replacing: (ref: InlinePayloadRef) => void,
  ): Operation {
    const { payloadChange, changes, cleared, text } = patch;
    const wireChanges = changes as Partial<ImportJobWire>;
    return this.ops.write(write, () => {
      const stored = this.mustFind(name);
      const job = stored.job;
      // Validate the job as it would be, through the same schema as create.
      const merged: Record<string, unknown> = { importJobId: lastSegment(name) };
      if (job.displayName !== undefined) merged.displayName = job.displayName;
      if (job.labels !== undefined) merged.labels = job.labels;
      if (job.assetSource !== undefined) merged.assetSource = job.assetSource;
      if (!payloadChange) {
        // Text kept apart was checked when it was stored: an empty stand-in keeps the payload's shape.
        if (job.inlinePayload)
          merged.inlinePayload = { ...job.inlinePayload, payload: job.inlinePayload.payload.map((f) => ({ name: f.name, data: f.data ?? '' })) };
        if (job.gcsPayload) merged.gcsPayload = job.gcsPayload;
      }
      for (const p of cleared) delete merged[p];
      Object.assign(merged, changes);
      const violations = importJobArgsViolations(forValidation(merged)).filter((v) => v.field !== 'importJobId' && !v.field.startsWith('assetSource'));
      if (violations.length > 0) throw invalidArgument(violations);
      if (payloadChange && !PAYLOAD_EDITABLE.includes(job.state)) {
        throw failedPrecondition(
          `Import job ${name} is in state ${job.state}: its payload can be changed only before it runs (states ${PAYLOAD_EDITABLE.join(', ')}).`,
        );
      }
      if (wireChanges.gcsPayload) this.checkStoragePath(wireChanges.gcsPayload.path);
      const newFormat = (wireChanges.inlinePayload ?? wireChanges.gcsPayload)?.format;
      const filesFormat = payloadChange ? this.deps.dataFiles?.format(name) : undefined;
      if (newFormat !== undefined && filesFormat !== undefined && newFormat !== filesFormat) {
        throw failedPrecondition(`format ${newFormat} of the new payload differs from the format of the data files of import job ${name} (${filesFormat}).`);
      }

      for (const p of cleared) delete (job as unknown as Record<string, unknown>)[p];
      if (wireChanges.displayName !== undefined) job.displayName = wireChanges.displayName;
      if (wireChanges.labels !== undefined) job.labels = wireChanges.labels;
      if (payloadChange) {
        delete job.inlinePayload;
        delete job.gcsPayload;
        if (stored.inlinePayloadFiles) replacing(stored.inlinePayloadFiles);
        delete stored.inlinePayloadFiles;
        if (wireChanges.inlinePayload) {
          // Its text was written before this transaction (`text`, written whenever there is one).
          job.inlinePayload = withoutText(wireChanges.inlinePayload);
          stored.inlinePayloadFiles = text!;
        }
        if (wireChanges.gcsPayload) job.gcsPayload = wireChanges.gcsPayload;
        job.state = STATE.PENDING;
        delete job.validationReport;
        delete job.executionReport;
      }
      job.updateTime = now();
      stored.job = ordered(job);
      this.store.put(COLLECTIONS.importJobs, name, stored);
      return answerJob(stored.job);
    });
  }

  // ------------------------------------------------------------------ delete

  /**
   * Deletes a job in any state; work in progress (validation, run) is cancelled first. `force`
   * concerns data files only, as on Google: "if true, any ImportDataFiles of this job will also be
   * deleted; if false, only works if the job has no data files". Imported assets stay; the job
   * leaves their `sources` if it is named there.
   */
  delete(name: string, parent: string, force: boolean, requestId: string | undefined): Operation {
    requestId = checkRequestId(requestId);
    const hash = requestHash('delete', name, { force });
    let stopped: string | undefined;
    let text: InlinePayloadRef | undefined;
    const op = this.ops.write({ parent, target: name, verb: 'delete', responseType: EMPTY_TYPE, requestId, requestHash: hash }, () => {
      const stored = this.mustFind(name);
      text = stored.inlinePayloadFiles;
      const dataFiles = this.deps.dataFiles?.count(name) ?? 0;
      if (!force && dataFiles > 0) {
        throw failedPrecondition(
          `Import job ${name} has ${dataFiles} data file(s): delete them first, or delete the job with force=true to delete them with it.`,
        );
      }
      this.deps.dataFiles?.removeAll(name);
      this.store.delete(COLLECTIONS.importJobs, name);
      this.store.delete(RUN_PROGRESS, name);
      // Assets a job without a source reported name the job: it leaves their `sources` (the assets stay).
      this.deps.assets.forgetReporter(name);
      stopped = stored.activeOperation;
    });
    // Work in progress on the deleted job stops; its Operation ends ABORTED ("was deleted").
    if (stopped) this.ops.abortTarget(name, 'deleted');
    // The data files' bytes go once the delete committed (kept if the job still exists: a replay).
    if (!this.find(name)) this.deps.dataFiles?.purge(name);
    // So does its inline payload's text (a kill -9 before this: swept at the next start).
    if (text) this.dropUnlessStored(name, text);
    return op;
  }

  // ------------------------------------------------------------------ data files (DataFileJobs)

  dataChangeAllowed(jobName: string): ImportJobWire {
    const job = this.mustFind(jobName).job;
    if (!PAYLOAD_EDITABLE.includes(job.state)) {
      throw failedPrecondition(
        `Import job ${jobName} is in state ${job.state}: its data files can be added, uploaded or deleted only before it runs (states ${PAYLOAD_EDITABLE.join(', ')}).`,
      );
    }
    return job;
  }

  dataChanged(jobName: string): void {
    const stored = this.mustFind(jobName);
    const job = stored.job;
    // A validation report describes the data it read: changed data needs a new validation.
    if (job.state !== STATE.PENDING) {
      job.state = STATE.PENDING;
      delete job.validationReport;
    }
    job.updateTime = now();
    stored.job = ordered(job);
    this.store.put(COLLECTIONS.importJobs, jobName, stored);
  }

  payloadFormat(job: ImportJobWire): string | undefined {
    return hasPayload(job) ? payloadFormat(job) : undefined;
  }

  // ------------------------------------------------------------------ validate / run

  validate(name: string, parent: string, requestId: string | undefined): Operation {
    requestId = checkRequestId(requestId);
    const write = { parent, target: name, verb: 'validate', responseType: EMPTY_TYPE, requestId, requestHash: requestHash('validate', name, {}) };
    return this.ops.writeStarting(write, () => {
      const stored = this.mustFind(name);
      const state = stored.job.state;
      if (!VALIDATABLE.includes(state)) {
        throw failedPrecondition(`Import job ${name} is in state ${state}; it can be validated only in state ${VALIDATABLE.join(', ')}.`);
      }
      this.deps.sources.checkJobSource(name, stored.job.assetSource, 'validated');
      return this.work.start(stored, parent, 'validate');
    });
  }

  run(name: string, parent: string, requestId: string | undefined): Operation {
    requestId = checkRequestId(requestId);
    const write = { parent, target: name, verb: 'run', responseType: EMPTY_TYPE, requestId, requestHash: requestHash('run', name, {}) };
    return this.ops.writeStarting(write, () => {
      const stored = this.mustFind(name);
      const state = stored.job.state;
      if (state !== STATE.READY) {
        const hint =
          state === STATE.PENDING || state === STATE.FAILED_VALIDATION
            ? ' (validate it first, and fix the payload until validation succeeds)'
            : state === STATE.VALIDATING
              ? ' (wait for the validation to end)'
              : ' (an import job runs once)';
        throw failedPrecondition(`Import job ${name} is in state ${state}; it can be run only in state ${STATE.READY}${hint}.`);
      }
      // A source deleted after validation: no run may write assets naming it (each batch checks again).
      this.deps.sources.checkJobSource(name, stored.job.assetSource, 'run');
      return this.work.start(stored, parent, 'run');
    });
  }

  /** Work in progress in this process (for tests). */
  get activeJobs(): string[] {
    return this.ops.runningTargets().filter((t) => t.includes('/importJobs/'));
  }

  /** Seed section `importJobs`: whole ImportJobs with their `name` (inside the seed transaction). */
  seedAll(value: unknown, field: string): number {
    if (!Array.isArray(value)) throw invalidArgument([{ field, description: 'must be a list of ImportJob objects with a name' }]);
    value.forEach((item, i) =>
      this.seed(item, `${field}[${i}]`, (parent, source, f) => {
        this.deps.sources.resolveReference(parent, source, f);
      }),
    );
    return value.length;
  }

  /** Seeds one job (inside the seed transaction); `field` prefixes the violations. */
  seed(value: unknown, field: string, checkSource: (parent: string, source: string, field: string) => void): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidArgument([{ field, description: 'must be an ImportJob object with a name' }]);
    }
    const body = { ...(value as Record<string, unknown>) };
    const name = body.name;
    const m = typeof name === 'string' ? /^(projects\/[^/\s]+\/locations\/[^/\s]+)\/importJobs\/([^/\s]+)$/.exec(name) : null;
    if (!m) throw invalidArgument([{ field: `${field}.name`, description: 'must be projects/{project}/locations/{location}/importJobs/{importJobId}' }]);
    const [, parent, id] = m;
    const state = (body.state ?? STATE.PENDING) as JobState;
    const settable: JobState[] = [STATE.PENDING, STATE.READY, STATE.FAILED_VALIDATION, STATE.COMPLETED, STATE.FAILED];
    if (!settable.includes(state)) {
      throw invalidArgument([{ field: `${field}.state`, description: `must be one of ${settable.join(', ')} (a seeded job is never in progress)` }]);
    }
    const reports: Record<string, unknown> = {};
    for (const key of ['validationReport', 'executionReport'] as const) {
      const report = body[key];
      if (report === undefined) continue;
      // A message on the wire: a string or a list was stored and served as the job's report.
      if (typeof report !== 'object' || report === null || Array.isArray(report)) {
        throw invalidArgument([
          { field: `${field}.${key}`, description: `must be a ${key === 'validationReport' ? 'ValidationReport' : 'ExecutionReport'} object` },
        ]);
      }
      reports[key] = report;
    }
    for (const time of ['createTime', 'updateTime', 'completeTime'] as const) {
      if (body[time] !== undefined && !isWireTimestamp(body[time])) throw invalidArgument([{ field: `${field}.${time}`, description: NOT_A_TIMESTAMP }]);
    }
    // A seed is an ImportJob as Google stores it: wire names only, as on create.
    refuseUnknownNames(body, importJobShape(), 'import_job');
    refuseNonWireFormats(body);
    const input: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) if (!(OUTPUT_ONLY as readonly string[]).includes(k)) input[k] = v;
    const violations = importJobArgsViolations({ ...input, importJobId: id }).map((v) => ({ field: `${field}.${v.field}`, description: v.description }));
    if (violations.length > 0) throw invalidArgument(violations);
    const wire = input as Partial<ImportJobWire>;
    checkSource(parent, wire.assetSource as string, `${field}.assetSource`);
    const time = now();
    const job = ordered({
      ...(wire as Record<string, unknown>),
      ...reports,
      name,
      createTime: typeof body.createTime === 'string' ? body.createTime : time,
      updateTime: typeof body.updateTime === 'string' ? body.updateTime : time,
      ...(state === STATE.COMPLETED || state === STATE.FAILED ? { completeTime: typeof body.completeTime === 'string' ? body.completeTime : time } : {}),
      state,
    } as ImportJobWire);
    this.store.put<StoredJob>(COLLECTIONS.importJobs, name as string, { job, attempt: 0 });
  }
}

export { NO_DATA_MESSAGE };
export type { PayloadFile };
