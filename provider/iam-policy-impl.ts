/**
 * The EndpointPolicyIamPolicy provider's work: Terraform's `iam_policy` semantics over
 * getIamPolicy / setIamPolicy. The resource owns the whole policy of one endpoint policy: every
 * binding it does not list is removed on create and update, any other change shows as drift on
 * refresh, and delete leaves an empty policy (Google has no call that deletes an IAM policy).
 * Writes go through iam-policy-access.ts's read-modify-write cycle, so a concurrent writer's change
 * is never overwritten unseen: the cycle reads again and writes this resource's policy anew.
 */
import type * as pulumi from '@pulumi/pulumi';
import { validate } from '../schemas';
import { canonicalBindings, normalizeMembers, POLICY_VERSION, type IamBinding, type IamPolicy } from './iam-policy-edit';
import { BINDINGS_MASK, modifyExistingPolicy, modifyPolicyIfPresent, readPolicy, readPolicyIfPresent, type PolicyWrite } from './iam-policy-access';
import { withKeyLock } from './keyed-mutex';
import { clientFor, containsUnknown, defaultProject, sameJson, withoutUndefined } from './runtime';

/** Endpoint policies exist in location `global` only. */
const ENDPOINT_POLICY_LOCATION = 'global';

export interface PolicyInputs {
  endpointPolicyId: string;
  project: string;
  location: string;
  bindings?: IamBinding[];
  auditConfigs?: unknown[];
  /** A precondition: write against this etag (no retry), instead of the one just read. */
  etag?: string;
  updateMask?: string;
  version?: number;
}

export interface PolicyOutputs extends Omit<PolicyInputs, 'bindings' | 'auditConfigs' | 'etag' | 'version'> {
  bindings: IamBinding[];
  auditConfigs: unknown[];
  etag: string;
  version: number;
}

const POLICY_ID = /^projects\/([^/]+)\/locations\/([^/]+)\/endpointPolicies\/([^/]+)$/;

export function policyName(inputs: Pick<PolicyInputs, 'project' | 'location' | 'endpointPolicyId'>): string {
  return `projects/${inputs.project}/locations/${inputs.location}/endpointPolicies/${inputs.endpointPolicyId}`;
}

export function check(_olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
  const raw: Record<string, unknown> = { ...news };
  delete raw.__provider;
  const inputs: Record<string, unknown> = withoutUndefined({ project: defaultProject(), location: ENDPOINT_POLICY_LOCATION, ...raw });
  const known = Object.fromEntries(Object.entries(inputs).filter(([, v]) => !containsUnknown(v)));
  const failures = validate('EndpointPolicyIamPolicyArgs', known).filter((f) => !(f.reason === 'is required' && containsUnknown(raw[f.property])));
  if (inputs.project === undefined) {
    failures.push({ property: 'project', reason: 'is required: set it, or the stack config google-native-local:project, or GOOGLE_CLOUD_PROJECT' });
  }
  if (Array.isArray(inputs.bindings) && !containsUnknown(inputs.bindings) && failures.length === 0) {
    inputs.bindings = (inputs.bindings as IamBinding[]).map((b) => ({ ...b, members: normalizeMembers(b.members) }));
  }
  return { inputs, failures };
}

/**
 * Another endpoint policy is another IAM policy: a replace. Bindings and audit configs are one
 * setIamPolicy: an update. Audit configs count only when the program sets them (without, the
 * resource leaves them alone). `etag`, `updateMask` and `version` are how to write, not what is
 * granted: they change nothing by themselves (Google reads back version 1 for a policy without
 * conditions whatever version wrote it).
 */
export function diff(_id: string, olds: PolicyOutputs, news: PolicyInputs): pulumi.dynamic.DiffResult {
  const replaces = (['endpointPolicyId', 'project', 'location'] as const).filter((k) => olds[k] !== news[k]);
  const bindingsChanged = !sameJson(canonicalBindings(olds.bindings), canonicalBindings(news.bindings));
  const auditChanged = news.auditConfigs !== undefined && !sameJson(olds.auditConfigs ?? [], news.auditConfigs);
  const changed = bindingsChanged || auditChanged;
  return {
    changes: replaces.length > 0 || changed,
    replaces: [...replaces],
    stables: replaces.length > 0 ? [] : ['endpointPolicyId', 'project', 'location'],
    deleteBeforeReplace: false,
  };
}

/** The write of `inputs`: its bindings (and audit configs when given) replace what is there. */
function policyWrite(inputs: PolicyInputs): PolicyWrite {
  const policy: IamPolicy = { bindings: inputs.bindings ?? [] };
  if (inputs.auditConfigs !== undefined) policy.auditConfigs = inputs.auditConfigs;
  const updateMask = inputs.updateMask ?? (inputs.auditConfigs !== undefined ? `${BINDINGS_MASK},auditConfigs` : BINDINGS_MASK);
  return { policy, updateMask, version: inputs.version ?? POLICY_VERSION };
}

function outputs(inputs: PolicyInputs, policy: IamPolicy): PolicyOutputs {
  return withoutUndefined({
    ...inputs,
    bindings: policy.bindings ?? [],
    auditConfigs: policy.auditConfigs ?? [],
    etag: policy.etag ?? '',
    version: policy.version ?? 1,
  });
}

/**
 * Writes the whole policy. With a user-given `etag`, one write against it (a conflict is the
 * user's precondition failing, reported as such); without, the read-modify-write cycle.
 */
async function writePolicy(inputs: PolicyInputs): Promise<IamPolicy> {
  const name = policyName(inputs);
  const write = policyWrite(inputs);
  if (inputs.etag === undefined) return modifyExistingPolicy(name, () => write);
  return withKeyLock(name, async () => {
    await readPolicy(name); // a missing endpoint policy is reported as for the other writes
    return clientFor('networkservices').post<IamPolicy>(`/v1/${name}:setIamPolicy`, {
      policy: { ...write.policy, etag: inputs.etag, version: write.version },
      updateMask: write.updateMask,
    });
  });
}

export async function create(inputs: PolicyInputs): Promise<pulumi.dynamic.CreateResult> {
  return { id: policyName(inputs), outs: outputs(inputs, await writePolicy(inputs)) };
}

export async function update(_id: string, _olds: PolicyOutputs, news: PolicyInputs): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: outputs(news, await writePolicy(news)) };
}

/** Leaves an empty policy: no bindings, no audit configs. */
export async function remove(_id: string, props: PolicyOutputs): Promise<void> {
  await modifyPolicyIfPresent(policyName(props), () => ({ policy: { bindings: [], auditConfigs: [] }, updateMask: `${BINDINGS_MASK},auditConfigs` }));
}

export async function read(id: string, props: Partial<PolicyOutputs>): Promise<pulumi.dynamic.ReadResult> {
  const match = POLICY_ID.exec(id);
  if (!match) throw new Error(`'${id}' is not an EndpointPolicyIamPolicy id: expected projects/{project}/locations/{location}/endpointPolicies/{id}`);
  const policy = await readPolicyIfPresent(id);
  if (!policy) return { id: '' };
  const [, project, location, endpointPolicyId] = match;
  const inputs: PolicyInputs = withoutUndefined({
    endpointPolicyId,
    project,
    location,
    // What is there now: a binding added out of band shows as a change the next update removes.
    bindings: policy.bindings ?? [],
    auditConfigs: policy.auditConfigs,
    updateMask: props.updateMask,
  });
  return { id, props: outputs(inputs, policy), inputs };
}
