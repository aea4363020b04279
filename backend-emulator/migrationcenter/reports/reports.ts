/**
 * Reports (`.../reportConfigs/{reportConfig}/reports/{report}`): a point-in-time rendering of a
 * report config. Create, get, list and delete (Google has no patch).
 *
 * Create answers at once with its long-running Operation, as Google's does: the report is stored
 * `PENDING`, and its summary (report-summary.ts) is computed afterwards from the assets of the
 * config's groups at that moment, off the request thread (report-work.ts); the report then is
 * `SUCCEEDED` with its summary (or `FAILED`), and the Operation is done with the finished report as
 * its response. The config's groups and preference sets are read in the create's transaction: one
 * that no longer exists refuses the create. The summary is stored with the report: later changes to
 * the assets or groups do not change it.
 *
 * `view` (ReportView) of get and list: BASIC (the default, as Google documents: no summary),
 * STANDARD (the summary without the copies of each preference set in its findings), FULL
 * (everything).
 */
import type { Store } from '../../store/store';
import type { ServiceOperations } from '../../operations/operations';
import { invalidArgument, notFound, type FieldViolation } from '../../errors';
import type { ListFields, ListRequest } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';
import { schemaFailures } from '../schemas-bridge';
import { ResourceCollection } from '../resource-collection';
import type { Groups } from '../groups/groups';
import type { ReportConfigs } from '../report-configs/report-configs';
import type { PreferenceSetLookup } from '../report-configs/preference-set-lookup';
import { summaryInputs } from './report-summary';
import { ReportWork } from './report-work';
import type { Operation } from '../../operations/operations';

export interface ReportWire {
  name: string;
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  type?: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  summary?: Record<string, unknown>;
}

export type ReportView = 'REPORT_VIEW_BASIC' | 'REPORT_VIEW_STANDARD' | 'REPORT_VIEW_FULL';

const VIEWS: Readonly<Record<string, ReportView>> = {
  '': 'REPORT_VIEW_BASIC',
  '0': 'REPORT_VIEW_BASIC',
  REPORT_VIEW_UNSPECIFIED: 'REPORT_VIEW_BASIC',
  '1': 'REPORT_VIEW_BASIC',
  REPORT_VIEW_BASIC: 'REPORT_VIEW_BASIC',
  '2': 'REPORT_VIEW_FULL',
  REPORT_VIEW_FULL: 'REPORT_VIEW_FULL',
  '3': 'REPORT_VIEW_STANDARD',
  REPORT_VIEW_STANDARD: 'REPORT_VIEW_STANDARD',
};

export function checkReportView(view: string | undefined): ReportView {
  const checked = Object.prototype.hasOwnProperty.call(VIEWS, view ?? '') ? VIEWS[view ?? ''] : undefined;
  if (!checked) throw invalidArgument([{ field: 'view', description: 'must be REPORT_VIEW_BASIC, REPORT_VIEW_STANDARD or REPORT_VIEW_FULL' }]);
  return checked;
}

/** The report as `view` shows it. */
export function reportInView(report: ReportWire, view: ReportView): ReportWire {
  const { summary, ...basic } = report;
  if (view === 'REPORT_VIEW_BASIC' || !summary) return basic;
  if (view === 'REPORT_VIEW_FULL') return report;
  const findings = (summary.groupFindings as Array<Record<string, unknown>> | undefined)?.map((g) => ({
    ...g,
    ...(Array.isArray(g.preferenceSetFindings)
      ? {
          preferenceSetFindings: (g.preferenceSetFindings as Array<Record<string, unknown>>).map(
            ({ preferenceSet: _set, machinePreferences: _prefs, ...rest }) => rest,
          ),
        }
      : {}),
  }));
  return { ...basic, summary: { ...summary, ...(findings ? { groupFindings: findings } : {}) } };
}

const OUTPUT_ONLY = ['name', 'createTime', 'updateTime', 'summary', 'state'] as const;

export const REPORT_LIST_FIELDS: ListFields<ReportWire> = {
  scalars: {
    name: (r) => r.name,
    displayName: (r) => r.displayName,
    description: (r) => r.description,
    type: (r) => r.type,
    state: (r) => r.state,
    createTime: (r) => r.createTime,
    updateTime: (r) => r.updateTime,
  },
  name: (r) => r.name,
};

function checkReportBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations: FieldViolation[] = schemaFailures('Report', body);
  if (violations.length > 0) throw invalidArgument(violations);
  const input: Record<string, unknown> = { ...body };
  for (const field of OUTPUT_ONLY) delete input[field];
  return input;
}

export class Reports extends ResourceCollection<ReportWire> {
  private readonly work: ReportWork;

  constructor(
    store: Store,
    ops: ServiceOperations,
    private readonly configs: ReportConfigs,
    private readonly groups: Groups,
    private readonly preferenceSets: () => PreferenceSetLookup,
    now?: () => string,
  ) {
    super(
      {
        segment: 'reports',
        idField: 'reportId',
        storeCollection: COLLECTIONS.reports,
        resourceType: RESOURCE_TYPES.report,
        wireType: TYPES.report,
        methodNames: { create: 'createReport', update: 'updateReport', delete: 'deleteReport' },
        check: checkReportBody,
        updatable: [],
        listFields: REPORT_LIST_FIELDS,
        create(name, input, time) {
          const configName = name.slice(0, name.lastIndexOf('/reports/'));
          if (!configs.find(configName)) throw notFound(RESOURCE_TYPES.reportConfig, configName);
          return {
            name,
            createTime: time,
            updateTime: time,
            ...(input.displayName !== undefined ? { displayName: input.displayName as string } : {}),
            ...(input.description !== undefined ? { description: input.description as string } : {}),
            ...(input.type !== undefined && input.type !== 'TYPE_UNSPECIFIED' ? { type: input.type as string } : {}),
            state: 'PENDING',
          };
        },
        beforeDelete: (report) => this.work.forget(report.name),
      },
      store,
      ops,
      now,
    );
    this.work = new ReportWork(store, ops, this.now);
    configs.onRemove((config) => this.work.forgetUnder(config.name));
  }

  /** Start-up recovery of reports a stopped emulator left PENDING (report-work.ts). */
  get recovery(): ReportWork['recovery'] {
    return this.work.recovery;
  }

  /**
   * CreateReport: the report is stored PENDING, with the config's groups and preference sets read
   * in the same transaction, and its Operation (not done) is answered; the summary follows.
   */
  override create(parent: string, id: string | undefined, requestId: unknown, body: Record<string, unknown>, location = parent): Operation {
    const { name, input, write } = this.createRequest(parent, id, requestId, body, location);
    return this.ops.writeStarting(write, () => {
      const report = this.insert(name, input);
      const inputs = summaryInputs(this.configs.get(parent), { findGroup: (g) => this.groups.find(g), preferenceSets: this.preferenceSets() });
      return this.work.start(report, location, inputs);
    });
  }

  /** GetReport in `view` (BASIC by default). */
  getInView(name: string, view: string | undefined): ReportWire {
    const checked = checkReportView(view);
    return reportInView(this.get(name), checked);
  }

  /** ListReports in `view` (BASIC by default); the parent config must exist. */
  listInView(parent: string, request: ListRequest, view: string | undefined): Record<string, unknown> {
    const checked = checkReportView(view);
    const page = this.list(parent, request);
    const reports = page.reports as ReportWire[] | undefined;
    return { ...page, ...(reports ? { reports: reports.map((r) => reportInView(r, checked)) } : {}) };
  }
}
