/** `Group` (migrationcenter/v1alpha1): A named set of assets that report configs size together. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { GroupArgs } from './migration-center-types';

export const groupProvider: pulumi.dynamic.ResourceProvider = lazyProvider('group-impl');

export class Group extends RestDynamicResource {
  /** The filter that chooses the members, when the program gives one. */
  declare public readonly assetFilter: pulumi.Output<string | undefined>;
  /** The members' asset ids, sorted, as last read or written. */
  declare public readonly assets: pulumi.Output<string[]>;
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly groupId: pulumi.Output<string>;
  declare public readonly labels: pulumi.Output<{ [key: string]: string }>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/groups/{groupId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      { implModule: 'group-impl', module: 'migrationcenter/v1alpha1', type: 'Group', outputsOnly: ['assets', 'createTime', 'name', 'updateTime'] },
      name,
      args,
      opts,
    );
  }
}
