/**
 * The warm-up of a ready import worker (import-thread.ts keeps one for an emulator's life): one
 * validation of a small vmInfo.csv generated from the manual format's template, before any job
 * comes.
 *
 * V8 runs a new thread's code in its interpreter until each function has been called often enough
 * to be compiled, and compiles it on helper threads. A 600,000-row :validate in a new worker cost
 * 0.4 CPU-s more on the worker (its first 100,000 rows twice what they cost in a worker that had
 * run one job) and 0.3 CPU-s more on V8's helper threads. The reader's and the checks' code are the
 * same for every CSV format, so a few thousand rows of one get them compiled, while the worker has
 * nothing else to do. A job that comes meanwhile stops it (`signal`). A run is not warmed up: its
 * writer thread, not this worker, sets its pace, and a run's pass would grow the idle worker's
 * young generation from 8 to 16 MB (about 15 MB more RSS for good).
 */
import { Readable } from 'stream';
import * as engine from '../../import-engine';
import type { ColumnSpec } from '../../import-engine/types';

/** Rows: enough that the hot functions are compiled (V8 optimises after some thousand calls). */
const WARM_UP_ROWS = 4_000;

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A vmInfo.csv of `rows` machines: the template's example values, every other row with half its
 * optional cells empty and a `2024-01-15 10:00:00` date, half the file with CRLF line endings:
 * the shapes real inventories have, so the code compiled expects them.
 */
export function warmUpVmInfo(rows: number): Buffer {
  const definition = engine.listFormats().find((d) => d.format === FORMAT);
  const kind = definition?.fileKinds.find((k) => k.kind === definition.assets.machineKind);
  if (!kind) throw new Error(`the ${FORMAT} format has no machine file kind`);
  const columns = engine.fileColumns(kind);
  const cell = (c: ColumnSpec, column: number, i: number, lean: boolean): string => {
    if (c.name === kind.key) return `warm-up-${i}`;
    if (lean && c.type === 'timestamp') return '2024-01-15 10:00:00';
    if (lean && c.presence !== 'required' && column % 2 === 1) return '';
    return csvCell(c.example ?? '');
  };
  const lines = [columns.map((c) => c.name).join(',')];
  for (let i = 1; i <= rows; i++) lines.push(columns.map((c, column) => cell(c, column, i, i % 2 === 0)).join(','));
  const half = Math.ceil(lines.length / 2);
  return Buffer.from(`${lines.slice(0, half).join('\r\n')}\r\n${lines.slice(half).join('\n')}\n`);
}

/** Validates the warm-up file; resolves (never rejects) when done or stopped. */
export async function warmUp(signal: AbortSignal): Promise<void> {
  const bytes = warmUpVmInfo(WARM_UP_ROWS);
  const files = [{ name: 'vmInfo.csv', size: bytes.length, open: () => Readable.from([bytes]) }];
  try {
    await engine.validateImport(FORMAT, files, { signal });
  } catch {
    // Stopped by a job, or failed: either way the worker only runs colder.
  }
}
