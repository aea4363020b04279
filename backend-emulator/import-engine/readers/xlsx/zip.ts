/** The shared zip modules (../zip/) bound to the workbook's dialect: what the workbook stages import. */
import type { ZipSource } from '../zip-source';
import { InflateBudget as ZipInflateBudget, inflateEntry } from '../zip/inflate';
import { readZipDirectory as readDirectory, zipSourceOf, type ZipEntry } from '../zip/directory';
import { WORKBOOK_DIALECT } from './errors';
import type { XlsxLimits } from './limits';

export { inflateEntry, zipSourceOf, type ZipEntry };

/** A workbook's inflate budget: its limits include the XML bounds the part readers need. */
export type InflateBudget = ZipInflateBudget<XlsxLimits>;

/** The workbook's central directory; keys are lower-cased part names (OPC part names ignore case). */
export function readZipDirectory(input: Buffer | ZipSource, limits: XlsxLimits): Map<string, ZipEntry> {
  return readDirectory(input, limits, WORKBOOK_DIALECT);
}

/** A budget for one workbook: its total cap, its messages. */
export function workbookBudget(limits: XlsxLimits): InflateBudget {
  return new ZipInflateBudget(limits, WORKBOOK_DIALECT);
}
