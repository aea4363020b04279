/**
 * On a Node older than `engines` allows, the commands say so and exit 1 instead of crashing when
 * better-sqlite3 opens the store (a segmentation fault on Node 20). The old Node is simulated in a
 * real child process: a preload sets `process.versions.node` before the command's module runs.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MIN_NODE_MAJOR, unsupportedNode } from '../../backend-emulator/node-version';
import { compiledPackage, ROOT } from '../../support/compiled';

jest.setTimeout(120_000);

function runAs(nodeVersion: string, script: string, args: string[]) {
  const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-node-version-')), 'as-old-node.js');
  fs.writeFileSync(preload, `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(nodeVersion)} });\n`);
  return spawnSync(process.execPath, ['--require', preload, path.join(compiledPackage(), script), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

it('is the oldest major of package.json engines', () => {
  const engines = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  expect(engines).toBe(`>=${MIN_NODE_MAJOR}`);
});

it('refuses Node 20 and older, accepts the supported lines', () => {
  expect(unsupportedNode('20.20.2')).toMatch(/^Node 22 or newer is needed \(this is Node 20\.20\.2\)/);
  expect(unsupportedNode('18.0.0')).toBeDefined();
  for (const ok of ['22.0.0', '24.21.0', '26.10.0', '27.0.0']) expect(unsupportedNode(ok)).toBeUndefined();
});

it('google-native-local and the emulator CLI exit 1 with the sentence on Node 20, and run on this Node', () => {
  const fixture = path.join(ROOT, 'tests', 'fixtures', 'manual-csv', 'valid', 'basic');
  const validate = runAs('20.20.2', 'backend-emulator/commands/main.js', ['validate', fixture, '--format', 'manual-csv']);
  expect(validate.status).toBe(1);
  expect(validate.stderr).toContain('google-native-local: Node 22 or newer is needed (this is Node 20.20.2)');
  expect(validate.stdout).toBe('');

  const serve = runAs('20.20.2', 'backend-emulator/cli.js', ['--port', '0', '--in-memory']);
  expect(serve.status).toBe(1);
  expect(serve.stderr).toContain('Node 22 or newer is needed (this is Node 20.20.2)');
  expect(serve.stdout).not.toContain('listening on');

  const current = runAs(process.versions.node, 'backend-emulator/commands/main.js', ['validate', fixture, '--format', 'manual-csv']);
  expect(current.stderr).toBe('');
  expect(current.stdout).toContain('OK: no blocking errors');
  expect(current.status).toBe(0);
});
