/**
 * The streaming XLSX (Office Open XML workbook) reader: the public face of the modules beside it.
 *
 * Why not exceljs' WorkbookReader: it inflates zip entries through `unzipper` with no bound on the
 * inflated size (a zip bomb fills memory or the temp directory), it spools every worksheet that
 * precedes `sharedStrings.xml` in the archive to a temp file (Excel writes the sheets first), and it
 * finds sheets by the `sheetN.xml` naming convention instead of the workbook's relationships. This
 * reader keeps exceljs' model (stream the sheet XML, deliver rows) with every bound explicit
 * (limits.ts), one stage per module:
 *
 * 1. Zip: the compressed bytes stay as the pieces they arrived in, in memory or an unlinked temp
 *    file (../zip-source.ts), and are read through the central directory (../zip/directory.ts): only
 *    stored and deflated entries; encrypted, multi-disk and overlapping entries are refused.
 * 2. Inflate (../zip/inflate.ts): each entry is inflated as a stream of 256 KiB pieces, bounded by its
 *    declared size, the per-entry cap and the workbook's remaining total, and CRC-checked.
 * 3. XML (xml-scanner.ts, part-xml.ts): a small pull scanner; a DOCTYPE is refused, no entity is
 *    ever expanded, held text and unfinished markup are bounded.
 * 4. Parts: relationships (package-parts.ts), shared strings (shared-strings-part.ts, stored by
 *    ../shared-strings.ts), date styles (date-styles.ts), the workbook and its sheets (workbook.ts).
 * 5. Sheets: merged ranges by a fast byte scan (merges.ts), rows by an XML handler (sheet-rows.ts),
 *    tables and reader events (reader.ts, row-order.ts). Sheets are read in the order the caller
 *    asks; unrequested sheets are never inflated.
 */
export { columnIndex, columnName, rangeRows, MAX_COLUMNS, MAX_ROWS } from './cell-refs';
export { excelSerialToDate, isDateFormat } from './date-styles';
export { XlsxError, type XlsxErrorCode } from './errors';
export { inflateEntry, workbookBudget, type InflateBudget } from './zip';
export { DEFAULT_XLSX_LIMITS, type XlsxLimits } from './limits';
export { createXlsxReader, type XlsxReaderOptions } from './reader';
export type { SheetBatch } from './sheet-rows';
export { XlsxWorkbook, type SheetInfo } from './workbook';
export { XmlScanner, attr, decodeEntities, type XmlHandler } from './xml-scanner';
export { readZipDirectory, type ZipEntry } from './zip';
