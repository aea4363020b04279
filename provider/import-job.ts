/**
 * `ImportJob`: loads VM inventory into Migration Center from an object-storage or inline
 * payload, or from local files uploaded as import data files, as a Pulumi dynamic resource that validates and runs the job and reports the result.
 */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type {
  ExecutionReportResponse,
  GCSPayloadInfoResponse,
  ImportJobArgs,
  InlinePayloadInfoResponse,
  LocalDataFileResponse,
  ValidationReportResponse,
} from './types';

export const importJobProvider: pulumi.dynamic.ResourceProvider = lazyProvider('import-job-impl');

export class ImportJob extends LocalDynamicResource {
  /** Reference to a source. */
  declare public readonly assetSource: pulumi.Output<string>;
  /** The timestamp when the import job was completed. */
  declare public readonly completeTime: pulumi.Output<string>;
  /** The timestamp when the import job was created. */
  declare public readonly createTime: pulumi.Output<string>;
  /** User-friendly display name. Maximum length is 63 characters. */
  declare public readonly displayName: pulumi.Output<string>;
  /** The report with the results of running the import job. */
  declare public readonly executionReport: pulumi.Output<ExecutionReportResponse>;
  /** The local files uploaded as data files, with the sha256 of the bytes sent. */
  declare public readonly files: pulumi.Output<LocalDataFileResponse[] | undefined>;
  /** The format of `files`. */
  declare public readonly format: pulumi.Output<string | undefined>;
  /** The payload in object storage (wire name). */
  declare public readonly gcsPayload: pulumi.Output<GCSPayloadInfoResponse>;
  /** Required. ID of the import job. */
  declare public readonly importJobId: pulumi.Output<string>;
  /** The inline payload. */
  declare public readonly inlinePayload: pulumi.Output<InlinePayloadInfoResponse>;
  /** Labels as key value pairs. */
  declare public readonly labels: pulumi.Output<{ [key: string]: string }>;
  declare public readonly location: pulumi.Output<string>;
  /** The full name of the import job. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly project: pulumi.Output<string>;
  /** The request ID create used (the user's, or one generated and kept in state). */
  declare public readonly requestId: pulumi.Output<string | undefined>;
  /** The state of the import job. */
  declare public readonly state: pulumi.Output<string>;
  /** The timestamp when the import job was last updated. */
  declare public readonly updateTime: pulumi.Output<string>;
  /** The report with the validation results of the import job. */
  declare public readonly validationReport: pulumi.Output<ValidationReportResponse>;

  /** Adopts an existing job by its id: `projects/{project}/locations/{location}/importJobs/{id}`. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ImportJob {
    return new ImportJob(name, undefined as unknown as ImportJobArgs, { ...opts, id });
  }

  constructor(name: string, args: ImportJobArgs, opts?: pulumi.CustomResourceOptions) {
    const outputsOnly = {
      completeTime: undefined,
      createTime: undefined,
      executionReport: undefined,
      name: undefined,
      state: undefined,
      updateTime: undefined,
      validationReport: undefined,
    };
    const props: pulumi.Inputs = opts?.id
      ? {
          ...outputsOnly,
          assetSource: undefined,
          displayName: undefined,
          files: undefined,
          format: undefined,
          gcsPayload: undefined,
          importJobId: undefined,
          inlinePayload: undefined,
          labels: undefined,
          location: undefined,
          project: undefined,
          requestId: undefined,
        }
      : {
          ...outputsOnly,
          assetSource: args.assetSource,
          displayName: args.displayName,
          files: args.files,
          format: args.format,
          gcsPayload: args.gcsPayload,
          storagePayload: args.storagePayload,
          importJobId: args.importJobId,
          inlinePayload: args.inlinePayload,
          labels: args.labels,
          location: args.location,
          project: args.project,
          requestId: args.requestId,
        };
    super('import-job-impl', name, props, opts, 'migrationcenter/v1alpha1', 'ImportJob');
  }
}
