/** `ImportDataFile` (migrationcenter/v1alpha1): one file of an import job, uploaded from a local file. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { ImportDataFileArgs } from './migration-center-types';
import type { UploadFileInfoResponse } from './migration-center-responses';

export const importDataFileProvider: pulumi.dynamic.ResourceProvider = lazyProvider('import-data-file-impl');

export class ImportDataFile extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly format: pulumi.Output<string>;
  declare public readonly importDataFileId: pulumi.Output<string>;
  declare public readonly importJobId: pulumi.Output<string>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/importJobs/{importJobId}/importDataFiles/{importDataFileId}`. */
  declare public readonly name: pulumi.Output<string>;
  /** The local file uploaded, when the program gave one. */
  declare public readonly path: pulumi.Output<string | undefined>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  /** The hex sha256 of the bytes uploaded. */
  declare public readonly sha256: pulumi.Output<string>;
  declare public readonly size: pulumi.Output<number>;
  declare public readonly state: pulumi.Output<string>;
  /** Where the data file's bytes go: PUT them to `signedUri` with `headers` (done by the provider when `path` is given). */
  declare public readonly uploadFileInfo: pulumi.Output<UploadFileInfoResponse>;

  constructor(name: string, args: ImportDataFileArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      {
        implModule: 'import-data-file-impl',
        module: 'migrationcenter/v1alpha1',
        type: 'ImportDataFile',
        outputsOnly: ['name', 'createTime', 'state', 'sha256', 'size', 'uploadFileInfo'],
      },
      name,
      args,
      opts,
    );
  }
}
