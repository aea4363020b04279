/**
 * Reports (`.../reportConfigs/{reportConfig}/reports/{report}`): a point-in-time rendering of a
 * report config. Create, get, list and delete (Google has no patch).
 *
 * Creating a report computes its whole summary (report-summary.ts) inside the create's
 * transaction, from the assets of the config's groups at that moment, so the Operation is done at
 * once and the report is `SUCCEEDED` (Google's create is a long-running Operation that goes
 * PENDING -> SUCCEEDED; clients poll it either way). The summary is stored with the report: later
 * changes to the assets or groups do not change it.
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
import { reportSummary } from './report-summary';

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
  constructor(store: Store, ops: ServiceOperations, configs: ReportConfigs, groups: Groups, preferenceSets: () => PreferenceSetLookup, now?: () => string) {
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
          const config = configs.find(configName);
          if (!config) throw notFound(RESOURCE_TYPES.reportConfig, configName);
          const summary = reportSummary(config, { assets: store.assets, findGroup: (g) => groups.find(g), preferenceSets: preferenceSets() });
          return {
            name,
            createTime: time,
            updateTime: time,
            ...(input.displayName !== undefined ? { displayName: input.displayName as string } : {}),
            ...(input.description !== undefined ? { description: input.description as string } : {}),
            ...(input.type !== undefined && input.type !== 'TYPE_UNSPECIFIED' ? { type: input.type as string } : {}),
            state: 'SUCCEEDED',
            summary,
          };
        },
      },
      store,
      ops,
      now,
    );
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
