/** `EndpointPolicy` (networkservices/v1): what an EndpointPolicyIamBinding's `name` refers to. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { EndpointPolicyArgs } from './types';

export const endpointPolicyProvider: pulumi.dynamic.ResourceProvider = lazyProvider('endpoint-policy-impl');

export class EndpointPolicy extends RestDynamicResource {
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

  constructor(name: string, args: EndpointPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      { implModule: 'endpoint-policy-impl', module: 'networkservices/v1', type: 'EndpointPolicy', outputsOnly: ['name', 'createTime', 'updateTime'] },
      name,
      args,
      opts,
    );
  }
}
