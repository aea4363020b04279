import type { FastifyInstance } from 'fastify';
import {
  EP_TYPE,
  MATCHER,
  PARENT,
  call,
  createPolicy,
  endpointPolicyBody,
  expectGoogleError,
  fieldViolations,
  newApp,
  policyName,
} from '../../support/networkservices';
import { sharedApp } from '../../support/app';

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});

describe('create', () => {
  test('returns a done Operation whose response is the EndpointPolicy', async () => {
    const res = await createPolicy(
      app,
      'ep1',
      endpointPolicyBody({ description: 'd', labels: { env: 'prod' }, trafficPortSelector: { ports: ['8080', '9000-9100'] } }),
    );
    expect(res.status).toBe(200);
    const op = res.body;
    expect(op.name).toMatch(new RegExp(`^${PARENT}/operations/operation-\\d+-[0-9a-f]+$`));
    expect(op.done).toBe(true);
    expect(op.error).toBeUndefined();
    expect(op.metadata).toEqual({
      '@type': 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata',
      createTime: expect.any(String),
      endTime: expect.any(String),
      target: policyName('ep1'),
      verb: 'create',
      apiVersion: 'v1',
    });
    expect(op.response).toEqual({
      '@type': EP_TYPE,
      name: policyName('ep1'),
      createTime: expect.any(String),
      updateTime: expect.any(String),
      type: 'SIDECAR_PROXY',
      endpointMatcher: MATCHER,
      description: 'd',
      labels: { env: 'prod' },
      trafficPortSelector: { ports: ['8080', '9000-9100'] },
    });
    const { '@type': _t, ...policy } = op.response;
    expect((await call(app, 'GET', `/v1/${policyName('ep1')}`)).body).toEqual(policy);
    // The operation can be read back.
    expect((await call(app, 'GET', `/v1/${op.name}`)).body).toEqual(op);
  });

  test('a duplicate id is 409 ALREADY_EXISTS', async () => {
    await createPolicy(app, 'ep1');
    const res = await createPolicy(app, 'ep1', endpointPolicyBody({ type: 'GRPC_SERVER' }));
    const error = expectGoogleError(res, 409, 'ALREADY_EXISTS');
    expect(error.message).toContain(policyName('ep1'));
    expect((await call(app, 'GET', `/v1/${policyName('ep1')}`)).body.type).toBe('SIDECAR_PROXY');
  });

  test('type and endpointMatcher are required; type is SIDECAR_PROXY or GRPC_SERVER', async () => {
    let res = await createPolicy(app, 'ep1', {});
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(
      fieldViolations(res)
        .map((v) => v.field)
        .sort(),
    ).toEqual(['endpointPolicy.endpointMatcher', 'endpointPolicy.type']);
    res = await createPolicy(app, 'ep1', endpointPolicyBody({ type: 'OTHER' }));
    expect(fieldViolations(res).map((v) => v.field)).toEqual(['endpointPolicy.type']);
    res = await createPolicy(app, 'ep1', endpointPolicyBody({ unknownField: 1 }));
    // Refused by Google's JSON parser, naming the message the name is not in.
    expect(fieldViolations(res)).toEqual([
      { field: 'endpoint_policy', description: 'Invalid JSON payload received. Unknown name "unknownField" at \'endpoint_policy\': Cannot find field.' },
    ]);
    expectGoogleError(await call(app, 'GET', `/v1/${policyName('ep1')}`), 404, 'NOT_FOUND');
  });

  test('endpointPolicyId is required and checked', async () => {
    let res = await call(app, 'POST', `/v1/${PARENT}/endpointPolicies`, endpointPolicyBody());
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('endpointPolicyId');
    for (const bad of ['1abc', 'a'.repeat(64), 'ends-', 'has%20space', 'a.b']) {
      res = await call(app, 'POST', `/v1/${PARENT}/endpointPolicies?endpointPolicyId=${bad}`, endpointPolicyBody());
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('endpointPolicyId');
    }
  });

  test('output-only fields in the body are ignored', async () => {
    const res = await createPolicy(app, 'ep1', endpointPolicyBody({ name: 'projects/x/locations/y/endpointPolicies/z', createTime: '2000-01-01T00:00:00Z' }));
    expect(res.body.response.name).toBe(policyName('ep1'));
    expect(res.body.response.createTime).not.toBe('2000-01-01T00:00:00Z');
  });

  test('--strict-references checks the form of referenced policies', async () => {
    const strict = newApp({ strictReferences: true });
    try {
      const res = await createPolicy(strict, 'ep1', endpointPolicyBody({ serverTlsPolicy: 'tls1' }));
      expect(fieldViolations(res).map((v) => v.field)).toEqual(['endpointPolicy.serverTlsPolicy']);
      const ok = await createPolicy(strict, 'ep1', endpointPolicyBody({ serverTlsPolicy: `${PARENT}/serverTlsPolicies/tls1` }));
      expect(ok.status).toBe(200);
    } finally {
      await strict.close();
    }
    expect((await createPolicy(app, 'ep1', endpointPolicyBody({ serverTlsPolicy: 'tls1' }))).status).toBe(200);
  });
});

describe('get, list, paging', () => {
  test('get of a missing policy is 404 NOT_FOUND with ResourceInfo', async () => {
    const error = expectGoogleError(await call(app, 'GET', `/v1/${policyName('missing')}`), 404, 'NOT_FOUND');
    expect(error.details[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceName: policyName('missing') });
  });

  test('list pages through every policy of the parent exactly once, in name order', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => `ep${String(i).padStart(2, '0')}`);
    for (const id of [...ids].reverse()) await createPolicy(app, id);
    await createPolicy(app, 'other', endpointPolicyBody(), 'projects/p2/locations/global');
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?pageSize=5${token ? `&pageToken=${token}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.endpointPolicies.map((p: { name: string }) => p.name));
      token = res.body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(5);
    expect(seen).toEqual(ids.map((id) => policyName(id)));
  });

  test('an empty list is {} (ProtoJSON leaves out the empty list) without nextPageToken', async () => {
    const res = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`);
    expect(res.body).toEqual({});
  });

  test('pageSize 0 is the default, negative or non-numeric is INVALID_ARGUMENT; a foreign or broken token is INVALID_ARGUMENT', async () => {
    for (let i = 0; i < 3; i++) await createPolicy(app, `ep${i}`);
    expect((await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?pageSize=0`)).body.endpointPolicies).toHaveLength(3);
    for (const bad of ['-1', 'ten']) {
      const res = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?pageSize=${bad}`);
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('pageSize');
    }
    const first = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?pageSize=1`);
    const foreign = await call(app, 'GET', `/v1/projects/p2/locations/global/endpointPolicies?pageToken=${first.body.nextPageToken}`);
    expect(fieldViolations(foreign)[0].field).toBe('pageToken');
    const broken = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?pageToken=garbage`);
    expect(fieldViolations(broken)[0].field).toBe('pageToken');
  });
});

describe('patch', () => {
  beforeEach(async () => {
    await createPolicy(app, 'ep1', endpointPolicyBody({ description: 'old', labels: { a: 'b' } }));
  });

  test('with an updateMask only the named fields change; returns a done Operation', async () => {
    const res = await call(app, 'PATCH', `/v1/${policyName('ep1')}?updateMask=description`, { description: 'new', type: 'GRPC_SERVER' });
    expect(res.status).toBe(200);
    expect(res.body.done).toBe(true);
    expect(res.body.metadata.verb).toBe('update');
    expect(res.body.response).toMatchObject({ '@type': EP_TYPE, description: 'new', type: 'SIDECAR_PROXY', labels: { a: 'b' } });
    const got = (await call(app, 'GET', `/v1/${policyName('ep1')}`)).body;
    expect(got.description).toBe('new');
    expect(got.updateTime >= got.createTime).toBe(true);
  });

  test('snake_case mask paths and clearing a field by leaving it out', async () => {
    const res = await call(app, 'PATCH', `/v1/${policyName('ep1')}?updateMask=labels,traffic_port_selector`, { trafficPortSelector: { ports: ['80'] } });
    expect(res.status).toBe(200);
    const got = (await call(app, 'GET', `/v1/${policyName('ep1')}`)).body;
    expect(got.labels).toBeUndefined();
    expect(got.trafficPortSelector).toEqual({ ports: ['80'] });
  });

  test('without a mask every mutable field is replaced and the result must be valid', async () => {
    const bad = await call(app, 'PATCH', `/v1/${policyName('ep1')}`, { description: 'only this' });
    expectGoogleError(bad, 400, 'INVALID_ARGUMENT');
    expect((await call(app, 'GET', `/v1/${policyName('ep1')}`)).body.description).toBe('old');
    const ok = await call(app, 'PATCH', `/v1/${policyName('ep1')}`, endpointPolicyBody({ type: 'GRPC_SERVER' }));
    expect(ok.status).toBe(200);
    const got = (await call(app, 'GET', `/v1/${policyName('ep1')}`)).body;
    expect(got.type).toBe('GRPC_SERVER');
    expect(got.description).toBeUndefined();
  });

  test('unknown or output-only mask fields are INVALID_ARGUMENT; a missing policy is NOT_FOUND', async () => {
    for (const mask of ['nope', 'name', 'createTime']) {
      const res = await call(app, 'PATCH', `/v1/${policyName('ep1')}?updateMask=${mask}`, {});
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('updateMask');
    }
    expectGoogleError(await call(app, 'PATCH', `/v1/${policyName('zz')}?updateMask=description`, { description: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('delete', () => {
  test('returns a done Operation with an Empty response; a second delete is NOT_FOUND', async () => {
    await createPolicy(app, 'ep1');
    const res = await call(app, 'DELETE', `/v1/${policyName('ep1')}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      done: true,
      response: { '@type': 'type.googleapis.com/google.protobuf.Empty' },
      metadata: { verb: 'delete', target: policyName('ep1') },
    });
    expectGoogleError(await call(app, 'GET', `/v1/${policyName('ep1')}`), 404, 'NOT_FOUND');
    expectGoogleError(await call(app, 'DELETE', `/v1/${policyName('ep1')}`), 404, 'NOT_FOUND');
  });
});

describe('operations routes', () => {
  test('list, get, cancel of a done operation, delete', async () => {
    const ops = [];
    for (let i = 0; i < 3; i++) ops.push((await createPolicy(app, `ep${i}`)).body);
    const list = await call(app, 'GET', `/v1/${PARENT}/operations?pageSize=2`);
    expect(list.body.operations).toHaveLength(2);
    const rest = await call(app, 'GET', `/v1/${PARENT}/operations?pageToken=${list.body.nextPageToken}`);
    expect([...list.body.operations, ...rest.body.operations].map((o: { name: string }) => o.name).sort()).toEqual(ops.map((o) => o.name).sort());
    expect((await call(app, 'POST', `/v1/${ops[0].name}:cancel`, {})).body).toEqual({});
    expect((await call(app, 'GET', `/v1/${ops[0].name}`)).body).toEqual(ops[0]);
    expect((await call(app, 'DELETE', `/v1/${ops[0].name}`)).body).toEqual({});
    expectGoogleError(await call(app, 'GET', `/v1/${ops[0].name}`), 404, 'NOT_FOUND');
    expectGoogleError(await call(app, 'POST', `/v1/${ops[1].name}:wait`, {}), 404, 'NOT_FOUND');
  });
});
