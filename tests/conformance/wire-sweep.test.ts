/**
 * Google's generated clients as judges of the emulator's wire, method by method (judge12): for
 * Network Services v1 (the pinned client, revision 140, which still lists IAM on endpoint
 * policies) and Migration Center v1alpha1 and v1 (the newest, revision 188), a scripted world on
 * one listening emulator calls every method the emulator serves with valid input, and
 *
 * - every answer, and each Operation's `metadata` and `response` by their `@type`, has only fields
 *   the client's schema of that method has, each of the JSON type the client gives it;
 * - every method of the three APIs called was one the script meant (the list of methods is the
 *   clients', so a method the script leaves out fails);
 * - a query parameter no method declares is refused with Google's 400 shape, on every method, and
 *   every one the client declares is bound (never refused as unknown);
 * - a Required query parameter (the client's own "Required." mark) left out is refused with a
 *   BadRequest naming it, on every method that has one;
 * - a body naming a field the request message has not is refused in the words of Google's JSON
 *   parser, before any rule of the method, on every method that takes a body: at the top, in every
 *   message the body nests (with its proto path), and on v1 every name only v1alpha1 has;
 * - every error answer on the way is `{"error": google.rpc.Status}`: `code` the HTTP status,
 *   `status` a code of that HTTP status, `details` of `google.rpc` types.
 *
 * The schemas and marks are read from the clients' typings (tests/support/googleapis-schema.ts),
 * never copied by hand. The whole-workflow suites (migrationcenter-workflow, migrationcenter-v1)
 * check the values; this one checks the shapes, for all three API versions, quickly.
 */
import { isDeepStrictEqual } from 'node:util';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { collectMethods } from '../../scripts/google-methods';
import {
  loadOutputOnlyFields,
  loadRequestBodies,
  loadRequiredParameters,
  loadResponseSchemas,
  loadSchemas,
  responseSchemaOf,
  shapeViolations,
  typingsKey,
  type ClientPackage,
  type FieldType,
  type Schemas,
} from '../support/googleapis-schema';
import { concreteGooglePath } from '../support/google-paths';
import { VM_HEADER, b64, csv, vmRow } from '../support/manual-csv';
import { isGoogleApiUrl, protoJsonDefaults } from '../support/protojson';

jest.setTimeout(60_000);

/** One API version as its client sees it. */
interface ApiVersion {
  api: 'networkservices' | 'migrationcenter';
  version: 'v1' | 'v1alpha1';
  client: ClientPackage;
  /** The `@type` prefix of this version's messages. */
  typePrefix: string;
}

const NS: ApiVersion = { api: 'networkservices', version: 'v1', client: 'googleapis', typePrefix: 'type.googleapis.com/google.cloud.networkservices.v1.' };
const ALPHA: ApiVersion = {
  api: 'migrationcenter',
  version: 'v1alpha1',
  client: 'googleapis-latest',
  typePrefix: 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.',
};
const V1: ApiVersion = {
  api: 'migrationcenter',
  version: 'v1',
  client: 'googleapis-latest',
  typePrefix: 'type.googleapis.com/google.cloud.migrationcenter.v1.',
};
const EMPTY = 'type.googleapis.com/google.protobuf.Empty';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

interface Answer {
  /** The method as the client names it: `projects.locations.sources.create`. */
  method: string;
  api: ApiVersion;
  status: number;
  body: any;
}

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
});
afterAll(() => emulator?.close());

/**
 * `send` in process (`app.inject()`: the same routes and hooks, no socket), for the sweep of 378
 * bodies: about 1.7 CPU-s for it against 2.6 over HTTP (three runs each, load 8).
 */
async function inject(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await emulator.app.inject({
    method: method as 'POST',
    url: path,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const answer = { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  if (res.statusCode >= 400) {
    errorsChecked++;
    errorShapes.push(...statusViolations(`${method} ${path}`, answer.status, answer.body));
  }
  return answer;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string') (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${emulator.url}${path}`, init);
  const text = await res.text();
  const answer = { status: res.status, body: text ? JSON.parse(text) : undefined };
  if (res.status >= 400) {
    errorsChecked++;
    errorShapes.push(...statusViolations(`${method} ${path}`, answer.status, answer.body));
  }
  return answer;
}

/** The HTTP status of each google.rpc.Code, as Google's REST front end maps them. */
const HTTP_OF_CODE: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** Where an error answer is not `{"error": google.rpc.Status}` in Google's REST form. */
function statusViolations(call: string, httpStatus: number, body: any): string[] {
  const error = body?.error;
  const problems: string[] = [];
  if (typeof error !== 'object' || error === null || Object.keys(body).length !== 1) return [`${call}: no lone "error" object: ${JSON.stringify(body)}`];
  const keys = Object.keys(error).filter((k) => !['code', 'message', 'status', 'details'].includes(k));
  if (keys.length > 0) problems.push(`${call}: error has ${keys.join(', ')}`);
  if (error.code !== httpStatus) problems.push(`${call}: error.code ${error.code} on HTTP ${httpStatus}`);
  if (HTTP_OF_CODE[error.status] !== httpStatus) problems.push(`${call}: error.status ${error.status} on HTTP ${httpStatus}`);
  if (typeof error.message !== 'string' || error.message === '') problems.push(`${call}: error.message ${JSON.stringify(error.message)}`);
  for (const detail of error.details ?? []) {
    if (typeof detail?.['@type'] !== 'string' || !detail['@type'].startsWith('type.googleapis.com/google.rpc.'))
      problems.push(`${call}: detail ${JSON.stringify(detail)}`);
    if (detail?.['@type'] === BAD_REQUEST && !(Array.isArray(detail.fieldViolations) && detail.fieldViolations.length > 0))
      problems.push(`${call}: BadRequest without violations`);
  }
  return problems;
}

/** What `send` found wrong in the error answers it got: checked once every sweep is over. */
const errorShapes: string[] = [];
let errorsChecked = 0;
afterAll(() => {
  // Every query and body refusal of the sweeps below: some 250 error answers.
  expect(errorsChecked).toBeGreaterThan(200);
  expect(errorShapes).toEqual([]);
});

/** Records the answers of one API version's calls, each named by its client method. */
class Recorder {
  readonly answers: Answer[] = [];
  constructor(readonly api: ApiVersion) {}

  /** Calls `method` (the client's name) and expects 200; returns the body, an Operation polled until done. */
  async call(method: string, verb: string, path: string, body?: unknown): Promise<any> {
    const url = `/${this.api.version}/${path}`;
    const res = await send(verb, url, body);
    this.answers.push({ method, api: this.api, status: res.status, body: res.body });
    if (res.status !== 200) throw new Error(`${method} ${verb} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    if (isGoogleApiUrl(url)) expect([method, protoJsonDefaults(res.body)]).toEqual([method, []]);
    return res.body;
  }

  /** A write: its Operation, polled through `operations.get` until done, must end without error. */
  async write(method: string, verb: string, path: string, body?: unknown): Promise<any> {
    let op = await this.call(method, verb, path, body);
    const deadline = Date.now() + 30_000;
    while (!op.done) {
      if (Date.now() > deadline) throw new Error(`${method}: operation ${op.name} not done`);
      await new Promise((r) => setTimeout(r, 20));
      op = await this.call('projects.locations.operations.get', 'GET', op.name);
    }
    if (op.error) throw new Error(`${method}: ${JSON.stringify(op.error)}`);
    return op.response;
  }
}

/**
 * Where an answer differs from the client's schema of its method; an Operation's `metadata` and
 * `response` (typed `any` by the client) against the schemas their `@type` names.
 */
function violationsOf(schemas: Schemas, responses: Map<string, string>, answer: Answer): string[] {
  const schema = responseSchemaOf(responses, answer.method);
  if (!schema) return [`${answer.method}: the typings give no response schema`];
  const at = (problems: string[], where: string): string[] => problems.map((p) => `${answer.method} ${where}${p}`);
  const problems = at(shapeViolations(schemas, schema, answer.body), '');
  if (schema !== 'Operation') return problems;
  for (const key of ['metadata', 'response'] as const) {
    const { '@type': type, ...value } = (answer.body[key] ?? {}) as Record<string, unknown>;
    if (type === undefined || type === EMPTY) continue;
    if (typeof type !== 'string' || !type.startsWith(answer.api.typePrefix)) problems.push(`${answer.method} ${key}: @type ${String(type)}`);
    else problems.push(...at(shapeViolations(schemas, type.slice(answer.api.typePrefix.length), value), `${key}.`));
  }
  return problems;
}

/** The client method ids (`projects.locations.sources.create`) of one API version the emulator serves. */
function methodsOf(api: ApiVersion, served: (id: string) => boolean): string[] {
  const prefix = `/${api.version}/`;
  return [
    ...new Set(
      collectMethods([api.client])
        .filter(([, path, id]) => path.startsWith(prefix) && id.startsWith(`${api.api}.`))
        .map(([, , id]) => id.slice(api.api.length + 1))
        .filter(served),
    ),
  ].sort();
}

function expectShapes(recorder: Recorder, methods: string[]): void {
  const schemas = loadSchemas(recorder.api.api, recorder.api.version, recorder.api.client);
  const responses = loadResponseSchemas(recorder.api.api, recorder.api.version, recorder.api.client);
  const called = new Set(recorder.answers.map((a) => a.method));
  expect(methods.filter((m) => !called.has(m))).toEqual([]);
  expect(recorder.answers.flatMap((a) => violationsOf(schemas, responses, a))).toEqual([]);
}

describe('Network Services v1 (googleapis 140): endpoint policies, their IAM, operations, locations', () => {
  test('every answer has the schema the client gives its method', async () => {
    const ns = new Recorder(NS);
    const P = 'projects/sweep-ns/locations/global';
    const EP = `${P}/endpointPolicies/ep`;
    const matcher = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } };
    const created = await ns.write('projects.locations.endpointPolicies.create', 'POST', `${P}/endpointPolicies?endpointPolicyId=ep`, {
      type: 'SIDECAR_PROXY',
      endpointMatcher: matcher,
      trafficPortSelector: { ports: ['8080'] },
      labels: { env: 'test' },
    });
    expect(created.name).toBe(EP);
    await ns.write('projects.locations.endpointPolicies.patch', 'PATCH', `${EP}?updateMask=description`, { description: 'web' });
    await ns.call('projects.locations.endpointPolicies.get', 'GET', EP);
    await ns.call('projects.locations.endpointPolicies.list', 'GET', `${P}/endpointPolicies?pageSize=10`);
    const policy = {
      version: 3,
      bindings: [
        { role: 'roles/networkservices.viewer', members: ['user:alice@example.com'] },
        {
          role: 'roles/networkservices.admin',
          members: ['group:ops@example.com'],
          condition: { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
        },
      ],
      auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:bob@example.com'] }] }],
    };
    await ns.call('projects.locations.endpointPolicies.setIamPolicy', 'POST', `${EP}:setIamPolicy`, { policy, updateMask: 'bindings,auditConfigs' });
    await ns.call('projects.locations.endpointPolicies.getIamPolicy', 'GET', `${EP}:getIamPolicy?options.requestedPolicyVersion=3`);
    await ns.call('projects.locations.endpointPolicies.testIamPermissions', 'POST', `${EP}:testIamPermissions`, {
      permissions: ['networkservices.endpointPolicies.get'],
    });
    const deleted = await ns.call('projects.locations.endpointPolicies.delete', 'DELETE', EP);
    const ops = await ns.call('projects.locations.operations.list', 'GET', `${P}/operations`);
    expect(ops.operations.length).toBeGreaterThanOrEqual(3);
    await ns.call('projects.locations.operations.get', 'GET', deleted.name);
    await ns.call('projects.locations.operations.cancel', 'POST', `${deleted.name}:cancel`, {});
    await ns.call('projects.locations.operations.delete', 'DELETE', deleted.name);
    await ns.call('projects.locations.get', 'GET', P);
    await ns.call('projects.locations.list', 'GET', 'projects/sweep-ns/locations');
    expectShapes(
      ns,
      methodsOf(NS, (id) => /^projects\.locations\.(endpointPolicies\.\w+|operations\.\w+|get|list)$/.test(id)),
    );
  });
});

/**
 * The whole of Migration Center on one version's paths: every method with valid input, in a
 * project of its own. v1 has no inline payloads: its import goes through a data file, as
 * v1alpha1's second job does; only v1alpha1 has report export jobs.
 */
async function migrationCenterWorld(mc: Recorder, project: string): Promise<void> {
  const alpha = mc.api.version === 'v1alpha1';
  const P = `projects/${project}/locations/us-central1`;
  const SOURCE = `${P}/sources/inventory`;
  const COLLECTOR = `${P}/sources/collector`;
  const JOB = `${P}/importJobs/job`;
  const MANUAL = alpha ? 'IMPORT_JOB_FORMAT_MANUAL_CSV' : 'IMPORT_JOB_FORMAT_STRATOZONE_CSV';
  const VM_INFO = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }), vmRow('m-3', 'old-1'));
  const asset = (id: string): string => `${P}/assets/vm-${id}`;

  await mc.call('projects.locations.list', 'GET', `projects/${project}/locations`);
  await mc.call('projects.locations.get', 'GET', P);
  await mc.write('projects.locations.sources.create', 'POST', `${P}/sources?sourceId=inventory`, { type: 'SOURCE_TYPE_UPLOAD', displayName: 'Inventory' });
  await mc.write('projects.locations.sources.create', 'POST', `${P}/sources?sourceId=collector`, { type: 'SOURCE_TYPE_GUEST_OS_SCAN' });
  await mc.write('projects.locations.sources.patch', 'PATCH', `${SOURCE}?updateMask=description`, { description: 'exports' });
  await mc.call('projects.locations.sources.get', 'GET', SOURCE);
  await mc.call('projects.locations.sources.list', 'GET', `${P}/sources`);

  // An import job fed through a data file, validated and run.
  await mc.write('projects.locations.importJobs.create', 'POST', `${P}/importJobs?importJobId=job`, { assetSource: SOURCE, labels: { wave: '1' } });
  await mc.write('projects.locations.importJobs.patch', 'PATCH', `${JOB}?updateMask=displayName`, { displayName: 'First' });
  const file = await mc.write('projects.locations.importJobs.importDataFiles.create', 'POST', `${JOB}/importDataFiles?importDataFileId=vm-info`, {
    format: MANUAL,
  });
  const put = await fetch(file.uploadFileInfo.signedUri, { method: 'PUT', headers: file.uploadFileInfo.headers, body: VM_INFO });
  expect(put.status).toBe(200);
  await mc.write('projects.locations.importJobs.importDataFiles.create', 'POST', `${JOB}/importDataFiles?importDataFileId=spare`, { format: MANUAL });
  await mc.write('projects.locations.importJobs.importDataFiles.delete', 'DELETE', `${JOB}/importDataFiles/spare`);
  await mc.call('projects.locations.importJobs.importDataFiles.get', 'GET', `${JOB}/importDataFiles/vm-info`);
  await mc.call('projects.locations.importJobs.importDataFiles.list', 'GET', `${JOB}/importDataFiles`);
  await mc.write('projects.locations.importJobs.validate', 'POST', `${JOB}:validate`, {});
  await mc.write('projects.locations.importJobs.run', 'POST', `${JOB}:run`, {});
  await mc.call('projects.locations.importJobs.get', 'GET', `${JOB}?view=IMPORT_JOB_VIEW_FULL`);
  await mc.call('projects.locations.importJobs.list', 'GET', `${P}/importJobs?view=IMPORT_JOB_VIEW_FULL`);
  if (alpha) {
    // An inline payload (v1alpha1 only), with a row in error: a validation report with row errors.
    const bad = csv(VM_HEADER, vmRow('m-9', 'bad-1', { AllocatedProcessorCoreCount: 'many' }));
    await mc.write('projects.locations.importJobs.create', 'POST', `${P}/importJobs?importJobId=inline`, {
      assetSource: SOURCE,
      inlinePayload: { format: MANUAL, payload: [{ name: 'vmInfo.csv', data: b64(bad) }] },
    });
    await mc.write('projects.locations.importJobs.validate', 'POST', `${P}/importJobs/inline:validate`, {});
    await mc.call('projects.locations.importJobs.get', 'GET', `${P}/importJobs/inline`);
  }

  // Assets.
  await mc.call('projects.locations.assets.list', 'GET', `${P}/assets?view=ASSET_VIEW_FULL`);
  await mc.call('projects.locations.assets.get', 'GET', `${asset('m-1')}?view=ASSET_VIEW_FULL`);
  // The machine's fields as each version names them (v1: machineDetails, its OS family under guestOs).
  const machine = alpha ? 'virtualMachineDetails' : 'machineDetails';
  await mc.call('projects.locations.assets.aggregateValues', 'POST', `${P}/assets:aggregateValues`, {
    aggregations: [
      { field: 'name', count: {} },
      { field: `${machine}.coreCount`, sum: {} },
      { field: `${machine}.memoryMb`, histogram: { lowerBounds: [1024, 8192] } },
      { field: alpha ? 'virtualMachineDetails.osFamily' : 'machineDetails.guestOs.family', frequency: {} },
      { field: `${machine}.powerState`, frequency: {} },
    ],
    filter: `${machine}.coreCount >= 0`,
  });
  await mc.call('projects.locations.assets.list', 'GET', `${P}/assets?filter=${encodeURIComponent(`${machine}.memoryMb > 0`)}&orderBy=${machine}.coreCount`);
  await mc.call('projects.locations.assets.patch', 'PATCH', `${asset('m-1')}?updateMask=labels`, { labels: { tier: 'web' } });
  await mc.call('projects.locations.assets.batchUpdate', 'POST', `${P}/assets:batchUpdate`, {
    requests: [{ asset: { name: asset('m-2'), labels: { tier: 'db' } }, updateMask: 'labels' }],
  });
  await mc.call('projects.locations.assets.reportAssetFrames', 'POST', `${P}/assets:reportAssetFrames?source=${COLLECTOR}`, {
    // v1's AssetFrame has machineDetails where v1alpha1's has virtualMachineDetails.
    framesData: alpha
      ? [
          { attributes: { MachineId: 'm-1' }, virtualMachineDetails: { vmUuid: '6f1c2a9e-0b7d-4e3a-8c5f-1d2e3f4a5b6c', vmName: 'web-1', coreCount: 2 } },
          { virtualMachineDetails: { vmName: 'no-id', coreCount: -1 } },
        ]
      : [
          {
            attributes: { MachineId: 'm-1' },
            machineDetails: {
              uuid: '6f1c2a9e-0b7d-4e3a-8c5f-1d2e3f4a5b6c',
              machineName: 'web-1',
              coreCount: 2,
              powerState: 'ACTIVE',
              guestOs: { family: 'OS_FAMILY_LINUX', osName: 'Ubuntu' },
              architecture: { firmwareType: 'EFI' },
              disks: { totalCapacityBytes: '1024', disks: { entries: [{ capacityBytes: '1024', freeBytes: '512' }] } },
              network: { defaultGateway: '10.0.0.1', adapters: { entries: [{ macAddress: 'aa', addresses: { entries: [{ ipAddress: '10.0.0.2' }] } }] } },
            },
          },
          { labels: { tier: 'web' }, machineDetails: { machineName: 'no-id', coreCount: 2 } },
        ],
  });
  const frames = await mc.call('projects.locations.sources.errorFrames.list', 'GET', `${COLLECTOR}/errorFrames?view=ERROR_FRAMES_VIEW_FULL`);
  await mc.call('projects.locations.sources.errorFrames.get', 'GET', `${frames.errorFrames[0].name}?view=ERROR_FRAMES_VIEW_FULL`);

  // Groups, preference sets, settings, report config and report.
  const GROUP = `${P}/groups/prod`;
  await mc.write('projects.locations.groups.create', 'POST', `${P}/groups?groupId=prod`, { displayName: 'Production', labels: { env: 'prod' } });
  await mc.write('projects.locations.groups.addAssets', 'POST', `${GROUP}:addAssets`, { assets: { assetIds: [asset('m-1'), asset('m-2'), asset('m-3')] } });
  await mc.write('projects.locations.groups.removeAssets', 'POST', `${GROUP}:removeAssets`, { assets: { assetIds: [asset('m-3')] } });
  await mc.write('projects.locations.groups.patch', 'PATCH', `${GROUP}?updateMask=description`, { description: 'in production' });
  await mc.call('projects.locations.groups.get', 'GET', GROUP);
  await mc.call('projects.locations.groups.list', 'GET', `${P}/groups`);
  const PREFS = `${P}/preferenceSets/e2`;
  await mc.write('projects.locations.preferenceSets.create', 'POST', `${P}/preferenceSets?preferenceSetId=e2`, {
    displayName: 'E2',
    virtualMachinePreferences: {
      targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
      sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE',
      commitmentPlan: 'COMMITMENT_PLAN_NONE',
      regionPreferences: { preferredRegions: ['europe-west1'] },
      computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N2' }] } },
    },
  });
  await mc.write('projects.locations.preferenceSets.patch', 'PATCH', `${PREFS}?updateMask=description`, { description: 'cheap' });
  await mc.call('projects.locations.preferenceSets.get', 'GET', PREFS);
  await mc.call('projects.locations.preferenceSets.list', 'GET', `${P}/preferenceSets`);
  await mc.call('projects.locations.getSettings', 'GET', `${P}/settings`);
  await mc.write('projects.locations.updateSettings', 'PATCH', `${P}/settings?updateMask=preferenceSet`, { preferenceSet: PREFS });
  const CONFIG = `${P}/reportConfigs/q`;
  const REPORT = `${CONFIG}/reports/q1`;
  await mc.write('projects.locations.reportConfigs.create', 'POST', `${P}/reportConfigs?reportConfigId=q`, {
    groupPreferencesetAssignments: [{ group: GROUP, preferenceSet: PREFS }],
  });
  await mc.call('projects.locations.reportConfigs.get', 'GET', CONFIG);
  await mc.call('projects.locations.reportConfigs.list', 'GET', `${P}/reportConfigs`);
  await mc.write('projects.locations.reportConfigs.reports.create', 'POST', `${CONFIG}/reports?reportId=q1`, { type: 'TOTAL_COST_OF_OWNERSHIP' });
  await mc.call('projects.locations.reportConfigs.reports.get', 'GET', `${REPORT}?view=REPORT_VIEW_FULL`);
  await mc.call('projects.locations.reportConfigs.reports.list', 'GET', `${CONFIG}/reports?view=REPORT_VIEW_FULL`);

  // Exports.
  const EXPORT = `${P}/assetsExportJobs/all`;
  await mc.write('projects.locations.assetsExportJobs.create', 'POST', `${P}/assetsExportJobs?assetsExportJobId=all`, {
    inventory: {},
    signedUriDestination: { fileFormat: 'CSV' },
  });
  await mc.write('projects.locations.assetsExportJobs.run', 'POST', `${EXPORT}:run`, {});
  await mc.call('projects.locations.assetsExportJobs.get', 'GET', EXPORT);
  await mc.call('projects.locations.assetsExportJobs.list', 'GET', `${P}/assetsExportJobs`);
  await mc.write('projects.locations.assetsExportJobs.delete', 'DELETE', EXPORT);
  if (alpha) {
    const JOBS = 'projects.locations.reportConfigs.reports.reportExportJobs';
    const SUMMARY = `${REPORT}/reportExportJobs/summary`;
    await mc.write(`${JOBS}.create`, 'POST', `${REPORT}/reportExportJobs?reportExportJobId=summary`, { signedUriDestination: { fileFormat: 'CSV' } });
    await mc.write(`${JOBS}.run`, 'POST', `${SUMMARY}:run`, {});
    await mc.call(`${JOBS}.get`, 'GET', SUMMARY);
    await mc.call(`${JOBS}.list`, 'GET', `${REPORT}/reportExportJobs`);
    await mc.write(`${JOBS}.delete`, 'DELETE', SUMMARY);
  }

  // A discovery client.
  const CLIENT = `${P}/discoveryClients/rack`;
  await mc.write('projects.locations.discoveryClients.create', 'POST', `${P}/discoveryClients?discoveryClientId=rack`, {
    source: COLLECTOR,
    serviceAccount: `collector@${project}.iam.gserviceaccount.com`,
    ttl: '86400s',
  });
  await mc.write('projects.locations.discoveryClients.sendHeartbeat', 'POST', `${CLIENT}:sendHeartbeat`, { version: '1.0.0' });
  await mc.write('projects.locations.discoveryClients.patch', 'PATCH', `${CLIENT}?updateMask=displayName`, { displayName: 'Rack' });
  await mc.call('projects.locations.discoveryClients.get', 'GET', CLIENT);
  await mc.call('projects.locations.discoveryClients.list', 'GET', `${P}/discoveryClients`);
  await mc.write('projects.locations.discoveryClients.delete', 'DELETE', CLIENT);

  // Relations: none is ever made (no client message carries one); the list is empty.
  await mc.call('projects.locations.relations.list', 'GET', `${P}/relations`);

  // Deletes and operations.
  await mc.call('projects.locations.assets.batchDelete', 'POST', `${P}/assets:batchDelete`, { names: [asset('m-3')] });
  await mc.call('projects.locations.assets.delete', 'DELETE', asset('m-2'));
  await mc.write('projects.locations.reportConfigs.reports.delete', 'DELETE', REPORT);
  await mc.write('projects.locations.reportConfigs.delete', 'DELETE', CONFIG);
  await mc.write('projects.locations.updateSettings', 'PATCH', `${P}/settings?updateMask=preferenceSet`, {});
  await mc.write('projects.locations.preferenceSets.delete', 'DELETE', PREFS);
  await mc.write('projects.locations.groups.delete', 'DELETE', GROUP);
  await mc.write('projects.locations.importJobs.delete', 'DELETE', `${JOB}?force=true`);
  const last = await mc.call('projects.locations.sources.delete', 'DELETE', COLLECTOR);
  const ops = await mc.call('projects.locations.operations.list', 'GET', `${P}/operations`);
  expect(ops.operations.length).toBeGreaterThan(10);
  await mc.call('projects.locations.operations.cancel', 'POST', `${last.name}:cancel`, {});
  await mc.call('projects.locations.operations.delete', 'DELETE', last.name);
}

describe.each([
  ['v1alpha1', ALPHA],
  ['v1', V1],
])('Migration Center %s (googleapis 188)', (label, api) => {
  test('every method of the client is called, and every answer has the schema the client gives its method', async () => {
    const mc = new Recorder(api);
    await migrationCenterWorld(mc, `sweep-${label}`);
    // The machine is in every asset answer, as the version names it (and checked below against its typings).
    const machineIn = (method: string) => mc.answers.filter((a) => a.method === method).map((a) => a.body.assets?.[0] ?? a.body);
    const machineKey = label === 'v1' ? 'machineDetails' : 'virtualMachineDetails';
    for (const method of ['projects.locations.assets.get', 'projects.locations.assets.list', 'projects.locations.assets.batchUpdate']) {
      const assets = machineIn(method);
      expect([method, assets.length > 0 && assets.every((asset) => asset[machineKey]?.coreCount > 0)]).toEqual([method, true]);
    }
    // relations.get answers 404 for every name (there are none): its shape is the error's.
    expectShapes(
      mc,
      methodsOf(api, (id) => id !== 'projects.locations.relations.get'),
    );
  });
});

describe("every method's query, as Google's front end reads it", () => {
  const VERSIONS: Array<[ApiVersion, (id: string) => boolean]> = [
    [NS, (id) => /^projects\.locations\.(endpointPolicies\.\w+|operations\.\w+|get|list)$/.test(id)],
    [ALPHA, () => true],
    [V1, () => true],
  ];
  /** Every method of the three versions with a concrete URL on a project no test writes to. */
  const methods = VERSIONS.flatMap(([api, served]) => {
    const ids = new Set(methodsOf(api, served));
    return collectMethods([api.client])
      .filter(([, path, id]) => path.startsWith(`/${api.version}/`) && ids.has(id.slice(api.api.length + 1)))
      .map(([verb, path, id, query]) => ({ api, verb, id: id.slice(api.api.length + 1), query, url: concreteGooglePath(path) }));
  });

  test("a query parameter no method declares is refused with Google's 400 and a BadRequest naming it, on every method", async () => {
    expect(methods.length).toBe(147);
    const wrong: string[] = [];
    for (const { verb, id, url } of methods) {
      const res = await send(verb, `${url}?pageSise=5`, verb === 'GET' || verb === 'DELETE' ? undefined : {});
      const text =
        'Invalid JSON payload received. Unknown name "pageSise": Cannot bind query parameter. Field \'pageSise\' could not be found in request message.';
      const expected = {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: text,
        details: [{ '@type': BAD_REQUEST, fieldViolations: [{ field: 'pageSise', description: text }] }],
      };
      if (!isDeepStrictEqual([res.status, res.body?.error], [400, expected])) wrong.push(`${id} ${verb} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  test('every query parameter the client declares for a method is one the emulator binds, on every method', async () => {
    const refused: string[] = [];
    let checked = 0;
    for (const { verb, id, query, url } of methods) {
      for (const parameter of query) {
        // A value of the right kind for most; a wrong one is a 400 of the method, not of the front end.
        const value = /^(pageSize|options\.requestedPolicyVersion)$/.test(parameter)
          ? '1'
          : /^(force|allowMissing|showHidden|validateOnly|returnPartialSuccess)$/.test(parameter)
            ? 'true'
            : 'x';
        const res = await send(verb, `${url}?${parameter}=${value}`, verb === 'GET' || verb === 'DELETE' ? undefined : {});
        checked++;
        if (String(res.body?.error?.message ?? '').includes('Cannot bind query parameter')) refused.push(`${id} ${parameter}: ${res.body.error.message}`);
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(refused).toEqual([]);
  });

  test('a query parameter the client marks Required, left out, is refused with a BadRequest naming it', async () => {
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const { api, verb, id, query, url } of methods) {
      const required = (loadRequiredParameters(api.api, api.version, api.client).get(typingsKey(id)) ?? []).filter((p) => query.includes(p));
      for (const missing of required) {
        // The other required parameters given; ids of resources that do not exist (the front end's rule comes first).
        const given = required.filter((p) => p !== missing).map((p) => `${p}=${p === 'updateMask' ? 'labels' : 'fresh-id'}`);
        const res = await send(verb, `${url}${given.length > 0 ? `?${given.join('&')}` : ''}`, verb === 'GET' || verb === 'DELETE' ? undefined : {});
        const error = res.body?.error;
        const named = (error?.details ?? []).flatMap((d: any) => (d['@type'] === BAD_REQUEST ? d.fieldViolations.map((v: any) => v.field) : []));
        checked.push(`${api.version} ${id} ${missing}`);
        if (res.status !== 400 || error?.status !== 'INVALID_ARGUMENT' || !named.includes(missing))
          wrong.push(`${id} without ${missing}: ${res.status} ${JSON.stringify(error)}`);
      }
    }
    // The ids of every create (endpointPolicyId, sourceId, ...), every update's mask, reportAssetFrames' source.
    expect(checked.length).toBe(35);
    expect(wrong).toEqual([]);
  });

  test("a body naming a field the request message has not is refused in the words of Google's JSON parser, on every method that takes a body", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const { api, verb, id, url } of methods) {
      if (verb === 'GET' || verb === 'DELETE') continue;
      // No parameter given and no resource made: the parser's refusal comes before the method's own
      // rules (an id or a field required, a resource not found), as Google's front end parses first.
      const res = await send(verb, url, { bogusField: 1 });
      checked++;
      const message = String(res.body?.error?.message ?? '');
      if (res.status !== 400 || !/^Invalid JSON payload received\. Unknown name "bogusField"(?: at '[a-z_]+')?: Cannot find field\.$/.test(message)) {
        wrong.push(`${api.version} ${id}: ${res.status} ${message}`);
      }
    }
    expect(checked).toBe(60);
    expect(wrong).toEqual([]);
  });

  /** `endpointMatcher` -> `endpoint_matcher`: the proto name Google's errors give. */
  const protoName = (json: string): string => json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** Google's parser's refusal of `name` in the object at `path` (proto names), the body's own field first if it has one. */
  const unknownAt = (name: string, path: string): RegExp =>
    new RegExp(
      `^Invalid JSON payload received\\. Unknown name "${name}"${path === '' ? "(?: at '[a-z_]+')?" : ` at '(?:[a-z_]+\\.)?${escape(path)}'`}: Cannot find field\\.$`,
    );
  /** A message-typed field of a client schema: its message's name and whether it is a list. */
  const messageOf = (type: FieldType | undefined): { name: string; list: boolean } | undefined =>
    type?.kind === 'schema'
      ? { name: type.name, list: false }
      : type?.kind === 'array' && type.of.kind === 'schema'
        ? { name: type.of.name, list: true }
        : undefined;
  /** Each method that takes a body, with its body's message in its client; on a location and resource that do not exist. */
  const bodyMethods = () =>
    methods
      .filter(({ verb }) => verb !== 'GET' && verb !== 'DELETE')
      .map((m) => ({
        ...m,
        // A location no service has: the parser's refusal comes before the location's check too.
        url: m.url.replace('/locations/global', '/locations/nowhere-1'),
        body: loadRequestBodies(m.api.api, m.api.version, m.api.client).get(typingsKey(m.id)),
      }));

  // (The messages of output-only fields, an asset's details or an import job's reports, are taken as
  // given: the emulator has no schema of them, and drops them. The known differences say so.)
  test('a name unknown in a message the body nests is refused with its proto path, before the location, the id or the resource is looked at', async () => {
    const wrong: string[] = [];
    const checked: string[] = [];
    for (const { api, verb, id, url, body } of bodyMethods()) {
      const schemas = loadSchemas(api.api, api.version, api.client);
      const outputOnly = loadOutputOnlyFields(api.api, api.version, api.client);
      for (const [field, type] of schemas.get(body ?? '') ?? []) {
        const nested = messageOf(type);
        if (!nested || (schemas.get(nested.name)?.size ?? 0) === 0 || outputOnly.has(`${body}.${field}`)) continue;
        const value = { bogusNested: 1 };
        const res = await send(verb, url, { [field]: nested.list ? [value] : value });
        checked.push(`${api.version} ${id} ${field}`);
        const message = String(res.body?.error?.message ?? '');
        const path = `${protoName(field)}${nested.list ? '[0]' : ''}`;
        if (res.status !== 400 || !unknownAt('bogusNested', path).test(message)) wrong.push(`${api.version} ${id} ${field}: ${res.status} ${message}`);
      }
    }
    expect(checked.length).toBe(43);
    expect(wrong).toEqual([]);
  });

  // Every message a body reaches, output-only ones and those our schemas take as any object (a
  // report's summary, an asset's AWS details, an import job's reports) included: Google's parser
  // refuses an unknown name in each (judged by the client's typings, never by our schemas).
  test('a name unknown in any message a body reaches, at any depth, is refused with its proto path; maps and Struct fields take any key', async () => {
    const wrong: string[] = [];
    const checked: string[] = [];
    for (const api of [NS, ALPHA, V1]) {
      const schemas = loadSchemas(api.api, api.version, api.client);
      // Each message of the version once, at the first place a body reaches it (breadth first).
      const seen = new Set<string>();
      for (const { verb, id, url, body } of bodyMethods().filter((m) => m.api === api && m.body !== undefined)) {
        const queue: Array<{ message: string; wrap: (inner: object) => object; path: string }> = [{ message: body!, wrap: (inner) => inner, path: '' }];
        while (queue.length > 0) {
          const { message, wrap, path } = queue.shift()!;
          if (seen.has(message)) continue;
          seen.add(message);
          if (path !== '') {
            const res = await inject(verb, url, wrap({ bogusDeep: 1 }));
            checked.push(`${api.version} ${message}`);
            const text = String(res.body?.error?.message ?? '');
            if (res.status !== 400 || !unknownAt('bogusDeep', path).test(text)) wrong.push(`${api.version} ${id} ${path}: ${res.status} ${text}`);
          }
          for (const [field, type] of schemas.get(message) ?? []) {
            const nested = messageOf(type);
            if (!nested || seen.has(nested.name)) continue;
            const at = `${path === '' ? '' : `${path}.`}${protoName(field)}${nested.list ? '[0]' : ''}`;
            queue.push({ message: nested.name, path: at, wrap: (inner) => wrap({ [field]: nested.list ? [inner] : inner }) });
          }
        }
      }
    }
    // Every message of the three versions a body reaches: 378 (each once).
    expect(checked.length).toBe(378);
    expect(wrong).toEqual([]);
    // Map keys are data, and a Struct (an asset's structuredAttributes) or an Any (a Status' details) takes any name.
    const open: Array<[string, string, object]> = [
      [
        '/v1alpha1/projects/p/locations/nowhere-1/assets/a?updateMask=labels',
        'PATCH',
        { labels: { anyKey: 'v' }, attributes: { anyName: 'v' }, structuredAttributes: { x: { y: 1 } } },
      ],
      [
        '/v1/projects/p/locations/nowhere-1/discoveryClients/c:sendHeartbeat',
        'POST',
        { errors: { code: 3, details: [{ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: 'x', anyName: 1 }] } },
      ],
    ];
    for (const [url, verb, sent] of open) {
      const res = await send(verb, url, sent);
      expect([url, String(res.body?.error?.message ?? '')]).not.toEqual([url, expect.stringContaining('Unknown name')]);
    }
  });

  test('on v1, a name only v1alpha1 has is refused as unknown, at any depth of the body', async () => {
    const alpha = loadSchemas('migrationcenter', 'v1alpha1', 'googleapis-latest');
    const v1 = loadSchemas('migrationcenter', 'v1', 'googleapis-latest');
    const wrong: string[] = [];
    const checked: string[] = [];
    /** Bodies holding one v1alpha1-only name in the message `name` (or deeper), with the path of its object. */
    const cases = (name: string, depth: number): Array<{ body: Record<string, unknown>; field: string; path: string }> => {
      const a = alpha.get(name);
      const b = v1.get(name);
      if (!a || !b || depth > 3) return [];
      const found = [...a.keys()].filter((f) => !b.has(f)).map((f) => ({ body: { [f]: {} }, field: f, path: '' }));
      for (const [f, type] of b) {
        const nested = messageOf(type);
        if (!nested || !a.has(f)) continue;
        for (const inner of cases(nested.name, depth + 1)) {
          const path = `${protoName(f)}${nested.list ? '[0]' : ''}${inner.path === '' ? '' : `.${inner.path}`}`;
          found.push({ body: { [f]: nested.list ? [inner.body] : inner.body }, field: inner.field, path });
        }
      }
      return found;
    };
    for (const { api, verb, id, url, body } of bodyMethods()) {
      if (api !== V1 || body === undefined) continue;
      for (const { body: sent, field, path } of cases(body, 0)) {
        const res = await send(verb, url, sent);
        checked.push(`${id} ${path} ${field}`);
        const message = String(res.body?.error?.message ?? '');
        if (res.status !== 400 || !unknownAt(field, path).test(message)) wrong.push(`${id} ${JSON.stringify(sent)}: ${res.status} ${message}`);
      }
    }
    expect(checked.length).toBe(171);
    expect(wrong).toEqual([]);
  });
});
