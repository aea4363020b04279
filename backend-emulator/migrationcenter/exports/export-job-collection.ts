/**
 * The collection of an export job kind (assets export jobs, report export jobs): the standard
 * methods of resource-collection.ts, with what exports add to them:
 *   get, list  -> executions that expired are left out
 *   delete     -> a run in progress stops (its Operation ends ABORTED) and the job's files go
 *   :run       -> exports/export-runs.ts
 * and the download side: whether a signed URL still names a file.
 */
import type { Operation, ServiceOperations } from '../../operations/operations';
import type { Store } from '../../store/store';
import type { ListRequest } from '../../query/list-query';
import { ResourceCollection, type CollectionSpec } from '../resource-collection';
import type { DownloadUrls } from './download-urls';
import type { ExportFiles } from './export-files';
import { ExportRuns, type ExportJobWire, type ExportKind } from './export-runs';
import type { DownloadSource } from './download-route';

export class ExportJobCollection<W extends ExportJobWire> extends ResourceCollection<W> implements DownloadSource {
  readonly runs: ExportRuns<W>;
  /** Names whose delete (in the transaction under way) also dropped a run in progress. */
  private readonly stoppedRuns = new Set<string>();

  constructor(
    spec: CollectionSpec<W>,
    store: Store,
    ops: ServiceOperations,
    readonly files: ExportFiles,
    readonly urls: DownloadUrls,
    kind: ExportKind<W>,
  ) {
    super(spec, store, ops);
    this.runs = new ExportRuns(store, ops, this, files, urls, kind);
  }

  override get(name: string): W {
    return this.runs.visible(super.get(name));
  }

  override list(parent: string, request: ListRequest): Record<string, unknown> {
    const page = super.list(parent, request);
    const items = page[this.spec.segment] as W[] | undefined;
    return items ? { ...page, [this.spec.segment]: items.map((j) => this.runs.visible(j)) } : page;
  }

  override delete(name: string, parent: string, requestId: unknown): Operation {
    this.stoppedRuns.delete(name);
    const op = super.delete(name, parent, requestId);
    this.runs.afterDelete(name, this.stoppedRuns.delete(name));
    return op;
  }

  /** Inside the delete's transaction: the run record goes with the job. */
  override remove(name: string): void {
    super.remove(name);
    if (this.runs.forget(name)) this.stoppedRuns.add(name);
  }

  run(name: string, location: string, requestId: unknown, origin: string): Operation {
    return this.runs.run(name, location, requestId, origin);
  }

  hasFile(job: string, executionId: string, file: string): boolean {
    const found = this.find(job);
    return found !== undefined && this.runs.hasFile(found, executionId, file);
  }
}
