/**
 * Wire shapes of Migration Center v1alpha1 resources as the emulator stores and returns them.
 * Field names are the real API's JSON names.
 */
import type { ExecutionReport, ValidationReport } from '../import-engine/report';

export const JOB_STATES = [
  'IMPORT_JOB_STATE_UNSPECIFIED',
  'IMPORT_JOB_STATE_PENDING',
  'IMPORT_JOB_STATE_RUNNING',
  'IMPORT_JOB_STATE_COMPLETED',
  'IMPORT_JOB_STATE_FAILED',
  'IMPORT_JOB_STATE_VALIDATING',
  'IMPORT_JOB_STATE_FAILED_VALIDATION',
  'IMPORT_JOB_STATE_READY',
] as const;
export type JobState = (typeof JOB_STATES)[number];

export const STATE = {
  PENDING: 'IMPORT_JOB_STATE_PENDING',
  VALIDATING: 'IMPORT_JOB_STATE_VALIDATING',
  FAILED_VALIDATION: 'IMPORT_JOB_STATE_FAILED_VALIDATION',
  READY: 'IMPORT_JOB_STATE_READY',
  RUNNING: 'IMPORT_JOB_STATE_RUNNING',
  COMPLETED: 'IMPORT_JOB_STATE_COMPLETED',
  FAILED: 'IMPORT_JOB_STATE_FAILED',
} as const satisfies Record<string, JobState>;

export interface PayloadFileWire {
  name: string;
  /** base64; absent in a stored record whose payload text is kept apart (StoredJob.inlinePayloadFiles). */
  data?: string;
}

export interface InlinePayloadWire {
  format: string;
  payload: PayloadFileWire[];
}

export interface GcsPayloadWire {
  format: string;
  path: string;
}

export interface ImportJobWire {
  name: string;
  displayName?: string;
  createTime: string;
  updateTime: string;
  completeTime?: string;
  state: JobState;
  labels?: Record<string, string>;
  assetSource?: string;
  validationReport?: ValidationReport;
  executionReport?: ExecutionReport;
  gcsPayload?: GcsPayloadWire;
  inlinePayload?: InlinePayloadWire;
}

/**
 * An import job as the console shows it: the FULL view, but each inline payload file by name and
 * decoded size, never its text (up to 24 MB, read from disk for nothing).
 */
export type ImportJobOverview = Omit<ImportJobWire, 'inlinePayload'> & {
  inlinePayload?: { format: string; payload: Array<{ name: string; size: number }> };
};

/** The stored document of an import job: the wire job plus bookkeeping never sent. */
export interface StoredJob {
  job: ImportJobWire;
  /** Bumped by each :validate and :run; background work writes only while it still matches. */
  attempt: number;
  /** The Operation of the :validate or :run in progress. */
  activeOperation?: string;
  /**
   * Where the base64 text of `job.inlinePayload`'s files is kept, apart from this record
   * (import-jobs/inline-payload-files.ts); its files' `data` are then absent here. Absent: the
   * text is in the record (a seeded job, or one an earlier version stored).
   */
  inlinePayloadFiles?: InlinePayloadRef;
}

/** An inline payload kept apart from its job's record: its folder's generation, each file's decoded size. */
export interface InlinePayloadRef {
  generation: string;
  sizes: number[];
}

export type ImportJobView = 'IMPORT_JOB_VIEW_BASIC' | 'IMPORT_JOB_VIEW_FULL';

export const SOURCE_TYPES = [
  'SOURCE_TYPE_UNKNOWN',
  'SOURCE_TYPE_UPLOAD',
  'SOURCE_TYPE_GUEST_OS_SCAN',
  'SOURCE_TYPE_INVENTORY_SCAN',
  'SOURCE_TYPE_CUSTOM',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export interface SourceWire {
  name: string;
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  type: SourceType;
  priority: number;
  isManaged: boolean;
  pendingFrameCount: number;
  errorFrameCount: number;
  state: 'ACTIVE' | 'DELETING' | 'INVALID' | 'STATE_UNSPECIFIED';
}

export interface AssetWire {
  name: string;
  createTime: string;
  updateTime: string;
  title?: string;
  labels: Record<string, string>;
  attributes: Record<string, string>;
  /** Sources that reported this asset. */
  sources: string[];
  /** The groups the asset is a member of (output only; absent when none). */
  assignedGroups?: string[];
  virtualMachineDetails: Record<string, unknown>;
  performanceData?: Record<string, unknown>;
}
