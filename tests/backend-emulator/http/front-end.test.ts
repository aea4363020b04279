/**
 * Google's front-end rules, held by one mechanism for every Google API route (issue 24):
 * - every route the emulator registers on a Google path is a method of Google's table, and an
 *   unknown query parameter on it is 400 INVALID_ARGUMENT in Google's words, before any handler
 *   runs (walked over the routes themselves, so a route added later is covered without a test of
 *   its own); system parameters and proto (snake_case) spellings pass;
 * - every method that takes a body declares the message it reads it into (http/request-bodies.ts);
 * - a key given twice in a JSON body is refused, at any depth, in every spelling;
 * - operations.list (both services) filters and orders, and refuses a filter it cannot read;
 * - sources.patch takes `updateMask=*`.
 */
import type { FastifyInstance } from 'fastify';
import { firstDuplicateKey } from '../../../backend-emulator/http/json-duplicates';
import { requestBodyOf } from '../../../backend-emulator/http/request-bodies';
import { inMemoryApp, sharedApp } from '../../support/app';
import { concreteGooglePath, googleRoutes, methodsOfRoute } from '../../support/google-paths';
import { call, googleError, ok } from '../../support/inject';
import { MATCHER } from '../../support/networkservices';

const NS_PARENT = 'projects/fe/locations/global';
const MC_PARENT = 'projects/fe/locations/us-central1';

describe('unknown query parameters, on every Google route', () => {
  let app: FastifyInstance;
  let routes: Array<[string, string]>;
  beforeAll(async () => {
    app = inMemoryApp();
    routes = googleRoutes(app);
    await app.ready();
  });
  afterAll(() => app.close());

  test('the emulator registers Google routes of both services, and each route serves methods of Google', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.some(([, url]) => url.startsWith('/v1/'))).toBe(true);
    expect(routes.some(([, url]) => url.startsWith('/v1alpha1/'))).toBe(true);
    for (const [method, pattern] of routes) expect([method, pattern, methodsOfRoute(method, pattern).length > 0]).toEqual([method, pattern, true]);
  });

  test('every method of every route that takes a body declares the message it reads it into (the front end checks its names)', () => {
    const undeclared: string[] = [];
    let declared = 0;
    for (const [method, pattern] of routes) {
      if (method === 'GET' || method === 'DELETE') continue;
      for (const google of methodsOfRoute(method, pattern)) {
        if (requestBodyOf({ ...google, query: new Set() })) declared++;
        else undeclared.push(`${google.path.split('/')[1]} ${google.id}`);
      }
    }
    expect(undeclared).toEqual([]);
    // The 60 methods of the three versions that take a body (as the wire sweep counts them).
    expect(declared).toBe(60);
  });

  test('?pagesize=1 (a typo) on every method of every route is 400 INVALID_ARGUMENT: Cannot bind query parameter', async () => {
    let checked = 0;
    for (const [method, pattern] of routes) {
      for (const google of methodsOfRoute(method, pattern)) {
        const url = `${concreteGooglePath(google.path)}?pagesize=1`;
        const res = await call(app, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
        if (
          res.status !== 400 ||
          !String(res.body?.error?.message).includes("Cannot bind query parameter. Field 'pagesize' could not be found in request message.")
        ) {
          throw new Error(`${google.id}: ${method} ${url} answered ${res.status}: ${res.raw.slice(0, 300)}`);
        }
        expect(res.body.error.status).toBe('INVALID_ARGUMENT');
        expect(res.body.error.details[0].fieldViolations[0].field).toBe('pagesize');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(routes.length);
  });

  test('the Google message is word for word; ?foo=1 and ?filter= on a method without a filter too', async () => {
    const err = googleError(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources?pagesize=1`), 400, 'INVALID_ARGUMENT');
    expect(err.message).toBe(
      'Invalid JSON payload received. Unknown name "pagesize": Cannot bind query parameter. Field \'pagesize\' could not be found in request message.',
    );
    googleError(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies/ep?foo=1`), 400, 'INVALID_ARGUMENT');
    // sources.get has no filter; sources.list has.
    googleError(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources/s1?filter=x`), 400, 'INVALID_ARGUMENT');
    // endpointPolicies.list has no filter in Google's request message either.
    googleError(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies?filter=name%3Dx`), 400, 'INVALID_ARGUMENT');
  });

  test('an encoded slash stays inside its segment: sources/s1%2FerrorFrames is sources.get, which has no pageSize', async () => {
    // Read as errorFrames.list of source s1 (which takes pageSize) the query would pass; the router
    // matched one source, so the front end reads the method the authorization decision reads.
    googleError(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources/s1%2FerrorFrames?pageSize=1`), 400, 'INVALID_ARGUMENT');
    googleError(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources/s1%2FerrorFrames`), 404, 'NOT_FOUND');
  });

  test("system parameters, the request's own parameters and their proto spellings pass", async () => {
    ok(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources?alt=json&prettyPrint=false&fields=sources&quotaUser=u&%24.xgafv=2&page_size=5&pageToken=`));
    ok(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies?pageSize=2&returnPartialSuccess=true`));
    ok(await call(app, 'GET', `/v1/${NS_PARENT}/operations?filter=done%3Dtrue&page_size=1`));
  });
});

describe('duplicate JSON keys', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => inMemoryApp());
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test('{"type":"BOGUS","type":"SIDECAR_PROXY"} creates nothing: 400 naming the field', async () => {
    const body = `{"type":"BOGUS","type":"SIDECAR_PROXY","endpointMatcher":${JSON.stringify(MATCHER)}}`;
    const res = await call(app, 'POST', `/v1/${NS_PARENT}/endpointPolicies?endpointPolicyId=ep`, body, { 'content-type': 'application/json' });
    const err = googleError(res, 400, 'INVALID_ARGUMENT');
    expect(err.message).toBe('Invalid JSON payload received. Duplicate field "type".');
    expect(err.details[0].fieldViolations).toEqual([{ field: 'type', description: 'is given twice' }]);
    googleError(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies/ep`), 404, 'NOT_FOUND');
  });

  test('at any depth, escaped, on every service: sources, import jobs, IAM policies', async () => {
    const cases: Array<[string, string, string]> = [
      [`/v1alpha1/${MC_PARENT}/sources?sourceId=s1`, '{"displayName":"a","labels":{"k":"1","k":"2"}}', 'labels.k'],
      [`/v1alpha1/${MC_PARENT}/sources?sourceId=s2`, '{"display\\u004eame":"a","displayName":"b"}', 'displayName'],
      [`/v1alpha1/${MC_PARENT}/importJobs?importJobId=j1`, '{"assetSource":"x","labels":{},"labels":{}}', 'labels'],
      [
        `/v1/${NS_PARENT}/endpointPolicies/ep:setIamPolicy`,
        '{"policy":{"bindings":[{"role":"roles/viewer","members":["user:a@example.com"],"role":"roles/owner"}]}}',
        'policy.bindings[0].role',
      ],
    ];
    for (const [url, body, field] of cases) {
      const err = googleError(await call(app, 'POST', url, body, { 'content-type': 'application/json' }), 400, 'INVALID_ARGUMENT');
      expect([url, err.details[0].fieldViolations[0].field]).toEqual([url, field]);
    }
    expect((await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources`)).raw).toBe('{}');
  });

  test('the scanner is not fooled by strings: braces, quotes and escapes inside values, equal keys in sibling objects', () => {
    expect(firstDuplicateKey('{"a":"{\\"a\\":1,\\"a\\":2}","b":[{"a":1},{"a":2}],"c":{"a":{"a":1}}}')).toBeUndefined();
    expect(firstDuplicateKey('{"a":"x\\\\","a":1}')).toEqual({ key: 'a', path: '' });
    expect(firstDuplicateKey('[{"x":[{"y":1,"y":2}]}]')).toEqual({ key: 'y', path: '[0].x[0]' });
    expect(firstDuplicateKey('{"big":"' + 'A'.repeat(100_000) + '","big":""}')).toEqual({ key: 'big', path: '' });
  });

  test('objects of many keys, escaped keys among them, and siblings after deeper objects are told apart', () => {
    const many = (extra: string) => `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')}${extra}}`;
    expect(firstDuplicateKey(many(''))).toBeUndefined();
    expect(firstDuplicateKey(many(',"k7":0'))).toEqual({ key: 'k7', path: '' });
    expect(firstDuplicateKey(many(',"\\u006b39":0'))).toEqual({ key: 'k39', path: '' });
    expect(firstDuplicateKey(`{"a":${many('')},"b":{"x":1,"\\u0078":2}}`)).toEqual({ key: 'x', path: 'b' });
    expect(firstDuplicateKey('{"a":{"b":{"c":1}},"d":[{"c":1},{"e":{"f":1,"f":2}}]}')).toEqual({ key: 'f', path: 'd[1].e' });
    expect(firstDuplicateKey('{"a":{"b":{"c":1}},"b":{"c":1},"c":1}')).toBeUndefined();
  });
});

describe('operations.list: filter on both services', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => inMemoryApp());
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test('done = false lists no finished operation; a filter it cannot read is INVALID_ARGUMENT naming filter', async () => {
    ok(await call(app, 'POST', `/v1/${NS_PARENT}/endpointPolicies?endpointPolicyId=ep1`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }));
    ok(await call(app, 'POST', `/v1/${NS_PARENT}/endpointPolicies?endpointPolicyId=ep2`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }));
    ok(await call(app, 'POST', `/v1alpha1/${MC_PARENT}/sources?sourceId=s1`, {}));
    for (const [base, count] of [
      [`/v1/${NS_PARENT}/operations`, 2],
      [`/v1alpha1/${MC_PARENT}/operations`, 1],
    ] as const) {
      expect(ok(await call(app, 'GET', base)).operations).toHaveLength(count);
      expect(ok(await call(app, 'GET', `${base}?filter=${encodeURIComponent('done = false')}`))).toEqual({});
      expect(ok(await call(app, 'GET', `${base}?filter=${encodeURIComponent('done = true AND metadata.verb = "create"')}`)).operations).toHaveLength(count);
      for (const bad of ['(((', 'nosuchfield = 1']) {
        const err = googleError(await call(app, 'GET', `${base}?filter=${encodeURIComponent(bad)}`), 400, 'INVALID_ARGUMENT');
        expect(err.details[0].fieldViolations[0].field).toBe('filter');
      }
      // ListOperationsRequest has no order_by: Google refuses it as a parameter it cannot bind.
      const order = googleError(await call(app, 'GET', `${base}?orderBy=name`), 400, 'INVALID_ARGUMENT');
      expect(order.message).toContain("Field 'orderBy' could not be found in request message.");
    }
    const ep2 = ok(await call(app, 'GET', `/v1/${NS_PARENT}/operations?filter=${encodeURIComponent(`metadata.target = "${NS_PARENT}/endpointPolicies/ep2"`)}`));
    expect(ep2.operations.map((op: any) => op.metadata.target)).toEqual([`${NS_PARENT}/endpointPolicies/ep2`]);
  });
});

describe('updateMask=*', () => {
  test('endpointPolicies.patch takes it: every mutable field from the body', async () => {
    const app = inMemoryApp();
    try {
      ok(
        await call(app, 'POST', `/v1/${NS_PARENT}/endpointPolicies?endpointPolicyId=ep`, {
          type: 'SIDECAR_PROXY',
          endpointMatcher: MATCHER,
          description: 'old',
        }),
      );
      ok(await call(app, 'PATCH', `/v1/${NS_PARENT}/endpointPolicies/ep?updateMask=*`, { type: 'GRPC_SERVER', endpointMatcher: MATCHER }));
      const policy = ok(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies/ep`));
      expect(policy.type).toBe('GRPC_SERVER');
      expect(policy.description).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test('sources.patch takes it: every updatable field from the body, the absent ones cleared', async () => {
    const app = inMemoryApp();
    try {
      ok(await call(app, 'POST', `/v1alpha1/${MC_PARENT}/sources?sourceId=s1`, { displayName: 'old', description: 'to be cleared', priority: 3 }));
      const op = ok(await call(app, 'PATCH', `/v1alpha1/${MC_PARENT}/sources/s1?updateMask=*`, { displayName: 'new', type: 'SOURCE_TYPE_UPLOAD' }));
      expect(op.done).toBe(true);
      const source = ok(await call(app, 'GET', `/v1alpha1/${MC_PARENT}/sources/s1`));
      expect(source).toMatchObject({ displayName: 'new', type: 'SOURCE_TYPE_UPLOAD' });
      expect(source.description).toBeUndefined();
      expect(source.priority).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
