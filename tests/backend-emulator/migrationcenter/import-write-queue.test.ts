/**
 * The request thread writes a run's batches one per turn of its event loop (import-thread.ts
 * WriteQueue), so the requests that arrive meanwhile are read between two batches, whatever the
 * number of batches the import worker has sent. A turn is observed with an immediate queued after
 * the batches: it runs in the same check phase as the first write, before the next one.
 */
import { WriteQueue } from '../../../backend-emulator/migrationcenter/import-jobs/import-thread';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';

const batch = (id: string): AssetRow[] => [{ id, labels: {}, body: '{}' }];
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('three batches that arrive together are written in three turns, in order', async () => {
  const written: string[] = [];
  const queue = new WriteQueue((rows) => {
    written.push(rows[0].id);
    return true;
  });
  queue.push(batch('a'));
  queue.push(batch('b'));
  queue.push(batch('c'));
  expect(written).toEqual([]);
  await nextTurn();
  expect(written).toEqual(['a']);
  await nextTurn();
  expect(written).toEqual(['a', 'b']);
  await nextTurn();
  expect(written).toEqual(['a', 'b', 'c']);
  await nextTurn();
  expect(written).toEqual(['a', 'b', 'c']);
});

test('a write that says the job is over drops the batches still queued', async () => {
  const written: string[] = [];
  const queue = new WriteQueue((rows) => {
    written.push(rows[0].id);
    return false;
  });
  queue.push(batch('a'));
  queue.push(batch('b'));
  for (let i = 0; i < 4; i++) await nextTurn();
  expect(written).toEqual(['a']);
});

test('a batch pushed after the queue ran dry is written on the next turn', async () => {
  const written: string[] = [];
  const queue = new WriteQueue((rows) => {
    written.push(rows[0].id);
    return true;
  });
  queue.push(batch('a'));
  await nextTurn();
  await nextTurn();
  queue.push(batch('b'));
  await nextTurn();
  expect(written).toEqual(['a', 'b']);
});

test('flush writes every batch still queued at once, in order, and stops where a write says the job is over', async () => {
  const written: string[] = [];
  const queue = new WriteQueue((rows) => {
    written.push(rows[0].id);
    return rows[0].id !== 'c';
  });
  for (const id of ['a', 'b', 'c', 'd']) queue.push(batch(id));
  queue.flush();
  expect(written).toEqual(['a', 'b', 'c']);
  // Nothing is left for a later turn: 'd' was dropped with the job's end.
  for (let i = 0; i < 3; i++) await nextTurn();
  expect(written).toEqual(['a', 'b', 'c']);
});
