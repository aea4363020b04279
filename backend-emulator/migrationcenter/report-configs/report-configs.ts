/**
 * Report configs (`projects/{project}/locations/{location}/reportConfigs/{reportConfig}`): which
 * groups a report covers and the preference set each is sized with. Create, get, list and delete
 * (Google has no patch); reports live under them (reports/).
 *
 * Every `groupPreferencesetAssignments` pair names a group and a preference set of the config's
 * location (INVALID_ARGUMENT otherwise) that exist when the config is created (NOT_FOUND naming the
 * first one that does not); a pair given twice is INVALID_ARGUMENT. A group or preference set
 * deleted later is not refused: the report created from the config then fails (reports/).
 *
 * Delete: a config with reports is FAILED_PRECONDITION unless `force`, which deletes its reports
 * in the same transaction (DeleteReportConfigRequest.force).
 */
import type { Store } from '../../store/store';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { failedPrecondition, invalidArgument, notFound, type FieldViolation } from '../../errors';
import type { ListFields } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';
import { schemaFailures } from '../schemas-bridge';
import { checkRequestId } from '../request-id-rule';
import { ResourceCollection } from '../resource-collection';
import type { Groups } from '../groups/groups';
import type { PreferenceSetLookup } from './preference-set-lookup';

export interface GroupPreferenceSetAssignment {
  group: string;
  preferenceSet: string;
}

export interface ReportConfigWire {
  name: string;
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  groupPreferencesetAssignments: GroupPreferenceSetAssignment[];
}

const OUTPUT_ONLY = ['name', 'createTime', 'updateTime'] as const;

export const REPORT_CONFIG_LIST_FIELDS: ListFields<ReportConfigWire> = {
  scalars: {
    name: (c) => c.name,
    displayName: (c) => c.displayName,
    description: (c) => c.description,
    createTime: (c) => c.createTime,
    updateTime: (c) => c.updateTime,
  },
  name: (c) => c.name,
};

function checkReportConfigBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations: FieldViolation[] = schemaFailures('ReportConfig', body);
  if (violations.length > 0) throw invalidArgument(violations);
  const input: Record<string, unknown> = { ...body };
  for (const field of OUTPUT_ONLY) delete input[field];
  return input;
}

/** The `{location}/{segment}/{id}` names a pair may hold. */
function isNameIn(location: string, segment: string, name: string): boolean {
  const prefix = `${location}/${segment}/`;
  return name.startsWith(prefix) && /^[^/]+$/.test(name.slice(prefix.length));
}

export class ReportConfigs extends ResourceCollection<ReportConfigWire> {
  constructor(store: Store, ops: ServiceOperations, groups: Groups, preferenceSets: () => PreferenceSetLookup, now?: () => string) {
    super(
      {
        segment: 'reportConfigs',
        idField: 'reportConfigId',
        storeCollection: COLLECTIONS.reportConfigs,
        resourceType: RESOURCE_TYPES.reportConfig,
        wireType: TYPES.reportConfig,
        methodNames: { create: 'createReportConfig', update: 'updateReportConfig', delete: 'deleteReportConfig' },
        check: checkReportConfigBody,
        updatable: [],
        listFields: REPORT_CONFIG_LIST_FIELDS,
        create: (name, input, time) => ({
          name,
          createTime: time,
          updateTime: time,
          ...(input.displayName !== undefined ? { displayName: input.displayName as string } : {}),
          ...(input.description !== undefined ? { description: input.description as string } : {}),
          groupPreferencesetAssignments: (input.groupPreferencesetAssignments as GroupPreferenceSetAssignment[]).map((a) => ({
            group: a.group,
            preferenceSet: a.preferenceSet,
          })),
        }),
        beforeWrite: (config) => checkAssignments(config, groups, preferenceSets),
      },
      store,
      ops,
      now,
    );
  }

  /** DeleteReportConfig: `force` deletes its reports too; without it a config with reports is refused. */
  deleteConfig(name: string, location: string, requestId: unknown, force: string | undefined): Operation {
    const checkedRequest = checkRequestId(requestId);
    const forced = parseForce(force);
    const hash = requestHash('deleteReportConfig', name, { force: forced });
    return this.ops.write({ parent: location, target: name, verb: 'delete', responseType: EMPTY_TYPE, requestId: checkedRequest, requestHash: hash }, () => {
      this.get(name);
      const reports = this.store.count(COLLECTIONS.reports, `${name}/reports/`);
      if (reports > 0 && !forced) {
        throw failedPrecondition(`Report config ${name} has ${reports} report(s): delete them first, or delete the report config with force=true.`);
      }
      this.store.deletePrefix(COLLECTIONS.reports, `${name}/reports/`);
      this.remove(name);
    });
  }
}

/** Each pair names a group and a preference set of the config's location that exist; no pair twice. */
function checkAssignments(config: ReportConfigWire, groups: Groups, preferenceSets: () => PreferenceSetLookup): void {
  const location = config.name.slice(0, config.name.indexOf('/reportConfigs/'));
  const violations: FieldViolation[] = [];
  const seen = new Set<string>();
  config.groupPreferencesetAssignments.forEach((a, i) => {
    const at = `groupPreferencesetAssignments[${i}]`;
    if (!isNameIn(location, 'groups', a.group))
      violations.push({ field: `${at}.group`, description: `must be a group of the report config's location: ${location}/groups/{group}` });
    if (!isNameIn(location, 'preferenceSets', a.preferenceSet)) {
      violations.push({
        field: `${at}.preferenceSet`,
        description: `must be a preference set of the report config's location: ${location}/preferenceSets/{preferenceSet}`,
      });
    }
    const key = `${a.group}\n${a.preferenceSet}`;
    if (seen.has(key)) violations.push({ field: at, description: 'repeats an earlier pair of the same group and preference set' });
    seen.add(key);
  });
  if (violations.length > 0) throw invalidArgument(violations);
  for (const a of config.groupPreferencesetAssignments) {
    if (!groups.find(a.group)) throw notFound(RESOURCE_TYPES.group, a.group);
    if (!preferenceSets().find(a.preferenceSet)) throw notFound(RESOURCE_TYPES.preferenceSet, a.preferenceSet);
  }
}

function parseForce(force: string | undefined): boolean {
  if (force === undefined || force === '' || force === 'false') return false;
  if (force === 'true') return true;
  throw invalidArgument([{ field: 'force', description: 'must be true or false' }]);
}
