/** `ReportConfig` (migrationcenter/v1alpha1): Which groups a report sizes, each with a preference set. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { ReportConfigArgs } from './migration-center-types';
import type { ReportConfigGroupPreferenceSetAssignmentResponse } from './migration-center-responses';

export const reportConfigProvider: pulumi.dynamic.ResourceProvider = lazyProvider('report-config-impl');

export class ReportConfig extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly groupPreferencesetAssignments: pulumi.Output<ReportConfigGroupPreferenceSetAssignmentResponse[]>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/reportConfigs/{reportConfigId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly reportConfigId: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: ReportConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      { implModule: 'report-config-impl', module: 'migrationcenter/v1alpha1', type: 'ReportConfig', outputsOnly: ['createTime', 'name', 'updateTime'] },
      name,
      args,
      opts,
    );
  }
}
