/**
 * `--auth` checks the IAM permission of every Google method, through one mechanism (the auth hook
 * on the route the router matched, auth/request-permission.ts), from one table
 * (auth/method-permissions.ts over the generated method table):
 * - every method of the table has a permission, and every Migration Center permission it names
 *   is one Google documents (the list below is copied from Google's "Migration Center roles and
 *   permissions" page), or one of the emulator's report export jobs choices;
 * - walked over every registered route and every method it serves: a project Viewer reads and
 *   is refused every write, an admin token passes everything, a token with no role is refused
 *   everything but testIamPermissions (403 PERMISSION_DENIED in Google's words);
 * - literal cases: Migration Center's predefined roles, the resource the message names, a
 *   percent-encoded slash, the shared `/v1` operations path, a route reached by no method.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthConfig } from '../../../backend-emulator/config';
import { methodPermission } from '../../../backend-emulator/auth/method-permissions';
import { roleGrants } from '../../../backend-emulator/auth/permissions';
import { GOOGLE_METHODS } from '../../../backend-emulator/http/google-methods-table';
import { inMemoryApp } from '../../support/app';
import { concreteGooglePath, googleRoutes, methodsOfRoute } from '../../support/google-paths';
import { call, googleError, ok, type Res } from '../../support/inject';

/** Google's documented Migration Center permissions (iam/docs/roles-permissions/migrationcenter, 2026-04-10). */
const GOOGLE_MC_PERMISSIONS = `
assets.delete assets.get assets.list assets.reportFrames assets.update
assetsExportJobs.create assetsExportJobs.delete assetsExportJobs.get assetsExportJobs.list assetsExportJobs.run
discoveryClients.create discoveryClients.delete discoveryClients.get discoveryClients.list discoveryClients.sendHeartbeat discoveryClients.update
errorFrames.get errorFrames.list
groups.create groups.delete groups.get groups.list groups.update
importDataFiles.create importDataFiles.delete importDataFiles.get importDataFiles.list
importJobs.create importJobs.delete importJobs.get importJobs.list importJobs.update
locations.get locations.list
operations.cancel operations.delete operations.get operations.list
preferenceSets.create preferenceSets.delete preferenceSets.get preferenceSets.list preferenceSets.update
relations.get relations.list
reportConfigs.create reportConfigs.delete reportConfigs.get reportConfigs.list
reports.create reports.delete reports.get reports.list
settings.get settings.update
sources.create sources.delete sources.get sources.list sources.update`
  .trim()
  .split(/\s+/)
  .map((p) => `migrationcenter.${p}`);
/** Google documents none for report export jobs: the emulator's choice (docs/emulator.md). */
const CHOSEN_MC_PERMISSIONS = ['create', 'delete', 'get', 'list', 'run'].map((v) => `migrationcenter.reportExportJobs.${v}`);

describe('the permission table', () => {
  test('every method of the method table has a permission (or, for testIamPermissions, needs none)', () => {
    const missing = GOOGLE_METHODS.filter(([, , id]) => methodPermission(id) === undefined).map(([, , id]) => id);
    expect(missing).toEqual([]);
    const none = [...new Set(GOOGLE_METHODS.filter(([, , id]) => methodPermission(id) === null).map(([, , id]) => id.split('.').pop()))];
    expect(none).toEqual(['testIamPermissions']);
    for (const [, , id] of GOOGLE_METHODS) {
      const permission = methodPermission(id);
      if (permission !== null) expect([id, permission]).toEqual([id, expect.stringMatching(new RegExp(`^${id.split('.')[0]}\\.[a-zA-Z]+\\.[a-zA-Z]+$`))]);
    }
  });

  test("every Migration Center permission is one Google documents, or a report export job's (a choice)", () => {
    const named = new Set(GOOGLE_METHODS.filter(([, , id]) => id.startsWith('migrationcenter.')).map(([, , id]) => methodPermission(id)));
    const unknown = [...named].filter((p) => !GOOGLE_MC_PERMISSIONS.includes(p as string) && !CHOSEN_MC_PERMISSIONS.includes(p as string));
    expect(unknown).toEqual([]);
    // Every documented permission is some method's: none of Google's is left unused.
    expect(GOOGLE_MC_PERMISSIONS.filter((p) => !named.has(p))).toEqual([]);
  });

  test.each([
    ['networkservices.projects.locations.endpointPolicies.get', 'networkservices.endpointPolicies.get'],
    ['networkservices.projects.locations.endpointPolicies.list', 'networkservices.endpointPolicies.list'],
    ['networkservices.projects.locations.endpointPolicies.create', 'networkservices.endpointPolicies.create'],
    ['networkservices.projects.locations.endpointPolicies.patch', 'networkservices.endpointPolicies.update'],
    ['networkservices.projects.locations.endpointPolicies.delete', 'networkservices.endpointPolicies.delete'],
    ['networkservices.projects.locations.endpointPolicies.setIamPolicy', 'networkservices.endpointPolicies.setIamPolicy'],
    ['networkservices.projects.locations.endpointPolicies.testIamPermissions', null],
    ['networkservices.projects.locations.operations.cancel', 'networkservices.operations.cancel'],
    ['networkservices.projects.locations.wasmPlugins.versions.get', 'networkservices.wasmPluginVersions.get'],
    ['migrationcenter.projects.locations.importJobs.create', 'migrationcenter.importJobs.create'],
    ['migrationcenter.projects.locations.importJobs.run', 'migrationcenter.importJobs.update'],
    ['migrationcenter.projects.locations.importJobs.importDataFiles.create', 'migrationcenter.importDataFiles.create'],
    ['migrationcenter.projects.locations.assets.list', 'migrationcenter.assets.list'],
    ['migrationcenter.projects.locations.assets.aggregateValues', 'migrationcenter.assets.list'],
    ['migrationcenter.projects.locations.assets.batchDelete', 'migrationcenter.assets.delete'],
    ['migrationcenter.projects.locations.assets.reportAssetFrames', 'migrationcenter.assets.reportFrames'],
    ['migrationcenter.projects.locations.groups.addAssets', 'migrationcenter.groups.update'],
    ['migrationcenter.projects.locations.reportConfigs.reports.create', 'migrationcenter.reports.create'],
    ['migrationcenter.projects.locations.sources.errorFrames.list', 'migrationcenter.errorFrames.list'],
    ['migrationcenter.projects.locations.operations.get', 'migrationcenter.operations.get'],
    ['migrationcenter.projects.locations.get', 'migrationcenter.locations.get'],
    ['migrationcenter.projects.locations.updateSettings', 'migrationcenter.settings.update'],
  ])('%s needs %s', (id, permission) => {
    expect(methodPermission(id)).toBe(permission);
  });
});

test.each([
  // As Google's Migration Center roles page lists them.
  ['roles/migrationcenter.admin', 'migrationcenter.settings.update', true],
  ['roles/migrationcenter.admin', 'networkservices.endpointPolicies.get', false],
  ['roles/migrationcenter.viewer', 'migrationcenter.settings.get', true],
  ['roles/migrationcenter.viewer', 'migrationcenter.assets.reportFrames', false],
  ['roles/migrationcenter.viewer', 'migrationcenter.groups.update', false],
  ['roles/migrationcenter.discoveryClient', 'migrationcenter.discoveryClients.sendHeartbeat', true],
  ['roles/migrationcenter.discoveryClient', 'migrationcenter.discoveryClients.create', false],
  ['roles/migrationcenter.discoveryClientRegistrator', 'migrationcenter.sources.create', true],
  ['roles/owner', 'migrationcenter.reports.delete', true],
  ['roles/editor', 'migrationcenter.assets.reportFrames', true],
  ['roles/editor', 'networkservices.endpointPolicies.setIamPolicy', false],
  ['roles/viewer', 'migrationcenter.relations.list', true],
  ['roles/viewer', 'migrationcenter.importJobs.update', false],
  ['roles/viewer', 'networkservices.operations.get', true],
  ['roles/iam.securityReviewer', 'migrationcenter.assets.list', true],
  ['roles/iam.securityReviewer', 'migrationcenter.assets.get', false],
  ['roles/networkservices.viewer', 'networkservices.locations.list', true],
  ['roles/networkservices.viewer', 'networkservices.operations.cancel', false],
])('%s grants %s: %s', (role, permission, granted) => {
  expect(roleGrants(role, permission)).toBe(granted);
});

const TOKENS = {
  'tok-viewer': 'user:viewer@example.com',
  'tok-nobody': 'user:nobody@example.com',
  'tok-mcviewer': 'user:mcviewer@example.com',
  'tok-mcadmin': 'user:mcadmin@example.com',
  'tok-frames': 'user:frames@example.com',
};
const AUTH: AuthConfig = { tokens: TOKENS, adminTokens: ['tok-admin'], roles: { 'projects/mc-auth/roles/frames_only': ['migrationcenter.errorFrames.list'] } };
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const DENIED = /^Permission '[a-z]+\.[a-zA-Z]+\.[a-zA-Z]+' denied on resource 'projects\/[^']+' \(or it may not exist\)\.$/;

/** Reads by the HTTP method, and the two POSTs that read (independent of the permission table). */
const isRead = (method: string, id: string): boolean => method === 'GET' || /\.(aggregateValues|testIamPermissions)$/.test(id);

describe('every method of every route, with --auth', () => {
  let app: FastifyInstance;
  let routes: Array<[string, string]>;
  beforeAll(async () => {
    app = inMemoryApp({ auth: AUTH });
    routes = googleRoutes(app);
    await app.ready();
    // concreteGooglePath names the project `x-projects`.
    const grant = { iamPolicies: { 'projects/x-projects': { bindings: [{ role: 'roles/viewer', members: ['user:viewer@example.com'] }] } } };
    ok(await call(app, 'POST', '/emulator/v1/seed', grant, as('tok-admin')));
  });
  afterAll(() => app.close());

  const send = (method: string, url: string, token: string): Promise<Res> =>
    call(app, method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, as(token));

  test('a project Viewer reads and is refused every write; no role is refused all but testIamPermissions; an admin passes', async () => {
    const wrong: string[] = [];
    let walked = 0;
    for (const [method, pattern] of routes) {
      for (const { id, path } of methodsOfRoute(method, pattern)) {
        const url = concreteGooglePath(path);
        const denied = (res: Res): boolean => res.status === 403 && res.body?.error?.status === 'PERMISSION_DENIED' && DENIED.test(res.body.error.message);
        const viewer = await send(method, url, 'tok-viewer');
        if (isRead(method, id) === denied(viewer)) wrong.push(`viewer ${id}: ${viewer.status} ${viewer.raw.slice(0, 200)}`);
        const nobody = await send(method, url, 'tok-nobody');
        if (id.endsWith('.testIamPermissions') === denied(nobody)) wrong.push(`no role ${id}: ${nobody.status} ${nobody.raw.slice(0, 200)}`);
        const admin = await send(method, url, 'tok-admin');
        if (admin.status === 401 || admin.status === 403) wrong.push(`admin ${id}: ${admin.status} ${admin.raw.slice(0, 200)}`);
        walked++;
      }
    }
    expect(wrong).toEqual([]);
    // Both services, both Migration Center versions: well over a hundred methods.
    expect(walked).toBeGreaterThan(140);
  });

  test('a method Google has and the emulator does not is 501 to any token: there is no route to decide on', async () => {
    const res = await send('GET', '/v1/projects/x-projects/locations/global/meshes', 'tok-nobody');
    googleError(res, 501, 'UNIMPLEMENTED');
    googleError(await call(app, 'GET', '/v1/projects/x-projects/locations/global/meshes'), 401, 'UNAUTHENTICATED');
  });
});

describe('literal cases', () => {
  const P = 'projects/mc-auth/locations/us-central1';
  let app: FastifyInstance;
  beforeAll(async () => {
    app = inMemoryApp({ auth: AUTH });
    const bindings = [
      { role: 'roles/migrationcenter.viewer', members: ['user:mcviewer@example.com'] },
      { role: 'roles/migrationcenter.admin', members: ['user:mcadmin@example.com'] },
      { role: 'projects/mc-auth/roles/frames_only', members: ['user:frames@example.com'] },
    ];
    ok(await call(app, 'POST', '/emulator/v1/seed', { iamPolicies: { 'projects/mc-auth': { bindings } } }, as('tok-admin')));
    ok(await call(app, 'POST', `/v1alpha1/${P}/groups?groupId=g1`, {}, as('tok-mcadmin')));
  });
  afterAll(() => app.close());

  test("Migration Center Viewer lists and reads, and is refused a create with Google's message on the parent", async () => {
    ok(await call(app, 'GET', `/v1alpha1/${P}/assets`, undefined, as('tok-mcviewer')));
    ok(await call(app, 'GET', `/v1alpha1/${P}/groups/g1`, undefined, as('tok-mcviewer')));
    ok(await call(app, 'GET', `/v1/${P}/groups`, undefined, as('tok-mcviewer')));
    const error = googleError(await call(app, 'POST', `/v1alpha1/${P}/groups?groupId=g2`, {}, as('tok-mcviewer')), 403, 'PERMISSION_DENIED');
    expect(error.message).toBe(`Permission 'migrationcenter.groups.create' denied on resource '${P}' (or it may not exist).`);
    expect(error.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'IAM_PERMISSION_DENIED',
        domain: 'iam.googleapis.com',
        metadata: { permission: 'migrationcenter.groups.create', resource: P },
      },
    ]);
  });

  test('addAssets needs migrationcenter.groups.update on the group; the admin role holds it', async () => {
    const body = { assets: { names: [] } };
    const error = googleError(await call(app, 'POST', `/v1alpha1/${P}/groups/g1:addAssets`, body, as('tok-mcviewer')), 403, 'PERMISSION_DENIED');
    expect(error.message).toBe(`Permission 'migrationcenter.groups.update' denied on resource '${P}/groups/g1' (or it may not exist).`);
    const admin = await call(app, 'POST', `/v1alpha1/${P}/groups/g1:addAssets`, body, as('tok-mcadmin'));
    expect(admin.status).not.toBe(403);
  });

  test('Migration Center roles grant nothing of Network Services', async () => {
    const error = googleError(
      await call(app, 'GET', '/v1/projects/mc-auth/locations/global/endpointPolicies', undefined, as('tok-mcadmin')),
      403,
      'PERMISSION_DENIED',
    );
    expect(error.message).toBe(
      "Permission 'networkservices.endpointPolicies.list' denied on resource 'projects/mc-auth/locations/global' (or it may not exist).",
    );
  });

  test("the shared /v1 operations path checks the answering service's permission", async () => {
    ok(await call(app, 'GET', `/v1/${P}/operations`, undefined, as('tok-mcviewer')));
    const error = googleError(
      await call(app, 'GET', '/v1/projects/mc-auth/locations/global/operations', undefined, as('tok-mcviewer')),
      403,
      'PERMISSION_DENIED',
    );
    expect(error.message).toBe("Permission 'networkservices.operations.list' denied on resource 'projects/mc-auth/locations/global' (or it may not exist).");
  });

  test('an encoded slash stays in its segment: the route of one source is sources.get, never errorFrames.list', async () => {
    const error = googleError(await call(app, 'GET', `/v1alpha1/${P}/sources/s1%2FerrorFrames`, undefined, as('tok-frames')), 403, 'PERMISSION_DENIED');
    expect(error.message).toBe(`Permission 'migrationcenter.sources.get' denied on resource '${P}/sources/s1%2FerrorFrames' (or it may not exist).`);
    // The role does grant what it names.
    expect((await call(app, 'GET', `/v1alpha1/${P}/sources/s1/errorFrames`, undefined, as('tok-frames'))).status).not.toBe(403);
  });

  test('a Google route reached by no method of Google is 404 before its handler, for any token', async () => {
    googleError(await call(app, 'POST', `/v1alpha1/${P}/groups/g1`, {}, as('tok-mcadmin')), 404, 'NOT_FOUND');
    googleError(await call(app, 'POST', `/v1alpha1/${P}/groups/g1:unknownVerb`, {}, as('tok-admin')), 404, 'NOT_FOUND');
  });

  test('no token is still 401 UNAUTHENTICATED, before any permission', async () => {
    googleError(await call(app, 'GET', `/v1alpha1/${P}/assets`), 401, 'UNAUTHENTICATED');
    googleError(await call(app, 'GET', `/v1alpha1/${P}/assets`, undefined, as('tok-unknown')), 401, 'UNAUTHENTICATED');
  });
});

describe('without --auth', () => {
  test('every request is allowed, as before', async () => {
    const app = inMemoryApp();
    try {
      ok(await call(app, 'POST', '/v1alpha1/projects/mc-auth/locations/us-central1/groups?groupId=g1', {}));
      ok(await call(app, 'GET', '/v1/projects/mc-auth/locations/global/endpointPolicies'));
    } finally {
      await app.close();
    }
  });
});
