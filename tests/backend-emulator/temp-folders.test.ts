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
import { DataFileBytes } from '../../backend-emulator/migrationcenter/import-data-files/data-file-bytes';
import { Readable } from 'stream';

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

test('an in-memory emulator sweeps the orphans when it starts; its data files folder, named after its process, is made at the first upload and removed on close', async () => {
  const orphan = path.join(os.tmpdir(), `google-native-local-data-files-${deadPid()}-orphan`);
  fs.mkdirSync(path.join(orphan, 'files'), { recursive: true });
  const own = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`google-native-local-data-files-${process.pid}-`));
  const emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  try {
    // Starting swept the orphan; its own folder waits for a file to hold.
    expect(fs.existsSync(orphan)).toBe(false);
    expect(own()).toEqual([]);
  } finally {
    await emulator.close();
  }
  const bytes = new DataFileBytes(undefined);
  expect(own()).toEqual([]);
  const upload = await bytes.receive(Readable.from([Buffer.from('MachineId\n')]));
  expect(own()).toHaveLength(1);
  expect(path.dirname(path.dirname(upload.tempPath))).toBe(path.join(os.tmpdir(), own()[0]));
  bytes.close();
  expect(own()).toEqual([]);
  const made = makeTempFolder('data-files');
  expect(path.basename(made)).toMatch(new RegExp(`^google-native-local-data-files-${process.pid}-`));
  fs.rmSync(made, { recursive: true, force: true });
});

test('a temporary folder first asked for after close is not made: the write fails and nothing is left behind', async () => {
  const own = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`google-native-local-data-files-${process.pid}-`));
  const bytes = new DataFileBytes(undefined);
  bytes.close();
  await expect(bytes.receive(Readable.from([Buffer.from('MachineId\n')]))).rejects.toThrow('the emulator has closed: its data-files folder is gone');
  expect(own()).toEqual([]);
});

/** A user other than this process's, for folders someone else made (only root can give a folder away). */
const OTHER_UID = 65534;
const isRoot = process.getuid?.() === 0;

(isRoot ? test : test.skip)(
  `another user's folder named after a dead process is left alone, and an in-memory emulator still starts${isRoot ? '' : ' [SKIPPED: only root can make a folder owned by another user]'}`,
  async () => {
    // Another user of the machine plants a folder of our name in the shared temp dir. Before, the
    // sweep removed it (as root) or failed with EACCES and the emulator refused to start (as anyone else).
    const planted = path.join(os.tmpdir(), `google-native-local-data-files-${deadPid()}-planted`);
    fs.mkdirSync(path.join(planted, 'files'), { recursive: true });
    fs.writeFileSync(path.join(planted, 'files', 'theirs'), 'x');
    for (const entry of [planted, path.join(planted, 'files'), path.join(planted, 'files', 'theirs')]) fs.chownSync(entry, OTHER_UID, OTHER_UID);
    expect(sweepOrphanedTempFolders('data-files')).toEqual([]);
    const emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
    await emulator.close();
    expect(fs.readFileSync(path.join(planted, 'files', 'theirs'), 'utf8')).toBe('x');
  },
);

test('a symbolic link named after a dead process is not removed, nor is anything it points at', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  const target = path.join(dir, 'elsewhere');
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, 'kept'), 'x');
  const link = `google-native-local-data-files-${deadPid()}-link`;
  fs.symlinkSync(target, path.join(dir, link));
  expect(sweepOrphanedTempFolders('data-files', dir)).toEqual([]);
  expect(fs.readdirSync(dir).sort()).toEqual(['elsewhere', link]);
  expect(fs.readFileSync(path.join(target, 'kept'), 'utf8')).toBe('x');
});

(isRoot ? test.skip : test)(`a folder the sweep cannot empty stays, and the sweep goes on${isRoot ? ' [SKIPPED: root can empty any folder]' : ''}`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  const stuck = `google-native-local-data-files-${deadPid()}-stuck`;
  const gone = `google-native-local-data-files-${deadPid()}-gone`;
  fs.mkdirSync(path.join(dir, stuck, 'files'), { recursive: true });
  fs.mkdirSync(path.join(dir, gone));
  fs.chmodSync(path.join(dir, stuck), 0o500); // its entry 'files' cannot be unlinked
  try {
    expect(sweepOrphanedTempFolders('data-files', dir)).toEqual([gone]);
    expect(fs.readdirSync(dir)).toEqual([stuck]);
  } finally {
    fs.chmodSync(path.join(dir, stuck), 0o700);
  }
});
