/**
 * The import data file domain (`importJobs/{job}/importDataFiles`, Migration Center's current
 * upload flow): create, get, list, delete, and the upload of a file's bytes to its signed URL.
 *
 *   create  -> Operation (done; response ImportDataFile, state CREATING, with uploadFileInfo)
 *   PUT signedUri (+ uploadFileInfo.headers) with the bytes -> the file is ACTIVE
 *   :validate and :run of the job read its data files (import-job-work.ts, through JobDataFiles)
 *
 * Rules (Google's where public; choices are in docs/migration-center.md):
 * - the job must exist (NOT_FOUND); `importDataFileId` follows the resource id rule; a duplicate
 *   is ALREADY_EXISTS; `displayName` at most 256 characters; `format` is required.
 * - every data file of a job, and the job's own payload if any, share one format: another one is
 *   FAILED_PRECONDITION naming `format` (it is valid on its own; it conflicts with what is stored).
 * - data files are added, uploaded again or deleted only while the job has not started running
 *   (PENDING, READY, FAILED_VALIDATION); each change sends a validated job back to PENDING, as a
 *   payload patch does, since its report no longer describes its data.
 * - a data file's bytes go with it: deleting the file (or its job, with force) removes them.
 */
import type { Readable } from 'stream';
import type { Store } from '../../store/store';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, signedUrlRefused, uploadTooLarge } from '../../errors';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { RESOURCE_ID, RESOURCE_ID_REASON } from '../../http/names';
import type { PayloadFile, ResolvedPayload } from '../../payloads';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, lastSegment } from '../names';
import { checkRequestId } from '../request-id-rule';
import { schemaFailures } from '../schemas-bridge';
import { refuseNonWireFormat } from '../wire-names';
import { listPage, type ListFields, type ListRequest } from '../../query/list-query';
import { now } from '../import-jobs/import-job-model';
import type { ImportJobWire } from '../types';
import { UPLOAD_METHOD, type UploadFileInfo, type UploadUrls } from './upload-urls';
import { MAX_DATA_FILE_BYTES, UploadTooLarge, type DataFileBytes, type ReceivedUpload } from './data-file-bytes';

export type DataFileState = 'CREATING' | 'ACTIVE';

export interface ImportDataFileWire {
  name: string;
  displayName?: string;
  format: string;
  createTime: string;
  state: DataFileState;
  uploadFileInfo: UploadFileInfo;
}

/** The stored document: the wire file (its state is CREATING until bytes are uploaded). */
export interface StoredDataFile {
  file: ImportDataFileWire;
  /** Set by the first completed upload. */
  uploadTime?: string;
}

export const DATA_FILE_LIST_FIELDS: ListFields<ImportDataFileWire> = {
  scalars: {
    name: (f) => f.name,
    displayName: (f) => f.displayName,
    format: (f) => f.format,
    state: (f) => f.state,
    createTime: (f) => f.createTime,
  },
  enumPrefixes: {},
  name: (f) => f.name,
};

/** What the import job domain needs from a job's data files (its seam: ImportJobsDeps.dataFiles). */
export interface JobDataFiles {
  count(jobName: string): number;
  /** The format the job's data files share; undefined when it has none. */
  format(jobName: string): string | undefined;
  /** The files for the engine (named by display name), and a job error per file with no bytes yet. */
  payload(jobName: string): ResolvedPayload;
  /** Deletes the records of every data file of a job (inside the job's delete transaction). */
  removeAll(jobName: string): void;
  /** Removes the bytes of a deleted job's data files (after its delete committed). */
  purge(jobName: string): void;
}

/** What this domain needs from the import jobs (inside its transactions). */
export interface DataFileJobs {
  /** The job, checked to accept a change of its data (NOT_FOUND; FAILED_PRECONDITION naming its state). */
  dataChangeAllowed(jobName: string): ImportJobWire;
  /** After a change of its data: a validated job goes back to PENDING, its report dropped. */
  dataChanged(jobName: string): void;
  /** The job's own payload format (inline or gcsPayload), if it has a payload. */
  payloadFormat(job: ImportJobWire): string | undefined;
}

export interface ImportDataFilesDeps {
  store: Store;
  ops: ServiceOperations;
  bytes: DataFileBytes;
  urls: UploadUrls;
  /** Lazily: the import jobs are built after this domain (they use it through JobDataFiles). */
  jobs: () => DataFileJobs;
}

function ordered(file: ImportDataFileWire): ImportDataFileWire {
  const { name, displayName, format, createTime, state, uploadFileInfo } = file;
  return { name, ...(displayName !== undefined ? { displayName } : {}), format, createTime, state, uploadFileInfo };
}

export class ImportDataFiles implements JobDataFiles {
  private readonly store: Store;
  /** Where the files' bytes are kept (tests look for leftovers there). */
  readonly bytes: DataFileBytes;

  /** Signs and checks the upload URLs. */
  get urls(): UploadUrls {
    return this.deps.urls;
  }

  constructor(private readonly deps: ImportDataFilesDeps) {
    this.store = deps.store;
    this.bytes = deps.bytes;
  }

  // ------------------------------------------------------------------ reads

  private find(name: string): StoredDataFile | undefined {
    return this.store.get<StoredDataFile>(COLLECTIONS.importDataFiles, name);
  }

  private mustFind(name: string): StoredDataFile {
    const stored = this.find(name);
    if (!stored) throw notFound(RESOURCE_TYPES.importDataFile, name);
    return stored;
  }

  /**
   * The data file `name`, whose upload URL is the one that carries `signature`. A URL of an earlier
   * data file of the same name (deleted, or gone with a reset, and created again within the URL's
   * hour) is refused: on Google each data file's upload is an object of its own, and that URL
   * wrote into the new file's bytes.
   */
  private mustFindSignedFor(name: string, signature: string): StoredDataFile {
    const stored = this.mustFind(name);
    const issued = stored.file.uploadFileInfo ? new URL(stored.file.uploadFileInfo.signedUri).searchParams.get('signature') : null;
    if (issued !== signature) {
      throw signedUrlRefused(
        'SIGNATURE_MISMATCH',
        `The upload URL was signed for an earlier data file named ${name}, deleted since. Use the uploadFileInfo.signedUri of the data file as it is now.`,
      );
    }
    return stored;
  }

  private ofJob(jobName: string): StoredDataFile[] {
    return this.store.list<StoredDataFile>(COLLECTIONS.importDataFiles, { prefix: `${jobName}/importDataFiles/` }).map((e) => e.value);
  }

  get(name: string): ImportDataFileWire {
    return this.mustFind(name).file;
  }

  /** ListImportDataFiles; the job must exist (NOT_FOUND otherwise, as for any child collection). */
  list(jobName: string, request: ListRequest): { importDataFiles: ImportDataFileWire[]; nextPageToken?: string } {
    // Whether the job is there, without reading its record (a large report makes it megabytes).
    if (!this.store.has(COLLECTIONS.importJobs, jobName)) throw notFound(RESOURCE_TYPES.importJob, jobName);
    const page = listPage(
      this.ofJob(jobName).map((s) => s.file),
      request,
      DATA_FILE_LIST_FIELDS,
      `importDataFiles:${jobName}`,
    );
    return { importDataFiles: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  // ------------------------------------------------------------------ create / delete

  /**
   * CreateImportDataFile. `origin` is where the client reached the emulator (`http://host:port`,
   * from its Host header): the signed upload URL points there.
   */
  create(
    jobName: string,
    parent: string,
    importDataFileId: string | undefined,
    requestId: string | undefined,
    body: Record<string, unknown>,
    origin: string,
  ): Operation {
    if (importDataFileId === undefined || importDataFileId === '') throw invalidArgument([{ field: 'importDataFileId', description: 'is required' }]);
    if (!RESOURCE_ID.test(importDataFileId)) throw invalidArgument([{ field: 'importDataFileId', description: RESOURCE_ID_REASON }]);
    const checkedId = checkRequestId(requestId);
    refuseNonWireFormat('import_data_file.format', body.format);
    const violations = schemaFailures('ImportDataFile', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const input: { displayName?: string; format: string } = { format: body.format as string };
    if (typeof body.displayName === 'string' && body.displayName !== '') input.displayName = body.displayName;
    const name = `${jobName}/importDataFiles/${importDataFileId}`;
    const hash = requestHash('createImportDataFile', name, input);
    const write = { parent, target: name, verb: 'create', responseType: TYPES.importDataFile, requestId: checkedId, requestHash: hash };
    return this.deps.ops.write(write, () => {
      const jobs = this.deps.jobs();
      const job = jobs.dataChangeAllowed(jobName);
      if (this.find(name)) throw alreadyExists(RESOURCE_TYPES.importDataFile, name);
      this.checkFormat(jobName, input.format, jobs.payloadFormat(job));
      jobs.dataChanged(jobName);
      const file = ordered({
        name,
        ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
        format: input.format,
        createTime: now(),
        state: 'CREATING',
        uploadFileInfo: this.deps.urls.sign(origin, name),
      });
      this.store.put<StoredDataFile>(COLLECTIONS.importDataFiles, name, { file });
      return file;
    });
  }

  /** One format per job: the other data files' and the job payload's. */
  private checkFormat(jobName: string, format: string, payloadFormat: string | undefined): void {
    const files = this.format(jobName);
    if (files !== undefined && files !== format) {
      throw failedPrecondition(
        `format ${format} differs from the format of the other data files of import job ${jobName} (${files}): every data file of a job has one format.`,
      );
    }
    if (payloadFormat !== undefined && payloadFormat !== format) {
      throw failedPrecondition(`format ${format} differs from the format of the payload of import job ${jobName} (${payloadFormat}).`);
    }
  }

  /** DeleteImportDataFile: the record and its bytes. */
  delete(name: string, parent: string, requestId: string | undefined): Operation {
    const checkedId = checkRequestId(requestId);
    const jobName = name.slice(0, name.lastIndexOf('/importDataFiles/'));
    const write = {
      parent,
      target: name,
      verb: 'delete',
      responseType: EMPTY_TYPE,
      requestId: checkedId,
      requestHash: requestHash('deleteImportDataFile', name, {}),
    };
    const op = this.deps.ops.write(write, () => {
      this.mustFind(name);
      const jobs = this.deps.jobs();
      jobs.dataChangeAllowed(jobName);
      this.store.delete(COLLECTIONS.importDataFiles, name);
      jobs.dataChanged(jobName);
    });
    // After the commit, and only if the file is still gone (a replayed requestId after the id
    // was created again must not take the new file's bytes).
    if (!this.find(name)) this.bytes.remove(name);
    return op;
  }

  // ------------------------------------------------------------------ upload

  /**
   * The PUT to a signed URL: checks the signature (403), the data file (404) and its job (400
   * FAILED_PRECONDITION once it runs), streams the body into a temporary file (413 past 100 MB),
   * then, in one transaction that checks all of it again, puts the bytes in place.
   */
  async upload(
    name: string,
    query: Record<string, unknown>,
    headers: Record<string, string | string[] | undefined>,
    declaredLength: number | undefined,
    body: Readable,
  ): Promise<void> {
    this.deps.urls.verify(UPLOAD_METHOD, name, query, headers);
    const signature = query.signature as string; // a string: verify checked it
    const jobName = name.slice(0, name.lastIndexOf('/importDataFiles/'));
    // Refused before a byte is read when the state or the declared size already says no.
    this.mustFindSignedFor(name, signature);
    this.deps.jobs().dataChangeAllowed(jobName);
    const what = `The upload to ${lastSegment(name)}`;
    if (declaredLength !== undefined && declaredLength > MAX_DATA_FILE_BYTES) throw uploadTooLarge(MAX_DATA_FILE_BYTES, what);
    let received: ReceivedUpload;
    try {
      received = await this.bytes.receive(body, MAX_DATA_FILE_BYTES);
    } catch (err) {
      if (err instanceof UploadTooLarge) {
        // The rest of the body is read and dropped (nothing more is written), so that the client,
        // still sending, gets the 413 answer rather than a reset connection.
        body.resume();
        throw uploadTooLarge(err.limit, what);
      }
      throw err;
    }
    try {
      this.store.transaction(() => {
        const stored = this.mustFindSignedFor(name, signature);
        const jobs = this.deps.jobs();
        jobs.dataChangeAllowed(jobName);
        stored.file = ordered({ ...stored.file, state: 'ACTIVE' });
        stored.uploadTime = now();
        this.store.put(COLLECTIONS.importDataFiles, name, stored);
        jobs.dataChanged(jobName);
        // Last: nothing after it can throw, so the rename never outlives a rolled-back transaction.
        this.bytes.commit(received, name);
      });
    } finally {
      this.bytes.discard(received);
    }
  }

  // ------------------------------------------------------------------ the job's side (JobDataFiles)

  count(jobName: string): number {
    return this.store.count(COLLECTIONS.importDataFiles, `${jobName}/importDataFiles/`);
  }

  format(jobName: string): string | undefined {
    return this.ofJob(jobName)[0]?.file.format;
  }

  payload(jobName: string): ResolvedPayload {
    const files: PayloadFile[] = [];
    const errors: string[] = [];
    for (const { file } of this.ofJob(jobName)) {
      const fileName = file.displayName ?? lastSegment(file.name);
      const size = this.bytes.size(file.name);
      if (size === undefined) {
        errors.push(`data file ${fileName} (${file.name}) has no bytes: upload them to its uploadFileInfo.signedUri first`);
        continue;
      }
      files.push({ name: fileName, size, open: () => this.bytes.open(file.name), origin: { kind: 'file', path: this.bytes.pathOf(file.name) } });
    }
    return { files, errors };
  }

  removeAll(jobName: string): void {
    this.store.deletePrefix(COLLECTIONS.importDataFiles, `${jobName}/importDataFiles/`);
  }

  purge(jobName: string): void {
    if (this.count(jobName) === 0) this.bytes.removeJob(jobName);
  }

  // ------------------------------------------------------------------ start-up

  /** Removes uploads a stop interrupted and bytes no data file owns; returns how many. */
  sweep(): number {
    return this.bytes.sweep(this.store.list<StoredDataFile>(COLLECTIONS.importDataFiles).map((e) => e.key));
  }
}
