/**
 * `EndpointPolicyIamPolicy`: the whole IAM policy of a Network Services endpoint policy
 * (authoritative: bindings it does not list are removed; its delete leaves an empty policy), as a
 * Pulumi dynamic resource.
 */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { AuditConfigResponse, BindingResponse, EndpointPolicyIamPolicyArgs } from './types';

export const endpointPolicyIamPolicyProvider: pulumi.dynamic.ResourceProvider = lazyProvider('iam-policy-impl');

export class EndpointPolicyIamPolicy extends LocalDynamicResource {
  /** Specifies cloud audit logging configuration for this policy. */
  declare public readonly auditConfigs: pulumi.Output<AuditConfigResponse[]>;
  /** The policy's bindings, as Google read them back after the last write. */
  declare public readonly bindings: pulumi.Output<BindingResponse[]>;
  /** The endpoint policy's short name. */
  declare public readonly endpointPolicyId: pulumi.Output<string>;
  /** The etag of the policy after the last write. */
  declare public readonly etag: pulumi.Output<string>;
  declare public readonly location: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  /** The policy's format version as read back (1 without conditions, 3 with). */
  declare public readonly version: pulumi.Output<number>;

  /** Adopts the IAM policy of an endpoint policy by its id: the endpoint policy's name. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): EndpointPolicyIamPolicy {
    return new EndpointPolicyIamPolicy(name, undefined as unknown as EndpointPolicyIamPolicyArgs, { ...opts, id });
  }

  constructor(name: string, args: EndpointPolicyIamPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    const outputsOnly = { auditConfigs: undefined, bindings: undefined, etag: undefined, version: undefined };
    const props: pulumi.Inputs = opts?.id
      ? { ...outputsOnly, endpointPolicyId: undefined, location: undefined, project: undefined }
      : {
          auditConfigs: args.auditConfigs,
          bindings: args.bindings,
          endpointPolicyId: args.endpointPolicyId,
          etag: args.etag,
          location: args.location,
          project: args.project,
          updateMask: args.updateMask,
          version: args.version,
        };
    super('iam-policy-impl', name, props, opts, 'networkservices/v1', 'EndpointPolicyIamPolicy');
  }
}
