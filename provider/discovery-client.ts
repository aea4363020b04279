/** `DiscoveryClient` (migrationcenter/v1alpha1): A collector that reports asset frames to a source and sends heartbeats. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { DiscoveryClientArgs } from './migration-center-types';
import type { StatusResponse } from './migration-center-responses';

export const discoveryClientProvider: pulumi.dynamic.ResourceProvider = lazyProvider('discovery-client-impl');

export class DiscoveryClient extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly discoveryClientId: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly errors: pulumi.Output<StatusResponse[]>;
  declare public readonly expireTime: pulumi.Output<string>;
  declare public readonly heartbeatTime: pulumi.Output<string>;
  declare public readonly labels: pulumi.Output<{ [key: string]: string }>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/discoveryClients/{discoveryClientId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly serviceAccount: pulumi.Output<string>;
  declare public readonly signalsEndpoint: pulumi.Output<string>;
  declare public readonly source: pulumi.Output<string>;
  declare public readonly state: pulumi.Output<string>;
  declare public readonly ttl: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly version: pulumi.Output<string>;

  constructor(name: string, args: DiscoveryClientArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      {
        implModule: 'discovery-client-impl',
        module: 'migrationcenter/v1alpha1',
        type: 'DiscoveryClient',
        outputsOnly: ['createTime', 'errors', 'expireTime', 'heartbeatTime', 'name', 'signalsEndpoint', 'state', 'updateTime', 'version'],
      },
      name,
      args,
      opts,
    );
  }
}
