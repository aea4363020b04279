/**
 * ProtoJSON at the wire: defaults left out of every answer, proto field names and enum numbers
 * accepted in requests (Google's JSON parser accepts both), a field given twice refused.
 */
import type { FastifyInstance } from 'fastify';
import { fromProtoJsonBody, fromProtoJsonQuery, jsonName, protoJsonListText, toProtoJson } from '../../../backend-emulator/http/protojson';
import { PARENT, call, createPolicy, expectGoogleError, fieldViolations, getIam, newApp, policyName, setIam } from '../../support/networkservices';

describe('toProtoJson', () => {
  it('leaves out empty lists, false, 0, "", null and enum zeros at every depth, keeps messages and map entries', () => {
    const out = toProtoJson({
      done: false,
      count: 0,
      text: '',
      none: null,
      list: [],
      labels: {},
      kept: { labels: { env: '' }, inner: { rowErrors: [], fileName: 'vmInfo.csv' } },
      rows: [0, '', { severity: 'SEVERITY_UNSPECIFIED', errorDetails: 'x' }],
      format: 'IMPORT_JOB_FORMAT_UNSPECIFIED',
      type: 'SOURCE_TYPE_UNKNOWN',
      empty: {},
      metadata: { '@type': 'type.googleapis.com/x.OperationMetadata', requestedCancellation: false, verb: 'create' },
    });
    expect(out).toEqual({
      kept: { labels: { env: '' }, inner: { fileName: 'vmInfo.csv' } },
      rows: [0, '', { errorDetails: 'x' }],
      empty: {},
      metadata: { '@type': 'type.googleapis.com/x.OperationMetadata', verb: 'create' },
    });
  });

  it('leaves out an int64 zero ("0", a decimal string on the wire) and keeps "0" where it is user text', () => {
    expect(
      toProtoJson({
        vmDisks: { hddTotalCapacityBytes: '0', hddTotalFreeBytes: '1', disks: { entries: [{ diskLabel: '0', totalCapacityBytes: '0', totalFreeBytes: '0' }] } },
        count: { value: '0' },
        buckets: [{ lowerBound: 0, upperBound: 2, count: '0' }],
        displayName: '0',
        labels: { zero: '0' },
        attributes: { Disks: '0' },
      }),
    ).toEqual({
      vmDisks: { hddTotalFreeBytes: '1', disks: { entries: [{ diskLabel: '0' }] } },
      count: {},
      buckets: [{ upperBound: 2 }],
      displayName: '0',
      labels: { zero: '0' },
      attributes: { Disks: '0' },
    });
  });

  it('keeps an enum zero spelt in a field that is no enum (a display name is user text)', () => {
    expect(toProtoJson({ displayName: 'SOURCE_TYPE_UNKNOWN', type: 'SOURCE_TYPE_UPLOAD' })).toEqual({
      displayName: 'SOURCE_TYPE_UNKNOWN',
      type: 'SOURCE_TYPE_UPLOAD',
    });
  });
});

describe('toProtoJson copies only what it changes', () => {
  it('never changes its input, and shares the parts that hold no default', () => {
    const unchanged = { name: 'a', labels: { env: 'dev' }, virtualMachineDetails: { coreCount: 2, osFamily: 'OS_FAMILY_LINUX' } };
    const withDefaults = { name: 'b', labels: {}, virtualMachineDetails: { coreCount: 0, vmName: 'vm' }, sources: ['s'] };
    const input = { assets: [unchanged, withDefaults] };
    const before = JSON.stringify(input);
    const out = toProtoJson(input) as { assets: unknown[] };
    expect(JSON.stringify(input)).toBe(before);
    expect(out).toEqual({ assets: [unchanged, { name: 'b', virtualMachineDetails: { vmName: 'vm' }, sources: ['s'] }] });
    expect(out.assets[0]).toBe(unchanged);
    expect((out.assets[1] as { sources: unknown }).sources).toBe(withDefaults.sources);
    expect(Object.keys(out.assets[1] as object)).toEqual(['name', 'virtualMachineDetails', 'sources']);
  });
});

describe('protoJsonListText', () => {
  it('writes the bytes JSON.stringify writes, whatever the number of items and their characters', () => {
    const item = (i: number) => ({ name: `a-${i}`, labels: { k: i % 3 === 0 ? 'é"\\\u2028' : '' }, list: [i, { x: '\u{1F600}' }] });
    for (const n of [0, 1, 2, 99, 100, 101, 250]) {
      const items = Array.from({ length: n }, (_, i) => item(i));
      const expected = n === 0 ? '{}' : JSON.stringify({ assets: items });
      expect([n, protoJsonListText('assets', items).text.toString('utf8')]).toEqual([n, expected]);
    }
  });
});

describe('ProtoJSON input', () => {
  it('derives JSON names as protoc does', () => {
    expect(['display_name', 'requested_policy_version', 'ipv4_address', 'displayName', 'Foo_bar', '@type'].map(jsonName)).toEqual([
      'displayName',
      'requestedPolicyVersion',
      'ipv4Address',
      'displayName',
      'Foo_bar',
      '@type',
    ]);
  });

  it('renames fields and maps enum numbers by the request message the URL names, never map keys', () => {
    const body = fromProtoJsonBody(
      { display_name: 'x', labels: { my_key: 'v' }, inline_payload: { format: 6, payload: [{ name: 'vmInfo.csv', data: '' }] } },
      '/v1alpha1/projects/p/locations/l/importJobs',
    );
    expect(body).toEqual({
      displayName: 'x',
      labels: { my_key: 'v' },
      inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: '' }] },
    });
    expect(fromProtoJsonBody({ type: 1, is_managed: true }, '/v1alpha1/projects/p/locations/l/sources/s')).toEqual({
      type: 'SOURCE_TYPE_UPLOAD',
      isManaged: true,
    });
    expect(fromProtoJsonQuery({ 'options.requested_policy_version': '3', page_size: '5' }, '/v1/x')).toEqual({
      'options.requestedPolicyVersion': '3',
      pageSize: '5',
    });
    expect(fromProtoJsonQuery({ view: '2' }, '/v1alpha1/projects/p/locations/l/importJobs/j')).toEqual({ view: 'IMPORT_JOB_VIEW_FULL' });
  });

  it('maps an enum number given with the body text, whether the text spells the field plainly or escaped', () => {
    const url = '/v1/projects/p/locations/global/endpointPolicies/e:setIamPolicy';
    const plain = { policy: { auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 3 }] }] } };
    expect(fromProtoJsonBody(plain, url, JSON.stringify(plain))).toEqual({
      policy: { auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] },
    });
    const escapedText = '{"policy":{"auditConfigs":[{"service":"allServices","auditLogConfigs":[{"\\u006cogType":2}]}]}}';
    expect(fromProtoJsonBody(JSON.parse(escapedText), url, escapedText)).toEqual({
      policy: { auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_WRITE' }] }] },
    });
    // A text naming no enum field and no proto name: the body as parsed, not a copy.
    const noEnum = { policy: { version: 3, bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } };
    expect(fromProtoJsonBody(noEnum, url, JSON.stringify(noEnum))).toBe(noEnum);
  });

  it('renames a proto name however deep it is in a message without enums, and never a map key', () => {
    const path = '/v1alpha1/projects/p/locations/l/assets:batchUpdate';
    expect(fromProtoJsonBody({ requests: [{ asset: { name: 'n', labels: { my_key: 'v' } }, update_mask: 'labels' }] }, path)).toEqual({
      requests: [{ asset: { name: 'n', labels: { my_key: 'v' } }, updateMask: 'labels' }],
    });
    const json = { requests: [{ asset: { name: 'n', attributes: { Machine_Id: 'x' } }, updateMask: 'attributes' }] };
    expect(fromProtoJsonBody(json, path)).toEqual({ requests: [{ asset: { name: 'n', attributes: { Machine_Id: 'x' } }, updateMask: 'attributes' }] });
  });

  it('given the text, renames a proto name written plain or escaped, and reads text without `_` as it was parsed', () => {
    const path = '/v1alpha1/projects/p/locations/l/assets:batchUpdate';
    for (const text of ['{"requests":[{"asset":{"name":"n"},"update_mask":"labels"}]}', '{"requests":[{"asset":{"name":"n"},"update\\u005Fmask":"labels"}]}']) {
      expect(fromProtoJsonBody(JSON.parse(text), path, text)).toEqual({ requests: [{ asset: { name: 'n' }, updateMask: 'labels' }] });
    }
    const plain = '{"requests":[{"asset":{"name":"n","labels":{"env":"dev"}},"updateMask":"labels"}]}';
    const body = JSON.parse(plain) as unknown;
    expect(fromProtoJsonBody(body, path, plain)).toBe(body);
  });
});

describe('over the wire', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = newApp();
  });
  afterEach(async () => {
    await app.close();
  });

  it('an endpoint policy created with proto names and enum numbers reads back in JSON names and enum names', async () => {
    const res = await call(app, 'POST', `/v1/${PARENT}/endpointPolicies?endpoint_policy_id=ep1`, {
      type: 2,
      endpoint_matcher: { metadata_label_matcher: { metadata_label_match_criteria: 1, metadata_labels: [{ label_name: 'app', label_value: 'web' }] } },
    });
    expect(res.status).toBe(200);
    const policy = (await call(app, 'GET', `/v1/${policyName('ep1')}`)).body;
    expect(policy).toMatchObject({
      type: 'GRPC_SERVER',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
    });
  });

  it('IAM reads and writes take proto names in the query and the body', async () => {
    await createPolicy(app, 'ep2');
    const written = await setIam(app, policyName('ep2'), {
      policy: {
        bindings: [
          {
            role: 'roles/networkservices.viewer',
            members: ['user:a@example.com'],
            condition: { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
          },
        ],
        version: 3,
      },
      update_mask: 'bindings',
    });
    expect(written.status).toBe(200);
    const read = await call(app, 'GET', `/v1/${policyName('ep2')}:getIamPolicy?options.requested_policy_version=3`);
    expect(read.body).toMatchObject({ version: 3, bindings: [{ role: 'roles/networkservices.viewer', condition: { title: 't' } }] });
    // Without the version (the proto name was not dropped on the floor), the condition is hidden.
    expect((await getIam(app, policyName('ep2'))).body.version).toBe(1);
  });

  it('a field given in both spellings is INVALID_ARGUMENT naming it', async () => {
    const res = await call(app, 'POST', `/v1/${PARENT}/endpointPolicies?endpointPolicyId=ep3`, {
      type: 'SIDECAR_PROXY',
      description: 'a',
      endpoint_matcher: {},
      endpointMatcher: {},
    });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('endpointMatcher');
    const twice = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies?page_size=1&pageSize=2`);
    expectGoogleError(twice, 400, 'INVALID_ARGUMENT');
  });

  it('an enum number no value has is INVALID_ARGUMENT naming the field', async () => {
    const res = await call(app, 'POST', `/v1/${PARENT}/endpointPolicies?endpointPolicyId=ep4`, { type: 9, endpointMatcher: {} });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('type');
  });

  it('an empty list answers {}, and an error without details has no details key', async () => {
    expect((await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`)).body).toEqual({});
    const missing = await call(app, 'GET', '/v1/nothing/here');
    expect(Object.keys(missing.body.error).sort()).toEqual(['code', 'message', 'status']);
  });
});
