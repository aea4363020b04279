/**
 * `EndpointPolicyIamBinding`: one role granted to a list of members (optionally under a
 * condition) on a Network Services endpoint policy, as a Pulumi dynamic resource.
 */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { ConditionResponse, EndpointPolicyIamBindingArgs } from './types';

export const endpointPolicyIamBindingProvider: pulumi.dynamic.ResourceProvider = lazyProvider('iam-binding-impl');

export class EndpointPolicyIamBinding extends LocalDynamicResource {
  /** An IAM Condition for a given binding. */
  declare public readonly condition: pulumi.Output<ConditionResponse | undefined>;
  /** The etag of the endpoint policy's IAM policy after the last write of this binding. */
  declare public readonly etag: pulumi.Output<string>;
  /** Identities granted `role`, with the email part lower-cased. */
  declare public readonly members: pulumi.Output<string[]>;
  /** The endpoint policy's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The project of the endpoint policy. */
  declare public readonly project: pulumi.Output<string>;
  /** The role granted. */
  declare public readonly role: pulumi.Output<string>;

  /** Adopts an existing binding by its id: `{policy name}/{role}[/{condition title}]`. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): EndpointPolicyIamBinding {
    return new EndpointPolicyIamBinding(name, undefined as unknown as EndpointPolicyIamBindingArgs, { ...opts, id });
  }

  constructor(name: string, args: EndpointPolicyIamBindingArgs, opts?: pulumi.CustomResourceOptions) {
    const props: pulumi.Inputs = opts?.id
      ? { condition: undefined, etag: undefined, members: undefined, name: undefined, project: undefined, role: undefined }
      : {
          condition: args.condition,
          members: args.members,
          name: args.name,
          role: args.role,
          etag: undefined,
          project: undefined,
        };
    super('iam-binding-impl', name, props, opts, 'networkservices/v1', 'EndpointPolicyIamBinding');
  }
}
