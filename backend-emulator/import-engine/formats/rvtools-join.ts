/**
 * Joins the rows of the RVTools child tabs (vCPU, vMemory, vDisk, vPartition, vNetwork) to their
 * vInfo row on the strongest identifier both tables carry.
 *
 * RVTools versions and trimmed exports do not agree on the identifier columns: 4.x vInfo has
 * `VM ID` and `VM UUID` but some 4.x child tabs have neither, 3.x files may lack both, and VM names
 * repeat across datacenters and vCenters. So vInfo registers every key a row offers (`VM ID`,
 * `VM ID` + `VI SDK Server`, `VM UUID`, and the VM name alone or with `Datacenter`/`Host`), and a
 * child table picks, from the identifier columns both headers carry, the keys to try in order:
 * VM ID, then VM UUID, then the VM name (with datacenter and host where both tabs have them). A
 * child row resolves to the vInfo row's own key (`VM key`) through the first key that names exactly
 * one VM; a key two VMs share resolves nothing. A row no key resolves is an ERROR naming the keys
 * tried.
 *
 * One `VmJoin` lives for one import run (XLSX: the sheets of one workbook; CSV: the tab files of
 * one payload, read vInfo first).
 */
import { clip } from '../columns';
import { flat } from '../util';

/** The identifier columns of a header (positions; -1 when absent). */
export interface IdColumns {
  vmId: number;
  server: number;
  uuid: number;
  name: number;
  datacenter: number;
  host: number;
}

type Part = 'vmId' | 'server' | 'uuid' | 'name' | 'datacenter' | 'host';

/** A key a child table tries: its parts and how they read in messages. */
interface Strategy {
  parts: Part[];
}

const HEADER_OF: Record<Part, string> = {
  vmId: 'VM ID',
  server: 'VI SDK Server',
  uuid: 'VM UUID',
  name: 'VM',
  datacenter: 'Datacenter',
  host: 'Host',
};

/** Every key vInfo registers, strongest first (a child table uses the ones its header allows). */
const VINFO_KEYS: Part[][] = [['vmId', 'server'], ['vmId'], ['uuid'], ['name', 'datacenter', 'host'], ['name', 'datacenter'], ['name', 'host'], ['name']];

const AMBIGUOUS = Symbol('ambiguous');

interface Target {
  key: string;
  template: boolean;
}

/** The vInfo key of a child row, or why there is none. */
export type JoinResult = { key: string; template: boolean } | { error: string } | undefined;

export class VmJoin {
  private readonly targets = new Map<string, Target | typeof AMBIGUOUS>();
  private vInfo?: IdColumns;
  /** False until the vInfo table was read to its end: unresolved rows are then left to the pipeline. */
  complete = false;

  startVInfo(columns: IdColumns): void {
    this.vInfo = columns;
    this.targets.clear();
    this.complete = false;
  }

  /** Registers one vInfo row under every key it offers. */
  addVm(cells: readonly string[], key: string, template: boolean): void {
    for (const parts of VINFO_KEYS) {
      const k = keyOf(parts, cells);
      if (k === undefined) continue;
      const seen = this.targets.get(k);
      if (seen === undefined) this.targets.set(k, { key: flat(key), template });
      else if (seen !== AMBIGUOUS && seen.key !== key) this.targets.set(k, AMBIGUOUS);
    }
  }

  /** The keys a child table with `child` columns tries, strongest first; empty without a vInfo. */
  strategies(child: IdColumns): Strategy[] {
    const v = this.vInfo;
    if (!v) return [];
    const both = (p: Part) => v[p] >= 0 && child[p] >= 0;
    const out: Strategy[] = [];
    if (both('vmId')) out.push({ parts: both('server') ? ['vmId', 'server'] : ['vmId'] });
    if (both('uuid')) out.push({ parts: ['uuid'] });
    if (both('name')) out.push({ parts: ['name', ...(['datacenter', 'host'] as Part[]).filter(both)] });
    return out;
  }

  /** Resolves one child row (`cells` in the IdColumns positions order: see `idCells`). */
  resolve(strategies: readonly Strategy[], cells: readonly string[]): JoinResult {
    if (strategies.length === 0 || !this.complete) return undefined;
    const tried: string[] = [];
    for (const s of strategies) {
      const k = keyOf(s.parts, cells);
      if (k === undefined) continue;
      const t = this.targets.get(k);
      const text = s.parts
        .filter((p) => cells[PARTS.indexOf(p)] !== '')
        .map((p) => `${HEADER_OF[p]} "${clip(cells[PARTS.indexOf(p)], 64)}"`)
        .join(' + ');
      if (t === AMBIGUOUS) tried.push(`${text} (names several VMs)`);
      else if (t !== undefined) return t;
      else tried.push(text);
    }
    if (tried.length === 0) {
      const names = strategies.map((s) => s.parts.map((p) => HEADER_OF[p]).join(' + ')).join(', ');
      return { error: `the row has no value in the columns that join it to vInfo (${names})` };
    }
    return { error: `the row matches no VM of vInfo: tried ${tried.join('; then ')}` };
  }
}

const PARTS: Part[] = ['vmId', 'server', 'uuid', 'name', 'datacenter', 'host'];

/** A row's identifier cells in `PARTS` order ('' when the column is absent or blank). */
export function idCells(columns: IdColumns, text: (i: number) => string): string[] {
  return PARTS.map((p) => (columns[p] >= 0 ? text(columns[p]) : ''));
}

/** A key from the given parts; undefined when the identifying part (the first) is blank. */
function keyOf(parts: readonly Part[], cells: readonly string[]): string | undefined {
  const values = parts.map((p) => cells[PARTS.indexOf(p)]);
  if (values[0] === '') return undefined;
  // A qualifier part (server, datacenter, host) blank in the row still counts: both tabs have the
  // column, and both rows say the same (nothing).
  return parts.map((p, i) => `${p}=${values[i]}`).join('\u0000');
}
