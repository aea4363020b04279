/** `google-native-local validate PATH... --format FORMAT [--json]`: the import engine, no server. */
import { parseArgs } from 'node:util';
import { toWireFormat } from '../../schemas';
import { hasBlockingErrors, IMPORT_JOB_FORMATS, validateImport, type ImportJobFormat } from '../import-engine';
import { FORMAT_NAMES, formatOfName, IMPORTED_FORMAT_NAMES, unsupportedReason } from '../import-engine/formats';
import { collectFiles, localPayloadFiles, UsageError } from './local-files';
import { progressBar } from './progress';
import { formatReport } from './report-text';
import * as fs from 'node:fs';

export const VALIDATE_HELP = `Usage: google-native-local validate PATH... --format FORMAT [--json]

Runs the import engine on local files or folders (every file directly inside a folder) without
a server, and prints a summary, then the errors grouped by file with row numbers and severities.

Options:
  --format FORMAT   the payload's format: ${IMPORTED_FORMAT_NAMES.join(', ')}
                    (the pages of docs/formats/), or its IMPORT_JOB_FORMAT_* name
  --json            print the ValidationReport JSON instead
  --max-row-errors N  row errors listed per file before the report is cut (default 1000)
  -h, --help        this text

Exit status: 0 when there is no ERROR, 1 when there is, 2 on bad usage.
`;

/**
 * A format as a user names it: its short name, the name of its page under docs/formats/
 * (`aws-csv`), its wire name (IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV), the reference's neutral name
 * (IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV) or the wire name lower-cased without its prefix
 * (`exported-aws-csv`, the spelling of earlier versions). `engine` (validate, templates) takes only
 * the formats the engine imports, and says why another one is not; `api` (import) takes every
 * format a job can be created with. Errors list the short names.
 */
export function parseFormat(value: string, accept: 'engine' | 'api' = 'engine'): ImportJobFormat {
  const full = value.startsWith('IMPORT_JOB_FORMAT_') ? value : `IMPORT_JOB_FORMAT_${value.toUpperCase().replace(/-/g, '_')}`;
  const wire = formatOfName(value) ?? toWireFormat(full);
  const names = accept === 'engine' ? IMPORTED_FORMAT_NAMES : FORMAT_NAMES;
  if (!(IMPORT_JOB_FORMATS as readonly string[]).includes(wire)) {
    throw new UsageError(`unknown format '${value}': expected one of ${names.join(', ')} (or its IMPORT_JOB_FORMAT_* name)`);
  }
  const format = wire as ImportJobFormat;
  const unsupported = unsupportedReason(format);
  if (accept === 'engine' && unsupported !== undefined) {
    throw new UsageError(`format '${value}' is not imported by this package (${unsupported}); the formats it imports: ${names.join(', ')}`);
  }
  return format;
}

export async function validateCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string' },
      json: { type: 'boolean', default: false },
      'max-row-errors': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    out.write(VALIDATE_HELP);
    return 0;
  }
  if (!values.format) throw new UsageError(`--format is required: one of ${IMPORTED_FORMAT_NAMES.join(', ')}`);
  if (positionals.length === 0) throw new UsageError('give at least one file or folder');
  const format = parseFormat(values.format);
  const maxRowErrors = values['max-row-errors'] === undefined ? undefined : Number(values['max-row-errors']);
  if (maxRowErrors !== undefined && !(Number.isInteger(maxRowErrors) && maxRowErrors > 0)) {
    throw new UsageError('--max-row-errors takes a whole number above 0');
  }
  const paths = collectFiles(positionals);
  const total = paths.reduce((sum, p) => sum + fs.statSync(p).size, 0);
  const progress = progressBar(total);
  const report = await validateImport(
    format,
    localPayloadFiles(paths, (n) => progress.add(n)),
    { maxRowErrorsPerFile: maxRowErrors },
  );
  progress.done();
  out.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, format));
  return hasBlockingErrors(report) ? 1 : 0;
}
