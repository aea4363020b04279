/**
 * `EndpointPolicyIamMember`: one role granted to one member (optionally under a condition) on a
 * Network Services endpoint policy, leaving the role's other members alone, as a Pulumi dynamic
 * resource.
 */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { ConditionResponse, EndpointPolicyIamMemberArgs } from './types';

export const endpointPolicyIamMemberProvider: pulumi.dynamic.ResourceProvider = lazyProvider('iam-member-impl');

export class EndpointPolicyIamMember extends LocalDynamicResource {
  /** An IAM Condition for a given binding. */
  declare public readonly condition: pulumi.Output<ConditionResponse | undefined>;
  /** The etag of the endpoint policy's IAM policy after the last write of this member. */
  declare public readonly etag: pulumi.Output<string>;
  /** The identity granted `role`, with the email part lower-cased. */
  declare public readonly member: pulumi.Output<string>;
  /** The endpoint policy's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The project of the endpoint policy. */
  declare public readonly project: pulumi.Output<string>;
  /** The role granted. */
  declare public readonly role: pulumi.Output<string>;

  /** Adopts an existing grant by its id: `{policy name} {role} {member}[ {condition title}]` (space-separated). */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): EndpointPolicyIamMember {
    return new EndpointPolicyIamMember(name, undefined as unknown as EndpointPolicyIamMemberArgs, { ...opts, id });
  }

  constructor(name: string, args: EndpointPolicyIamMemberArgs, opts?: pulumi.CustomResourceOptions) {
    const props: pulumi.Inputs = opts?.id
      ? { condition: undefined, etag: undefined, member: undefined, name: undefined, project: undefined, role: undefined }
      : {
          condition: args.condition,
          member: args.member,
          name: args.name,
          role: args.role,
          etag: undefined,
          project: undefined,
        };
    super('iam-member-impl', name, props, opts, 'networkservices/v1', 'EndpointPolicyIamMember');
  }
}
