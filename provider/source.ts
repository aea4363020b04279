/** `Source` (migrationcenter/v1alpha1): what an ImportJob's `assetSource` refers to. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { SourceArgs } from './types';

export const sourceProvider: pulumi.dynamic.ResourceProvider = lazyProvider('source-impl');

export class Source extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  /** The number of frames reported by the source that contained errors. */
  declare public readonly errorFrameCount: pulumi.Output<number>;
  declare public readonly isManaged: pulumi.Output<boolean>;
  declare public readonly location: pulumi.Output<string>;
  /** The resource reference's spelling of `isManaged`, as the program gave it. */
  declare public readonly managed: pulumi.Output<boolean>;
  /** `projects/{project}/locations/{location}/sources/{sourceId}`. */
  declare public readonly name: pulumi.Output<string>;
  /** The number of frames reported by the source and still waiting to be processed. */
  declare public readonly pendingFrameCount: pulumi.Output<number>;
  declare public readonly priority: pulumi.Output<number>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly sourceId: pulumi.Output<string>;
  declare public readonly state: pulumi.Output<string>;
  declare public readonly type: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: SourceArgs, opts?: pulumi.CustomResourceOptions) {
    // `isManaged` is registered too: it resolves when the program gives `managed` or nothing.
    super(
      {
        implModule: 'source-impl',
        module: 'migrationcenter/v1alpha1',
        type: 'Source',
        outputsOnly: ['name', 'createTime', 'updateTime', 'state', 'errorFrameCount', 'pendingFrameCount', 'isManaged'],
      },
      name,
      args,
      opts,
    );
  }
}
