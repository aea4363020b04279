/**
 * The machine ids and host names of the benches' generated inventories.
 *
 * Real exports carry random ids: VMware's BIOS UUIDs (`42xxxxxx-xxxx-...`, RVTools' `VM UUID`) in
 * no order, and host names that do not sort in the file's order either. An asset's id, its
 * `vmUuid` and its `vmName` each have an index, and keys that arrive in order only ever append to
 * the end of their B-tree, which random keys do not: ordered ids flatter the writer (about twice
 * as fast on 600,000 rows, docs/benchmarks.md). So the benches generate random ids by default,
 * from a seeded generator (the same file for the same seed), and ordered ones (`vm-00000001`,
 * `host-1`) on request, to compare with the figures measured before.
 */

/** One machine's identity: its `MachineId` and its `MachineName`. */
export interface MachineIdentity {
  id: string;
  name: string;
}

export type MachineIdKind = 'random' | 'ordered';

/** The seed the benches use unless told another (ASSETS_BENCH_SEED in the assets bench). */
export const DEFAULT_SEED = 27;

const NAME_PREFIXES = ['web', 'db', 'app', 'srv', 'k8s-node', 'ci', 'cache', 'mq'];

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, so 600,000
 * UUIDs of 120 random bits each never repeat in practice, and a few 32-bit operations a number.
 * Not for anything but test data.
 */
function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs still show the constant state: skip them.
  for (let i = 0; i < 15; i++) next();
  return next;
}

function hex(n: number, digits: number): string {
  return n
    .toString(16)
    .padStart(8, '0')
    .slice(8 - digits);
}

/**
 * The identities of machines 1, 2, 3, ... in the file's order, one call a machine (`i` counts
 * from 1). Random: a VMware-like UUID (`42` and 30 random hex digits, lowercase) and a name such
 * as `web-3f9a2c`; names may repeat, as in real inventories, UUIDs do not.
 */
export function machineIdentities(kind: MachineIdKind, seed = DEFAULT_SEED): (i: number) => MachineIdentity {
  if (kind === 'ordered') return (i) => ({ id: `vm-${String(i).padStart(8, '0')}`, name: `host-${i}` });
  const random = sfc32(seed);
  return () => {
    const a = random();
    const b = random();
    const c = random();
    const d = random();
    const e = random();
    const id = `42${hex(a, 6)}-${hex(b >>> 16, 4)}-${hex(b, 4)}-${hex(c >>> 16, 4)}-${hex(c, 4)}${hex(d, 8)}`;
    const name = `${NAME_PREFIXES[e & 7]}-${hex(e >>> 8, 6)}`;
    return { id, name };
  };
}

/** The kind of ids a bench's environment asks for (`random` unless `ordered`), for its printout too. */
export function machineIdKind(value: string | undefined): MachineIdKind {
  if (value === undefined || value === '' || value === 'random') return 'random';
  if (value === 'ordered') return 'ordered';
  throw new Error(`machine ids must be random or ordered, not ${value}`);
}
