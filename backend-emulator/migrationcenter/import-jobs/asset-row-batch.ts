/**
 * A batch of stored asset rows in the form that crosses a thread boundary cheaply: one array per
 * field instead of one object per asset. A structured clone of 500 objects costs about 2.5 times
 * what the same values cost as a few arrays (measured with v8.serialize / deserialize), and the
 * run's writer thread (run-writer-thread.ts) pays the receiving half on the slower of the run's two
 * stages. Labels, empty on nearly every imported asset, are null then: an empty object still costs
 * a clone of its own.
 *
 * The arrays are built dense (pushed, never `new Array(n)`): V8 clones an array with holes, which
 * `new Array(n)` has until every slot is filled and keeps marked after, element by element as
 * index and value, and the receiving side re-adds each through the generic element path. The
 * numeric columns are Float64Arrays (a clone copies their bytes), NaN standing for an absent
 * value: the columns hold safe integers only (assets.ts `assetRow`). The 400 batches of 200,000
 * rows of the assets bench's full shape: the writer's deserialize and unpack 0.13 to 0.19 CPU-s
 * against 0.24 to 0.58 with holey arrays.
 */
import type { AssetRow } from '../../store/asset-store';

export interface AssetRowBatch {
  id: string[];
  vmName: Array<string | null>;
  vmUuid: Array<string | null>;
  /** NaN where the row has none (as memoryMb and diskBytes). */
  coreCount: Float64Array;
  memoryMb: Float64Array;
  osFamily: Array<string | null>;
  powerState: Array<string | null>;
  diskBytes: Float64Array;
  labels: Array<Record<string, string> | null>;
  body: string[];
}

function hasKeys(o: Record<string, string>): boolean {
  for (const _ in o) return true;
  return false;
}

export function packRows(rows: readonly AssetRow[]): AssetRowBatch {
  const n = rows.length;
  const batch: AssetRowBatch = {
    id: [],
    vmName: [],
    vmUuid: [],
    coreCount: new Float64Array(n),
    memoryMb: new Float64Array(n),
    osFamily: [],
    powerState: [],
    diskBytes: new Float64Array(n),
    labels: [],
    body: [],
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    batch.id.push(r.id);
    batch.vmName.push(r.vmName ?? null);
    batch.vmUuid.push(r.vmUuid ?? null);
    batch.coreCount[i] = r.coreCount ?? NaN;
    batch.memoryMb[i] = r.memoryMb ?? NaN;
    batch.osFamily.push(r.osFamily ?? null);
    batch.powerState.push(r.powerState ?? null);
    batch.diskBytes[i] = r.diskBytes ?? NaN;
    batch.labels.push(hasKeys(r.labels) ? r.labels : null);
    batch.body.push(r.body);
  }
  return batch;
}

const orAbsent = (v: number): number | undefined => (Number.isNaN(v) ? undefined : v);

/** The rows of a packed batch, as packRows was given them (an absent field stays absent). */
export function unpackRows(batch: AssetRowBatch): AssetRow[] {
  const rows: AssetRow[] = new Array(batch.id.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = {
      id: batch.id[i],
      vmName: batch.vmName[i] ?? undefined,
      vmUuid: batch.vmUuid[i] ?? undefined,
      coreCount: orAbsent(batch.coreCount[i]),
      memoryMb: orAbsent(batch.memoryMb[i]),
      osFamily: batch.osFamily[i] ?? undefined,
      powerState: batch.powerState[i] ?? undefined,
      diskBytes: orAbsent(batch.diskBytes[i]),
      labels: batch.labels[i] ?? {},
      body: batch.body[i],
    };
  }
  return rows;
}
