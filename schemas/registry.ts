/**
 * Every JSON Schema of the package, in one list. Importing the files (rather than reading the
 * folder) makes tsc copy them into dist/ and lets the docs generator walk the same list.
 */
import Member from './Member.schema.json';
import Role from './Role.schema.json';
import Condition from './Condition.schema.json';
import Labels from './Labels.schema.json';
import EndpointPolicyIamBindingArgs from './EndpointPolicyIamBindingArgs.schema.json';
import EndpointPolicyIamMemberArgs from './EndpointPolicyIamMemberArgs.schema.json';
import EndpointPolicyIamPolicyArgs from './EndpointPolicyIamPolicyArgs.schema.json';
import AuditConfig from './AuditConfig.schema.json';
import ImportJobFormat from './ImportJobFormat.schema.json';
import CreatableFormat from './CreatableFormat.schema.json';
import ImportJobFormatArgs from './ImportJobFormatArgs.schema.json';
import PayloadFile from './PayloadFile.schema.json';
import InlinePayloadInfo from './InlinePayloadInfo.schema.json';
import StoragePayloadInfo from './StoragePayloadInfo.schema.json';
import ImportJobArgs from './ImportJobArgs.schema.json';
import LocalDataFile from './LocalDataFile.schema.json';
import ImportError from './ImportError.schema.json';
import ImportRowError from './ImportRowError.schema.json';
import FileValidationReport from './FileValidationReport.schema.json';
import ValidationReport from './ValidationReport.schema.json';
import ExecutionReport from './ExecutionReport.schema.json';
import IamBinding from './IamBinding.schema.json';
import IamPolicy from './IamPolicy.schema.json';
import SetIamPolicyRequest from './SetIamPolicyRequest.schema.json';
import EndpointPolicy from './EndpointPolicy.schema.json';
import EndpointPolicyArgs from './EndpointPolicyArgs.schema.json';
import Source from './Source.schema.json';
import SourceArgs from './SourceArgs.schema.json';
import ImportDataFile from './ImportDataFile.schema.json';
import ResourcePlacement from './ResourcePlacement.schema.json';
import GroupArgs from './GroupArgs.schema.json';
import ReportConfigArgs from './ReportConfigArgs.schema.json';
import ReportArgs from './ReportArgs.schema.json';
import DiscoveryClientArgs from './DiscoveryClientArgs.schema.json';
import ImportDataFileArgs from './ImportDataFileArgs.schema.json';
import PreferenceSetArgs from './PreferenceSetArgs.schema.json';
import Group from './Group.schema.json';
import AddAssetsToGroupRequest from './AddAssetsToGroupRequest.schema.json';
import RemoveAssetsFromGroupRequest from './RemoveAssetsFromGroupRequest.schema.json';
import ReportConfig from './ReportConfig.schema.json';
import Report from './Report.schema.json';
import PreferenceSet from './PreferenceSet.schema.json';
import Settings from './Settings.schema.json';
import DiscoveryClient from './DiscoveryClient.schema.json';
import DiscoveryClientHeartbeat from './DiscoveryClientHeartbeat.schema.json';
import Asset from './Asset.schema.json';
import BatchUpdateAssetsRequest from './BatchUpdateAssetsRequest.schema.json';
import BatchDeleteAssetsRequest from './BatchDeleteAssetsRequest.schema.json';
import AssetFrame from './AssetFrame.schema.json';
import Frames from './Frames.schema.json';
import AssetFrameRules from './AssetFrameRules.schema.json';
import SignedUriDestination from './SignedUriDestination.schema.json';
import AssetsExportJob from './AssetsExportJob.schema.json';
import ReportExportJob from './ReportExportJob.schema.json';

export type JsonSchema = Record<string, unknown> & { $id: string; title: string; description?: string };

/** Input types (what users and clients send), in documentation order. */
export const INPUT_SCHEMAS: JsonSchema[] = [
  EndpointPolicyIamBindingArgs,
  EndpointPolicyIamMemberArgs,
  EndpointPolicyIamPolicyArgs,
  AuditConfig,
  Condition,
  Member,
  Role,
  ImportJobArgs,
  LocalDataFile,
  StoragePayloadInfo,
  InlinePayloadInfo,
  PayloadFile,
  ImportJobFormat,
  CreatableFormat,
  ImportJobFormatArgs,
  Labels,
  IamPolicy,
  IamBinding,
  SetIamPolicyRequest,
  EndpointPolicy,
  EndpointPolicyArgs,
  Source,
  SourceArgs,
  ImportDataFile,
  GroupArgs,
  ReportConfigArgs,
  ReportArgs,
  DiscoveryClientArgs,
  ImportDataFileArgs,
  PreferenceSetArgs,
  ResourcePlacement,
  Group,
  AddAssetsToGroupRequest,
  RemoveAssetsFromGroupRequest,
  ReportConfig,
  Report,
  PreferenceSet,
  Settings,
  DiscoveryClient,
  DiscoveryClientHeartbeat,
  Asset,
  BatchUpdateAssetsRequest,
  BatchDeleteAssetsRequest,
  Frames,
  AssetFrame,
  AssetFrameRules,
  AssetsExportJob,
  ReportExportJob,
  SignedUriDestination,
];

/** Output types (what the emulator returns), so tests can check responses against them. */
export const OUTPUT_SCHEMAS: JsonSchema[] = [ExecutionReport, ValidationReport, FileValidationReport, ImportError, ImportRowError];

export const ALL_SCHEMAS: JsonSchema[] = [...INPUT_SCHEMAS, ...OUTPUT_SCHEMAS];

export type SchemaName =
  | 'EndpointPolicyIamBindingArgs'
  | 'EndpointPolicyIamMemberArgs'
  | 'EndpointPolicyIamPolicyArgs'
  | 'AuditConfig'
  | 'Condition'
  | 'Member'
  | 'Role'
  | 'ImportJobArgs'
  | 'LocalDataFile'
  | 'StoragePayloadInfo'
  | 'InlinePayloadInfo'
  | 'PayloadFile'
  | 'ImportJobFormat'
  | 'CreatableFormat'
  | 'ImportJobFormatArgs'
  | 'Labels'
  | 'IamPolicy'
  | 'IamBinding'
  | 'SetIamPolicyRequest'
  | 'EndpointPolicy'
  | 'EndpointPolicyArgs'
  | 'Source'
  | 'SourceArgs'
  | 'ImportDataFile'
  | 'GroupArgs'
  | 'ReportConfigArgs'
  | 'ReportArgs'
  | 'DiscoveryClientArgs'
  | 'ImportDataFileArgs'
  | 'PreferenceSetArgs'
  | 'ResourcePlacement'
  | 'Group'
  | 'AddAssetsToGroupRequest'
  | 'RemoveAssetsFromGroupRequest'
  | 'ReportConfig'
  | 'Report'
  | 'PreferenceSet'
  | 'Settings'
  | 'DiscoveryClient'
  | 'DiscoveryClientHeartbeat'
  | 'Asset'
  | 'BatchUpdateAssetsRequest'
  | 'BatchDeleteAssetsRequest'
  | 'Frames'
  | 'AssetFrame'
  | 'AssetFrameRules'
  | 'AssetsExportJob'
  | 'ReportExportJob'
  | 'SignedUriDestination'
  | 'ExecutionReport'
  | 'ValidationReport'
  | 'FileValidationReport'
  | 'ImportError'
  | 'ImportRowError';
