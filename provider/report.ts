/** `Report` (migrationcenter/v1alpha1): A report of a report config: its summary, computed from the config's groups when it is created. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { ReportArgs } from './migration-center-types';
import type { ReportSummaryResponse } from './migration-center-responses';

export const reportProvider: pulumi.dynamic.ResourceProvider = lazyProvider('report-impl');

export class Report extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/reportConfigs/{reportConfigId}/reports/{reportId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly reportConfigId: pulumi.Output<string>;
  declare public readonly reportId: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly state: pulumi.Output<string>;
  declare public readonly summary: pulumi.Output<ReportSummaryResponse>;
  declare public readonly type: pulumi.Output<string>;
  declare public readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: ReportArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      { implModule: 'report-impl', module: 'migrationcenter/v1alpha1', type: 'Report', outputsOnly: ['createTime', 'name', 'state', 'summary', 'updateTime'] },
      name,
      args,
      opts,
    );
  }
}
