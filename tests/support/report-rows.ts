/** Builders of expected report entries (CSV rows). */
import type { ImportRowError, Severity } from '../../backend-emulator/import-engine';

export type Issue = [Severity, string];

export function csvRow(rowNumber: number, vmName: string, vmUuid: string, errors: Issue[], assetTitle = vmName || vmUuid): ImportRowError {
  return {
    rowNumber,
    vmName,
    vmUuid,
    errors: errors.map(([severity, errorDetails]) => ({ severity, errorDetails })),
    csvError: { rowNumber },
    ...(assetTitle ? { assetTitle } : {}),
  };
}

export const issue = ([severity, errorDetails]: Issue) => ({ severity, errorDetails });
