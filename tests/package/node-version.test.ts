/**
 * The Node the tests run under. npm scripts run under the project's own Node (the `node`
 * devDependency, linked into node_modules/.bin, which npm puts first on a script's PATH), whatever
 * the machine's Node is; `.ci/run` runs the suite again under each supported LTS and names the one
 * it expects in GNL_EXPECT_NODE. A jest worker runs the Node jest was started with
 * (`process.execPath`), as do the CLI, provider-host and Pulumi program processes the tests spawn;
 * a tool started by name (`npm`, a `#!/usr/bin/env node` script) runs the first `node` on PATH.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The version this run must be under: .ci/run's choice, else under an npm script the project's own Node. */
function expectedVersion(): string {
  if (process.env.GNL_EXPECT_NODE) return process.env.GNL_EXPECT_NODE;
  if (process.env.npm_lifecycle_event) return `v${readJson(path.join(ROOT, 'node_modules', 'node', 'package.json')).version}`;
  // jest started by hand (`node node_modules/.bin/jest`): whatever Node that was, the same everywhere.
  return process.version;
}

it('runs under a Node that package.json engines allows', () => {
  const minimum = /^>=(\d+)$/.exec(readJson(path.join(ROOT, 'package.json')).engines.node);
  expect(minimum).not.toBeNull();
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(minimum![1]));
});

it('the project pins its own Node to a line engines allows', () => {
  const pkg = readJson(path.join(ROOT, 'package.json'));
  const pinned = readJson(path.join(ROOT, 'node_modules', 'node', 'package.json')).version as string;
  expect(pkg.devDependencies.node).toBe(`^${pinned}`);
  expect(Number(pinned.split('.')[0])).toBeGreaterThanOrEqual(Number(/^>=(\d+)$/.exec(pkg.engines.node)![1]));
  // The binary the node package linked is that version.
  const linked = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'node'), ['--version'], { encoding: 'utf8' });
  expect(linked.stdout.trim()).toBe(`v${pinned}`);
});

it("the jest worker, a process it spawns and the `node` on its PATH are the run's Node", () => {
  const expected = expectedVersion();
  expect(process.version).toBe(expected);
  const spawned = spawnSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' });
  expect(spawned.stdout.trim()).toBe(expected);
  // Resolved through PATH, as a shell or a `#!/usr/bin/env node` script does.
  const onPath = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' });
  expect(onPath.stdout.trim()).toBe(expected);
});
