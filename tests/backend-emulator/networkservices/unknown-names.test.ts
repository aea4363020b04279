/**
 * Network Services bodies as Google's JSON parser reads them: a name the request message has not,
 * at any depth (a policy's binding, its condition, an audit config; an endpoint policy's matcher),
 * is refused in the parser's words with the proto path of the message that lacks it, before any
 * rule of the method: the location, the id, the resource's existence.
 */
import type { FastifyInstance } from 'fastify';
import { MATCHER, call, expectGoogleError, fieldViolations, newApp, policyName } from '../../support/networkservices';

let app: FastifyInstance;
beforeAll(() => {
  app = newApp();
});
afterAll(() => app.close());

const BINDING = { role: 'roles/viewer', members: ['user:a@example.com'] };
/** A policy that does not exist (setIamPolicy answers NOT_FOUND for it), and one in a location endpoint policies are not in. */
const MISSING = policyName('missing');
const ELSEWHERE = 'projects/p1/locations/us-east1';

/** Google's refusal of `name` in the message at `at`: the message and the one BadRequest violation. */
function expectUnknown(res: Awaited<ReturnType<typeof call>>, name: string, at: string): void {
  const sentence = `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`;
  expect([res.status, expectGoogleError(res, 400, 'INVALID_ARGUMENT').message]).toEqual([400, sentence]);
  expect(fieldViolations(res)).toEqual([{ ...(at ? { field: at } : {}), description: sentence }]);
}

describe('setIamPolicy, on an endpoint policy that does not exist: the unknown name first (400, not 404)', () => {
  const cases: Array<[string, unknown, string, string]> = [
    ['the request', { policy: {}, extra: 1 }, 'extra', ''],
    ['the policy', { policy: { bindings: [BINDING], extra: 1 } }, 'extra', 'policy'],
    ['a binding', { policy: { bindings: [BINDING, { ...BINDING, extra: 1 }] } }, 'extra', 'policy.bindings[1]'],
    [
      "a binding's condition",
      { policy: { version: 3, bindings: [{ ...BINDING, condition: { title: 't', expression: 'true', extra: 1 } }] } },
      'extra',
      'policy.bindings[0].condition',
    ],
    ['an audit config', { policy: { auditConfigs: [{ service: 'allServices', extra: 1 }] } }, 'extra', 'policy.audit_configs[0]'],
    [
      "an audit config's log config",
      { policy: { auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', extra: 1 }] }] } },
      'extra',
      'policy.audit_configs[0].audit_log_configs[0]',
    ],
  ];
  test.each(cases)('in %s', async (_where, body, name, at) => {
    expectUnknown(await call(app, 'POST', `/v1/${MISSING}:setIamPolicy`, body), name, at);
  });

  test('without the unknown name the same request is 404', async () => {
    expectGoogleError(await call(app, 'POST', `/v1/${MISSING}:setIamPolicy`, { policy: { bindings: [BINDING] } }), 404, 'NOT_FOUND');
  });
});

describe("an endpoint policy's nested messages, before the location and the id", () => {
  test("create, in a location endpoint policies are not in, without an id: the matcher's unknown name", async () => {
    const body = { type: 'SIDECAR_PROXY', endpointMatcher: { metadataLabelMatcher: { ...MATCHER.metadataLabelMatcher, extra: 1 } } };
    const res = await call(app, 'POST', `/v1/${ELSEWHERE}/endpointPolicies`, body);
    expectUnknown(res, 'extra', 'endpoint_policy.endpoint_matcher.metadata_label_matcher');
  });

  test('create: a label of the matcher, the traffic port selector', async () => {
    const labels = {
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ALL', metadataLabels: [{ labelName: 'a', labelValue: 'b', extra: 1 }] } },
    };
    expectUnknown(
      await call(app, 'POST', `/v1/${ELSEWHERE}/endpointPolicies?endpointPolicyId=x`, labels),
      'extra',
      'endpoint_policy.endpoint_matcher.metadata_label_matcher.metadata_labels[0]',
    );
    const ports = { trafficPortSelector: { ports: ['80'], extra: 1 } };
    expectUnknown(await call(app, 'POST', `/v1/${ELSEWHERE}/endpointPolicies?endpointPolicyId=x`, ports), 'extra', 'endpoint_policy.traffic_port_selector');
  });

  test('patch, of a policy in a location endpoint policies are not in (and that does not exist)', async () => {
    const res = await call(app, 'PATCH', `/v1/${ELSEWHERE}/endpointPolicies/nowhere?updateMask=description`, { description: 'd', extra: 1 });
    expectUnknown(res, 'extra', 'endpoint_policy');
    const nested = await call(app, 'PATCH', `/v1/${ELSEWHERE}/endpointPolicies/nowhere?updateMask=endpointMatcher`, { endpointMatcher: { extra: 1 } });
    expectUnknown(nested, 'extra', 'endpoint_policy.endpoint_matcher');
  });

  test('without the unknown name, the location is the refusal', async () => {
    const res = await call(app, 'PATCH', `/v1/${ELSEWHERE}/endpointPolicies/nowhere?updateMask=description`, { description: 'd' });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('name');
  });
});
