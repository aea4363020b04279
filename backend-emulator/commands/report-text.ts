/** The readable form of a ValidationReport: a summary, then the errors grouped by file. */
import type { ImportError, ImportRowError, ValidationReport } from '../import-engine';

function count(report: ValidationReport): Record<string, number> {
  const counts: Record<string, number> = { ERROR: 0, WARNING: 0, INFO: 0 };
  const add = (errors: ImportError[]) => errors.forEach((e) => (counts[e.severity] = (counts[e.severity] ?? 0) + 1));
  add(report.jobErrors);
  for (const file of report.fileValidations) {
    add(file.fileErrors);
    file.rowErrors.forEach((row) => add(row.errors));
  }
  return counts;
}

/** Where a row is: a workbook holds several sheets, each numbering its rows from 1, so its rows name their sheet. */
function rowPlace(row: ImportRowError): string {
  const sheet = row.xlsxError?.sheet;
  return sheet === undefined ? `row ${row.rowNumber}` : `sheet ${sheet} row ${row.rowNumber}`;
}

export function formatReport(report: ValidationReport, format: string): string {
  const counts = count(report);
  const lines: string[] = [];
  const verdict = counts.ERROR > 0 ? 'FAILED: the payload has blocking errors' : 'OK: no blocking errors';
  lines.push(`${verdict} (${format})`);
  lines.push(`${report.fileValidations.length} file(s); ${counts.ERROR} error(s), ${counts.WARNING} warning(s), ${counts.INFO} info`);
  if (report.jobErrors.length > 0) {
    lines.push('', 'Job:');
    for (const e of report.jobErrors) lines.push(`  ${e.severity.padEnd(7)} ${e.errorDetails}`);
  }
  for (const file of report.fileValidations) {
    if (file.fileErrors.length === 0 && file.rowErrors.length === 0) continue;
    lines.push('', `${file.fileName}${file.partialReport ? ' (report cut at the row error limit)' : ''}:`);
    for (const e of file.fileErrors) lines.push(`  ${e.severity.padEnd(7)} ${e.errorDetails}`);
    for (const row of file.rowErrors) {
      const who = [row.vmName, row.vmUuid].filter(Boolean).join(' ');
      for (const e of row.errors) lines.push(`  ${e.severity.padEnd(7)} ${rowPlace(row)}${who ? ` (${who})` : ''}: ${e.errorDetails}`);
    }
  }
  return lines.join('\n') + '\n';
}
