/**
 * Joins the rows of the RVTools child tabs (vCPU, vMemory, vDisk, vPartition, vNetwork) to their
 * vInfo row on the strongest identifier both tables carry.
 *
 * RVTools versions and trimmed exports do not agree on the identifier columns: 4.x vInfo has
 * `VM ID` and `VM UUID` but some 4.x child tabs have neither, 3.x files may lack both, and VM names
 * repeat across datacenters and vCenters. So vInfo registers every key a row offers (`VM ID`,
 * `VM ID` + `VI SDK Server`, `VM UUID`, and the VM name alone or with `Datacenter`/`Host`), and a
 * child table picks, from the identifier columns both headers carry, the keys to try in order:
 * VM ID, then VM UUID, then the VM name. A child row resolves to the vInfo row's own key (`VM key`)
 * through the first key that names exactly one VM.
 *
 * Datacenter and host are tie-breakers only: they are tried when the VM name alone names several
 * VMs, never when it names one. Anonymised exports and VMs moved by vMotion during the export give
 * the same VM another `Host` in another tab, so a unique name must match on its own (issue 26).
 *
 * A row no key resolves is reported with the keys tried; the result says whether the row is an
 * orphan (every key tried named no VM at all: a VM missing from vInfo, the workbook was filtered or
 * split) or a row whose keys name several VMs. The reader decides what each costs.
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

/** A key a child table tries, and the qualified keys that break a tie when it names several VMs. */
interface Strategy {
  parts: Part[];
  tieBreakers: Part[][];
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

/**
 * The vInfo key of a child row, or why there is none: `orphan` when no key tried named any VM (the
 * row's VM is not in vInfo), false when a key named several VMs or the row has no key value.
 */
export type JoinResult = { key: string; template: boolean } | { error: string; orphan: boolean } | undefined;

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
    if (both('vmId')) out.push({ parts: both('server') ? ['vmId', 'server'] : ['vmId'], tieBreakers: [] });
    if (both('uuid')) out.push({ parts: ['uuid'], tieBreakers: [] });
    if (both('name')) {
      // Strongest first: datacenter and host, then each alone (a VM moved to another host keeps its datacenter).
      const tieBreakers = VINFO_KEYS.filter((k) => k[0] === 'name' && k.length > 1 && k.every(both));
      out.push({ parts: ['name'], tieBreakers });
    }
    return out;
  }

  /** Resolves one child row (`cells` in the IdColumns positions order: see `idCells`). */
  resolve(strategies: readonly Strategy[], cells: readonly string[]): JoinResult {
    if (strategies.length === 0 || !this.complete) return undefined;
    const tried: string[] = [];
    let ambiguous = false;
    for (const s of strategies) {
      const k = keyOf(s.parts, cells);
      if (k === undefined) continue;
      const t = this.targets.get(k);
      if (t !== undefined && t !== AMBIGUOUS) return t;
      if (t === undefined) {
        tried.push(describe(s.parts, cells));
        continue;
      }
      ambiguous = true;
      tried.push(`${describe(s.parts, cells)} (names several VMs)`);
      // A tie: the qualifiers both tabs carry decide between the VMs of that name.
      for (const parts of s.tieBreakers) {
        const q = this.targets.get(keyOf(parts, cells)!);
        if (q !== undefined && q !== AMBIGUOUS) return q;
        tried.push(`${describe(parts, cells)}${q === AMBIGUOUS ? ' (names several VMs)' : ''}`);
      }
    }
    if (tried.length === 0) {
      const names = strategies.map((s) => s.parts.map((p) => HEADER_OF[p]).join(' + ')).join(', ');
      return { error: `the row has no value in the columns that join it to vInfo (${names})`, orphan: false };
    }
    return { error: `the row matches no VM of vInfo: tried ${tried.join('; then ')}`, orphan: !ambiguous };
  }
}

/** How a key reads in messages: its parts that have a value. */
function describe(parts: readonly Part[], cells: readonly string[]): string {
  return parts
    .filter((p) => cells[PARTS.indexOf(p)] !== '')
    .map((p) => `${HEADER_OF[p]} "${clip(cells[PARTS.indexOf(p)], 64)}"`)
    .join(' + ');
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
