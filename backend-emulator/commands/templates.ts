/** `google-native-local templates FORMAT DIR`: writes the empty templates of a format. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { fileColumns, listFormats, templateCsv, type FormatDefinition } from '../import-engine';
import { IMPORTED_FORMAT_NAMES } from '../import-engine/formats';
import { UsageError } from './local-files';
import { parseFormat } from './validate';

export const TEMPLATES_HELP = `Usage: google-native-local templates FORMAT DIR

Writes the templates of an import format into DIR (created if missing): one CSV file per table
(header and one example row), or for the RVTools XLSX format one workbook with a sheet per table.
FORMAT: ${IMPORTED_FORMAT_NAMES.join(', ')} (the pages of docs/formats/), or its
IMPORT_JOB_FORMAT_* name, as for \`validate --format\`.
`;

/** The file name a template of one kind gets. */
function templateFileName(title: string): string {
  const sheet = /^sheet (\S+)$/.exec(title);
  return sheet ? `RVTools_tab${sheet[1]}.csv` : title;
}

async function writeWorkbook(definition: FormatDefinition, file: string): Promise<void> {
  // exceljs is only needed here and by the workbook reader.
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  for (const kind of definition.fileKinds) {
    const name = /^sheet (\S+)$/.exec(kind.title)?.[1] ?? kind.title;
    const sheet = workbook.addWorksheet(name);
    sheet.addRow(fileColumns(kind).map((c) => c.name));
    sheet.addRow(fileColumns(kind).map((c) => c.example ?? ''));
  }
  await workbook.xlsx.writeFile(file);
}

export async function templatesCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    out.write(TEMPLATES_HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('give a FORMAT and a DIR');
  const format = parseFormat(positionals[0]);
  const definition = listFormats().find((d) => d.format === format);
  if (!definition) throw new UsageError(`${format} has no templates in this version`);
  const dir = positionals[1];
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  if (format === 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX') {
    const file = path.join(dir, 'RVTools_export_all.xlsx');
    await writeWorkbook(definition, file);
    written.push(file);
  } else {
    // A kind titled with a pattern (`other RVTools_tab*.csv`) stands for files the format tolerates, not a template.
    for (const kind of definition.fileKinds.filter((k) => !k.title.includes('*'))) {
      const file = path.join(dir, templateFileName(kind.title));
      fs.writeFileSync(file, templateCsv(kind));
      written.push(file);
    }
  }
  out.write(`${written.map((f) => `wrote ${f}`).join('\n')}\n`);
  return 0;
}
