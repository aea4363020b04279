/**
 * The temporary folders of an emulator without a data dir carry their process id, and the next
 * one to start removes those of processes that are gone (a kill -9 runs no close()).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeTempFolder, sweepOrphanedTempFolders } from '../../backend-emulator/temp-folders';
import { startEmulator } from '../../backend-emulator';

/** The id of a process that has ended (a child that ran and exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test("a folder of a process that is gone is removed; this process's, another kind's and other names stay", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  const make = (name: string) => fs.mkdirSync(path.join(dir, name, 'files'), { recursive: true });
  const gone = `google-native-local-data-files-${deadPid()}-abc`;
  const mine = `google-native-local-data-files-${process.pid}-def`;
  const otherKind = `google-native-local-storage-${deadPid()}-ghi`;
  const older = 'google-native-local-data-files-XyZ123';
  for (const name of [gone, mine, otherKind, older, 'unrelated']) make(name);
  expect(sweepOrphanedTempFolders('data-files', dir)).toEqual([gone]);
  expect(fs.readdirSync(dir).sort()).toEqual([mine, otherKind, older, 'unrelated'].sort());
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an in-memory emulator keeps its data files in a folder named after its process, removed on close', async () => {
  const orphan = path.join(os.tmpdir(), `google-native-local-data-files-${deadPid()}-orphan`);
  fs.mkdirSync(path.join(orphan, 'files'), { recursive: true });
  const emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  try {
    // Starting swept the orphan; its own folder is there, named after this process.
    expect(fs.existsSync(orphan)).toBe(false);
    const own = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`google-native-local-data-files-${process.pid}-`));
    expect(own.length).toBeGreaterThan(0);
  } finally {
    await emulator.close();
  }
  const made = makeTempFolder('data-files');
  expect(path.basename(made)).toMatch(new RegExp(`^google-native-local-data-files-${process.pid}-`));
  fs.rmSync(made, { recursive: true, force: true });
});
