/**
 * What each Network Services v1 method the emulator serves reads its body into, by Google method
 * id: the front end refuses a body's unknown names against it, at every depth, before the method
 * runs (http/request-bodies.ts), as Google's JSON parser does before any rule of the method (the
 * location, the id, the resource's existence).
 */
import type { MessageShape } from '../http/message-shapes';
import { lazyShape, messageShape, schemaShape, VALUE, withField } from '../http/message-shapes';
import { CANCEL_OPERATION_BODY, type RequestBodyTable } from '../http/request-bodies';

const N = 'networkservices.projects.locations';

/** EndpointPolicy (its schema names the output-only fields too: a client may send them back, they are ignored). */
const endpointPolicyShape = (): MessageShape => schemaShape('EndpointPolicy');

/** SetIamPolicyRequest, its policy's audit configs included (google.iam.v1.AuditConfig: the schema stores them as given). */
function setIamPolicyShape(): MessageShape {
  return withField(schemaShape('SetIamPolicyRequest'), 'policy.auditConfigs', schemaShape('AuditConfig'));
}

export const NETWORK_SERVICES_BODIES: RequestBodyTable = {
  api: 'networkservices',
  version: 'v1',
  bodies: {
    [`${N}.endpointPolicies.create`]: { at: 'endpoint_policy', message: endpointPolicyShape },
    [`${N}.endpointPolicies.patch`]: { at: 'endpoint_policy', message: endpointPolicyShape },
    [`${N}.endpointPolicies.setIamPolicy`]: { at: '', message: lazyShape(setIamPolicyShape) },
    [`${N}.endpointPolicies.testIamPermissions`]: { at: '', message: lazyShape(() => messageShape({ permissions: VALUE })) },
    [`${N}.operations.cancel`]: CANCEL_OPERATION_BODY,
  },
};
