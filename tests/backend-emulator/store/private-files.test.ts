/**
 * A data dir is its owner's alone: another user of the machine reads none of its bytes (the
 * database holds every resource and IAM policy, whatever `--auth` answers over HTTP). Before, the
 * database, its WAL and the guard were 0644 in a 0755 data dir.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildEmulatorApp } from '../../../backend-emulator/app';
import { tempDir } from '../../../support/temp-dir';

/** Every file another user could read: readable by group or others and reached through folders they may enter. */
function readableByOthers(dir: string): string[] {
  const found: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = fs.lstatSync(full);
    if (stat.isDirectory()) {
      if (stat.mode & 0o011) found.push(...readableByOthers(full));
    } else if (stat.mode & 0o044) found.push(full);
  }
  return found;
}

/** Every entry under `dir` (itself included) with any group or other permission bit, as `path mode`. */
function notOwnerOnly(dir: string): string[] {
  const found: string[] = [];
  const visit = (full: string): void => {
    const stat = fs.lstatSync(full);
    if (stat.mode & 0o077) found.push(`${path.relative(dir, full) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(full)) visit(path.join(full, name));
  };
  visit(dir);
  return found;
}

/** Starts an app on `dataDir`, seeds an endpoint policy (a write to the database) and closes it. */
async function runOnce(dataDir: string): Promise<void> {
  const app = buildEmulatorApp({ dataDir, logLevel: 'silent' });
  try {
    const seeded = await app.inject({
      method: 'POST',
      url: '/emulator/v1/seed',
      payload: {
        endpointPolicies: [
          {
            name: 'projects/p1/locations/global/endpointPolicies/web',
            type: 'SIDECAR_PROXY',
            description: 'kept from other users',
            endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
          },
        ],
      },
    });
    expect(seeded.statusCode).toBe(200);
  } finally {
    await app.close();
  }
}

test('a data dir the emulator makes, and every file and folder in it, is only its owner’s (0700 folders, 0600 files)', async () => {
  const dataDir = path.join(tempDir('private-'), 'nested', 'data');
  await runOnce(dataDir);
  expect(fs.readdirSync(dataDir)).toEqual(expect.arrayContaining(['emulator.sqlite', 'emulator.guard', 'data-files', 'exports']));
  expect(notOwnerOnly(dataDir)).toEqual([]);
});

test('a data dir of an earlier version (0644 files, 0755 folders) is made private at the next start; the folder itself, perhaps the user’s, keeps its mode', async () => {
  const dataDir = tempDir('private-');
  fs.chmodSync(dataDir, 0o755);
  await runOnce(dataDir);
  const loosen = (full: string): void => {
    const stat = fs.lstatSync(full);
    fs.chmodSync(full, stat.isDirectory() ? 0o755 : 0o644);
    if (stat.isDirectory()) for (const name of fs.readdirSync(full)) loosen(path.join(full, name));
  };
  loosen(dataDir);
  expect(readableByOthers(dataDir)).toEqual(expect.arrayContaining([path.join(dataDir, 'emulator.sqlite')]));
  await runOnce(dataDir);
  expect(readableByOthers(dataDir)).toEqual([]);
  // Every folder inside, the ones between the data dir and a kind's folder (`exports`) included.
  expect(notOwnerOnly(dataDir).filter((entry) => !entry.startsWith('. '))).toEqual([]);
  expect(fs.statSync(dataDir).mode & 0o777).toBe(0o755);
});

test('a folder of the data dir that is a symbolic link (exports, linked to a shared folder) keeps its mode; the emulator’s folders inside are private', async () => {
  const root = tempDir('private-');
  const dataDir = path.join(root, 'data');
  const shared = path.join(root, 'shared');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(shared, { mode: 0o755 });
  fs.chmodSync(shared, 0o755);
  fs.symlinkSync(shared, path.join(dataDir, 'exports'));
  await runOnce(dataDir);
  // chmod follows a link: the shared folder was made 0700 at every start.
  expect((fs.statSync(shared).mode & 0o777).toString(8)).toBe('755');
  expect(fs.lstatSync(path.join(dataDir, 'exports')).isSymbolicLink()).toBe(true);
  expect(notOwnerOnly(shared).filter((entry) => !entry.startsWith('. '))).toEqual([]);
  expect(fs.readdirSync(shared).length).toBeGreaterThan(0);
});
