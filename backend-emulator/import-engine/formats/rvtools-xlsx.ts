/**
 * IMPORT_JOB_FORMAT_RVTOOLS_XLSX: one VM-inventory-tool (RVTools) workbook, "Export all to xlsx".
 * The `vInfo` sheet is required; `vCPU`, `vMemory`, `vDisk`, `vPartition` and `vNetwork` are read
 * when present; every other sheet is named in one INFO and never inflated. The workbook is read as a
 * stream by readers/xlsx/ (bounded inflation, no DOCTYPE, merged header cells refused); rows keep
 * the sheet's own row numbers and report their sheet (`xlsxError`). docs/formats/rvtools-xlsx.md.
 */
import type { XlsxLimits } from '../readers/xlsx';
import type { FormatDefinition, Reader } from '../types';
import { RV_TABS, rvtoolsAssets, rvtoolsKinds, rvtoolsReader, tabOf, type RvChildren, type RvTab } from './rvtools-common';

const sheetPattern = (tab: RvTab): RegExp => new RegExp(`^\\s*${tab}\\s*$`, 'i');

/**
 * The reader of RVTools workbooks; `limits` overrides the XLSX caps (tests, benchmarks). The XLSX
 * reader (readers/xlsx/, about 20 modules) is loaded at the first workbook read, not with the
 * formats: an import worker that never reads a workbook (most jobs are CSV) starts without it.
 */
export function rvtoolsXlsxReader(limits?: Partial<XlsxLimits>): Reader {
  let xlsx: Reader | undefined;
  const workbook: Reader = (bytes, ctx) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createXlsxReader } = require('../readers/xlsx') as typeof import('../readers/xlsx');
    xlsx ??= createXlsxReader({
      sheetOrder: RV_TABS.map(sheetPattern),
      requiredSheets: [{ test: sheetPattern('vInfo'), name: 'vInfo' }],
      limits,
    });
    return xlsx(bytes, ctx);
  };
  return rvtoolsReader(workbook, (_file, sheet) => (sheet === undefined ? undefined : tabOf(sheet)));
}

export const RVTOOLS_XLSX_FILE = /\.xlsx$/i;

export const rvtoolsXlsxKinds = rvtoolsKinds((tab) => ({
  title: `sheet ${tab}`,
  fileName: RVTOOLS_XLSX_FILE,
  sheetName: sheetPattern(tab),
}));

export function rvtoolsXlsxFormat(limits?: Partial<XlsxLimits>): FormatDefinition<RvChildren> {
  return {
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    label: 'RVTools XLSX',
    description:
      'A VM-inventory-tool (RVTools 3.x or 4.x) "Export all to xlsx" workbook: sheet vInfo (required), vCPU, vMemory, vDisk, vPartition and vNetwork (optional); other sheets are ignored.',
    fileKinds: rvtoolsXlsxKinds,
    reader: rvtoolsXlsxReader(limits),
    assets: rvtoolsAssets,
  };
}

export const rvtoolsXlsx: FormatDefinition<RvChildren> = rvtoolsXlsxFormat();
