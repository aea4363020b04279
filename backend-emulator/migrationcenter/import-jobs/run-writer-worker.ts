/**
 * The run's writer thread: a worker thread, started by the import worker for each run on a
 * file-backed store (run-writer-thread.ts), that writes the run's batches on its own connection
 * (run-writer.ts) while the import worker reads, checks and builds the next ones. A run's time is
 * then that of the slower of the two stages, not their sum.
 *
 * Batches arrive in order and are written in order, each in its transaction. After a refusal or a
 * failure nothing more is written. A batch that arrives once the stop cell is set (the run was
 * stopped) is dropped unwritten: the cell is read before each batch, so a stop waits for at most
 * the batch under way, never for the batches queued behind it. `close` ends the thread.
 */
import { parentPort, workerData } from 'worker_threads';
import { unpackRows } from './asset-row-batch';
import type { FromRunWriter, RunWriterData, ToRunWriter } from './import-worker-protocol';
import { RunRefused, RunWriter } from './run-writer';

const port = parentPort;
if (!port) throw new Error('run-writer-worker.ts runs in a worker thread (run-writer-thread.ts starts it)');

const { target, stop } = workerData as RunWriterData;
const stopped = new Int32Array(stop);
const writer = new RunWriter(target);
let ended = false;

const send = (message: FromRunWriter) => port.postMessage(message);

port.on('message', (message: ToRunWriter) => {
  if (message.type === 'close') {
    writer.close();
    port.close();
    return;
  }
  if (ended || Atomics.load(stopped, 0) !== 0) return;
  try {
    send({ type: 'stored', framesWritten: writer.write(unpackRows(message.rows)) });
  } catch (err) {
    ended = true;
    if (err instanceof RunRefused) send({ type: 'refused', reason: err.reason });
    else send({ type: 'failed', message: (err as Error)?.message ?? String(err) });
  }
});
