/** Shared helpers of the import format tests: fixture payloads, validation and execution runs. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferFile } from './payload-files';
import { executeImport, executeWith, validateImport, validateWith } from '../../backend-emulator/import-engine';
import type {
  Asset,
  EngineOptions,
  ExecutionReport,
  FormatDefinition,
  ImportJobFormat,
  PayloadFile,
  ValidationReport,
} from '../../backend-emulator/import-engine';
import { FORMATS, otherFormatOf } from '../../backend-emulator/import-engine/formats';

export { bufferFile } from './payload-files';

export const FIXTURES = join(__dirname, '..', 'fixtures');

/** Every file of a fixture directory (sorted by name), or the named ones. */
export function fixtureFiles(dir: string, names?: string[]): PayloadFile[] {
  const path = join(FIXTURES, dir);
  return (names ?? readdirSync(path).sort()).map((n) => bufferFile(n, readFileSync(join(path, n))));
}

/**
 * Validation through the engine's entry point. When the format is not registered in the engine's
 * registry yet, the same pipeline is driven with the definition directly (same hints).
 */
export async function validate(def: FormatDefinition, files: PayloadFile[], options?: EngineOptions): Promise<ValidationReport> {
  if (FORMATS[def.format] === def) return validateImport(def.format, files, options);
  return validateWith(def, files, options, (base) => otherFormatOf(def.format as ImportJobFormat, base));
}

export async function execute(def: FormatDefinition, files: PayloadFile[], options?: EngineOptions): Promise<{ report: ExecutionReport; assets: Asset[] }> {
  const assets: Asset[] = [];
  const sink = { write: (batch: Asset[]) => void assets.push(...batch) };
  const report =
    FORMATS[def.format] === def
      ? await executeImport(def.format, files, sink, options)
      : await executeWith(def, files, sink, options, (base) => otherFormatOf(def.format as ImportJobFormat, base));
  return { report, assets };
}

/** A compact view of a report for field-by-field assertions. */
export function fileReport(report: ValidationReport, fileName: string) {
  const f = report.fileValidations.find((v) => v.fileName === fileName);
  if (!f) throw new Error(`no report for ${fileName}: ${report.fileValidations.map((v) => v.fileName).join(', ')}`);
  return f;
}

export function byId(assets: Asset[]): Map<string, Asset> {
  return new Map(assets.map((a) => [a.machineId, a]));
}
