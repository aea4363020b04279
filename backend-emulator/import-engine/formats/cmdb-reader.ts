/**
 * The CMDB reader: the shared CSV reader plus what real ServiceNow list exports need.
 *
 * - An export of a table that holds no servers (`cmdb_ci_netgear.csv`) is named for what it is and
 *   not read (INFO).
 * - Server files get the join column `CI key`: the row's `sys_id`, else its name (list exports
 *   rarely carry `sys_id`). Rows whose class is not a server (`Network Gear` in a `cmdb_ci.csv`
 *   export of the base table) are skipped with an INFO.
 * - Disk rows get the `CI key` of the server their `computer` names, by `sys_id` or by name (a list
 *   export writes a reference field's display value, the server's name). A name two servers share
 *   resolves nothing (ERROR); a `computer` no server has is an ERROR naming both keys tried.
 * - Numbers with thousands separators (`32,768`, ServiceNow's display form) lose the separators.
 *
 * The server files are read before the disk file (the pipeline reads the key kind first); the
 * index of their keys lives in the run's reader state.
 */
import { clip, isEmptyCell, normaliseHeader } from '../columns';
import { csvReader } from '../readers/csv';
import { combineIssues, error, info, warning, type ImportError } from '../report';
import type { CellValue, ColumnSpec, Reader, ReaderEvent, ReaderRowIssue } from '../types';
import { flat } from '../util';
import { isOtherClass, OTHER_TABLE_FILE, OTHER_TABLES, tableOfFile } from './servicenow-tables';

const AMBIGUOUS = Symbol('ambiguous');

/** The servers' keys, for the disk rows: `sys_id` and name -> CI key. */
interface ServerIndex {
  bySysId: Map<string, string>;
  byName: Map<string, string | typeof AMBIGUOUS>;
  /** CI key -> where it was first seen (`row 2 of cmdb_ci_server.csv`). */
  firstRow: Map<string, string>;
  /** Server files being read, and whether one of them could not be read to its end. */
  open: number;
  failed: boolean;
}

const STATE = 'cmdb-servers';

function indexOf(state: Map<string, unknown> | undefined): ServerIndex {
  let idx = state?.get(STATE) as ServerIndex | undefined;
  if (!idx) {
    idx = { bySysId: new Map(), byName: new Map(), firstRow: new Map(), open: 0, failed: false };
    state?.set(STATE, idx);
  }
  return idx;
}

const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const NUMERIC_COLUMNS = ['cpu_count', 'cpu_core_count', 'ram', 'disk_space', 'size_bytes', 'free_space_bytes'];

function positions(header: readonly string[], columns: readonly ColumnSpec[], name: string): number {
  const spec = columns.find((c) => c.name === name);
  const names = [name, ...(spec?.aliases ?? [])].map(normaliseHeader);
  return header.findIndex((h) => names.includes(h));
}

const text = (v: CellValue): string => (v === undefined || v === null ? '' : String(v).trim());

/** The reader for the server and disk templates of cmdb.ts (passed in: cmdb.ts depends on this module). */
export function createCmdbReader(key: string, serverColumns: readonly ColumnSpec[], diskColumns: readonly ColumnSpec[]): Reader {
  return async function* cmdbReader(bytes, ctx): AsyncGenerator<ReaderEvent> {
    if (OTHER_TABLE_FILE.test(ctx.fileName) && !/^cmdb_ci_disk\b/i.test(ctx.fileName)) {
      const table = tableOfFile(ctx.fileName) ?? ctx.fileName;
      yield {
        type: 'fileIssue',
        issue: info(`${ctx.fileName} is a ServiceNow export of table ${table} (${OTHER_TABLES[table] ?? 'not servers'}), not servers: not read`),
        fatal: true,
      };
      return;
    }
    const disks = /^cmdb_ci_disk\b/i.test(ctx.fileName);
    const idx = indexOf(ctx.runState);
    const columns = disks ? diskColumns : serverColumns;
    let sysId = -1;
    let name = -1;
    let cls = -1;
    let computer = -1;
    let numeric: number[] = [];
    let headerLength = 0;
    let finished = false;
    if (!disks) idx.open++;
    try {
      for await (const ev of csvReader(bytes, ctx)) {
        if (ev.type === 'table') {
          const norm = ev.header.map((h) => normaliseHeader(String(h ?? '')));
          sysId = positions(norm, columns, 'sys_id');
          name = positions(norm, columns, 'name');
          cls = positions(norm, columns, 'sys_class_name');
          computer = positions(norm, columns, 'computer');
          numeric = NUMERIC_COLUMNS.map((c) => positions(norm, columns, c)).filter((i) => i >= 0);
          headerLength = ev.header.length;
          yield { ...ev, header: [...ev.header, key] };
          continue;
        }
        if (ev.type !== 'rows') {
          yield ev;
          continue;
        }
        const rows: CellValue[][] = [];
        const rowNumbers: number[] = [];
        const issues: ReaderRowIssue[] = [];
        const innerIssues = new Map((ev.issues ?? []).map((i) => [i.rowNumber, i.issue]));
        for (let r = 0; r < ev.rows.length; r++) {
          const row = ev.rows[r];
          const rowNumber = ev.rowNumbers ? ev.rowNumbers[r] : ev.firstRow + r;
          if (row.every(isEmptyCell)) continue;
          for (const c of numeric) {
            const v = row[c];
            if (typeof v === 'string' && THOUSANDS.test(v.trim())) row[c] = v.trim().replace(/,/g, '');
          }
          let rowKey: string | undefined;
          let problem: string | undefined;
          if (disks) {
            const ref = computer >= 0 ? text(row[computer]) : '';
            if (ref !== '') {
              const bySys = idx.bySysId.get(ref);
              const byName = idx.byName.get(ref);
              if (bySys !== undefined) rowKey = bySys;
              else if (byName === AMBIGUOUS) problem = `computer "${clip(ref)}" is the name of several servers: give the server's sys_id instead`;
              else if (byName !== undefined) rowKey = byName;
              else if (idx.open > 0 || idx.failed)
                rowKey = ref; // servers not all read: left to the pipeline's note
              else problem = `computer "${clip(ref)}" names no server of the server files (neither a sys_id nor a name)`;
            }
          } else {
            const c = cls >= 0 ? text(row[cls]) : '';
            if (c !== '' && isOtherClass(c)) {
              yield { type: 'rowIssue', rowNumber, issue: info(`the row is of class "${clip(c)}", not a server: it is skipped`) };
              continue;
            }
            const id = sysId >= 0 ? text(row[sysId]) : '';
            const n = name >= 0 ? text(row[name]) : '';
            rowKey = id !== '' ? id : n !== '' ? n : undefined;
            const here = `row ${rowNumber} of ${ctx.fileName}`;
            const first = rowKey === undefined ? undefined : idx.firstRow.get(rowKey);
            // The same row seen again is a second pass over the file (execution), not a duplicate.
            if (rowKey !== undefined && first !== undefined && first !== here) {
              // Reported here, in the words of the file (the pipeline would name the derived CI key).
              const what = id !== '' ? 'sys_id' : 'name';
              const why = id === '' && sysId < 0 ? ' (without a sys_id column, servers are identified by name)' : '';
              problem = `${what} "${clip(rowKey)}" is a duplicate: ${first} has the same ${what}${why}`;
              rowKey = undefined;
            } else if (rowKey !== undefined) {
              idx.firstRow.set(flat(rowKey), here);
              if (id !== '') idx.bySysId.set(flat(id), flat(rowKey));
              if (n !== '') {
                const seen = idx.byName.get(n);
                if (seen === undefined) idx.byName.set(flat(n), flat(rowKey));
                else if (seen !== rowKey) idx.byName.set(flat(n), AMBIGUOUS);
              }
            }
          }
          const list: ImportError[] = [innerIssues.get(rowNumber), problem === undefined ? undefined : error(problem)].filter((i) => i !== undefined);
          // The key goes right after the header's columns (a short row is padded to the header, and
          // the pipeline's warning about it is given here); surplus fields stay after the key.
          if (row.length < headerLength) {
            list.push(warning(`the row has ${row.length} fields but the header has ${headerLength}; the missing fields are taken as empty`));
          }
          if (list.length > 0) issues.push({ rowNumber, issue: combineIssues(list) });
          const out: CellValue[] = row.slice(0, headerLength);
          while (out.length < headerLength) out.push(undefined);
          out.push(rowKey);
          for (let c = headerLength; c < row.length; c++) out.push(row[c]);
          rows.push(out);
          rowNumbers.push(rowNumber);
        }
        if (rows.length > 0) yield { type: 'rows', firstRow: rowNumbers[0], rows, rowNumbers, issues: issues.length > 0 ? issues : undefined };
      }
      finished = true;
    } finally {
      if (!disks) {
        idx.open--;
        if (!finished) idx.failed = true;
      }
    }
  };
}
