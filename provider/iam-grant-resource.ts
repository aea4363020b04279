/**
 * The skeleton the EndpointPolicyIamBinding and EndpointPolicyIamMember providers share: each is
 * a grant of one role (under one condition) on one endpoint policy's IAM policy, checked against
 * its schema, written by a read-modify-write of that role under the etag loop
 * (iam-policy-access.ts), and taken out again on delete. What differs is what the grant holds (a
 * member list, or one member) and how it is put in and taken out: each provider passes that in.
 */
import type * as pulumi from '@pulumi/pulumi';
import { validate, type SchemaName } from '../schemas';
import type { IamCondition, IamPolicy } from './iam-policy-edit';
import { modifyExistingPolicy, modifyPolicyIfPresent, projectOf } from './iam-policy-access';
import { containsUnknown, withoutUndefined } from './runtime';

/** The arguments every grant has: the endpoint policy's name, the role, an optional condition. */
export interface GrantInputs {
  name: string;
  role: string;
  condition?: IamCondition & { location?: string };
}

/** What a grant's state adds to its arguments. */
export interface GrantState {
  /** The IAM policy's etag after the last write of this grant. */
  etag: string;
  /** The project named in the endpoint policy's name. */
  project: string;
}

export interface GrantSpec<I extends GrantInputs> {
  schema: SchemaName;
  /** The argument the grant holds (`members`, `member`) and its canonical spelling, applied once it is known. */
  grantedField: keyof I & string;
  canonical(value: unknown): unknown;
  /** The grant's own arguments in canonical form (without the other properties the engine passes). */
  grantOf(inputs: I): I;
  /** The resource's id. */
  id(inputs: I): string;
  /** The policy with the grant in it; and the policy without it. */
  grant(policy: IamPolicy, inputs: I): IamPolicy;
  revoke(policy: IamPolicy, props: I): IamPolicy;
}

export function iamGrantResource<I extends GrantInputs>(spec: GrantSpec<I>) {
  function outputs(inputs: I, policy: IamPolicy): I & GrantState {
    return withoutUndefined({ ...spec.grantOf(inputs), etag: policy.etag ?? '', project: projectOf(inputs.name) });
  }

  return {
    outputs,

    check(_olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
      const raw: Record<string, unknown> = { ...news };
      delete raw.__provider;
      // Values Pulumi cannot know yet during preview are checked later, when they are known.
      const known = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && !containsUnknown(v)));
      const failures = validate(spec.schema, known).filter((f) => !(f.reason === 'is required' && containsUnknown(raw[f.property])));
      const inputs = { ...raw };
      const granted = raw[spec.grantedField];
      if (granted !== undefined && !containsUnknown(granted)) {
        const canonical = spec.canonical(granted);
        if (canonical !== undefined) inputs[spec.grantedField] = canonical;
      }
      return { inputs: withoutUndefined(inputs), failures };
    },

    async create(inputs: I): Promise<pulumi.dynamic.CreateResult> {
      const policy = await modifyExistingPolicy(inputs.name, (p) => spec.grant(p, inputs));
      return { id: spec.id(inputs), outs: outputs(inputs, policy) };
    },

    async update(_id: string, _olds: I & GrantState, news: I): Promise<pulumi.dynamic.UpdateResult> {
      const policy = await modifyExistingPolicy(news.name, (p) => spec.grant(p, news));
      return { outs: outputs(news, policy) };
    },

    async remove(_id: string, props: I & GrantState): Promise<void> {
      // A missing endpoint policy took its grants with it.
      await modifyPolicyIfPresent(props.name, (p) => spec.revoke(p, props));
    },
  };
}
