/** `EndpointPolicy` (networkservices/v1): what an EndpointPolicyIamBinding's `name` refers to. */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { EndpointPolicyArgs } from './types';

export const endpointPolicyProvider: pulumi.dynamic.ResourceProvider = lazyProvider('endpoint-policy-impl');

export class EndpointPolicy extends LocalDynamicResource {
  declare public readonly authorizationPolicy: pulumi.Output<string>;
  declare public readonly clientTlsPolicy: pulumi.Output<string>;
  /** The timestamp when the resource was created. */
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly endpointMatcher: pulumi.Output<Record<string, unknown>>;
  declare public readonly endpointPolicyId: pulumi.Output<string>;
  declare public readonly labels: pulumi.Output<{ [key: string]: string }>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/endpointPolicies/{endpointPolicyId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly serverTlsPolicy: pulumi.Output<string>;
  declare public readonly trafficPortSelector: pulumi.Output<Record<string, unknown>>;
  declare public readonly type: pulumi.Output<string>;
  /** The timestamp when the resource was updated. */
  declare public readonly updateTime: pulumi.Output<string>;

  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): EndpointPolicy {
    return new EndpointPolicy(name, undefined as unknown as EndpointPolicyArgs, { ...opts, id });
  }

  constructor(name: string, args: EndpointPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    const outputsOnly = { name: undefined, createTime: undefined, updateTime: undefined };
    super('endpoint-policy-impl', name, opts?.id ? outputsOnly : { ...outputsOnly, ...args }, opts, 'networkservices/v1', 'EndpointPolicy');
  }
}
