/**
 * examples/basic runs as a real Pulumi program: @pulumi/pulumi's own runner (ts-node, the SDK's
 * registration code, the closure serialiser) against the stand-in engine (support/harness/engine.ts),
 * our providers in the real dynamic-provider host, the embedded backend keeping its store in the
 * program folder. up -> up again (nothing changes) -> preview of a rename of the job -> that rename ->
 * preview of a rename of the source the job refers to -> that rename -> a move to another project ->
 * destroy. Each test starts from the state the one before it left.
 */
import { createExampleProgram, StandInEngine, type ExampleProgram, type RunResult, type StateEntry } from '../../support/harness';
import { DEFAULT_JOB_DISPLAY_NAME, DEFAULT_PROJECT, DEFAULT_SOURCE_DISPLAY_NAME } from '../../examples/basic/resources';

jest.setTimeout(240_000);

const STACK = 'dev';
const RENAMED = 'December inventory';
const RENAMED_SOURCE = 'Spreadsheet uploads';
const OTHER_PROJECT = 'other-project';
const WRITES = ['create', 'update', 'delete'];

let program: ExampleProgram;
let engine: StandInEngine;

/** The operation of each resource, by resource name (the last URN segment). */
function byName(result: RunResult): Record<string, string> {
  return Object.fromEntries([...result.operations].map(([urn, op]) => [urn.split('::').pop()!, op]));
}

/** Fails with the program's own output when the run did not succeed. */
function expectSuccess(result: RunResult): void {
  if (result.exitCode !== 0 || result.errors.length) {
    throw new Error(`the program failed (${result.exitCode}):\n${result.errors.join('\n')}\n${result.logs.join('\n')}\n${result.stderr}`);
  }
}

function entry(name: string): StateEntry {
  const found = [...engine.state.values()].find((e) => e.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no ${name} in the state`);
  return found;
}

beforeAll(async () => {
  program = await createExampleProgram('basic');
  engine = new StandInEngine({ programDir: program.dir, project: program.project, stack: STACK });
});

afterAll(async () => {
  await engine?.close();
  program?.cleanup();
});

describe('examples/basic under the stand-in engine', () => {
  const config = { 'google-native-local:project': DEFAULT_PROJECT };
  const renamed = { ...config, [`google-native-local-basic:jobDisplayName`]: RENAMED };
  // The job's rename stays: only the source's display name changes on top of it.
  const sourceRenamed = { ...renamed, [`google-native-local-basic:sourceDisplayName`]: RENAMED_SOURCE };
  let created: Record<string, StateEntry>;

  test('up creates every resource and exports the job', async () => {
    const result = await engine.run({ config });
    expectSuccess(result);
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'create',
      sidecars: 'create',
      viewers: 'create',
      'temporary-admins': 'create',
      uploads: 'create',
      inventory: 'create',
    });
    const jobName = `projects/${DEFAULT_PROJECT}/locations/global/importJobs/inventory-2026-11`;
    expect(result.outputs).toMatchObject({ jobName, jobDisplayName: DEFAULT_JOB_DISPLAY_NAME });
    expect(typeof result.outputs.jobState).toBe('string');
    expect(result.outputs.validationReport).toBeDefined();

    // The embedded backend's store in the program folder has them: read back through the host.
    created = Object.fromEntries(['sidecars', 'viewers', 'temporary-admins', 'uploads', 'inventory'].map((n) => [n, entry(n)]));
    // The provider the program stored is a path into the installed package, as a user's would be.
    expect(created.inventory.inputs.__provider).toContain('require("google-native-local/dist/provider/lazy-provider").lazyProvider("import-job-impl")');
    // Nothing the program ran printed a Node warning (on Node 26, Pulumi's closure serializer, which
    // requires every built-in module, printed the ExperimentalWarning of `node:ffi`).
    expect(result.stderr).not.toMatch(/Warning/);
    const job = await engine.read(created.inventory);
    expect(job.id).toBe(jobName);
    expect(job.properties).toMatchObject({ name: jobName, displayName: DEFAULT_JOB_DISPLAY_NAME, assetSource: created.uploads.id });
    const viewers = await engine.read(created.viewers);
    expect(viewers.id).toBe(created.viewers.id);
    expect(viewers.properties).toMatchObject({ role: 'roles/networkservices.viewer' });
  });

  test('a second up changes nothing: every resource is same, no write reaches the provider', async () => {
    const result = await engine.run({ config });
    expectSuccess(result);
    expect(new Set(Object.values(byName(result)))).toEqual(new Set(['same']));
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
    expect(result.providerCalls).toContain('diff');
  });

  test('preview of a rename plans an update of the job only, and writes nothing', async () => {
    const result = await engine.run({ config: renamed, dryRun: true });
    expectSuccess(result);
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'same',
      sidecars: 'same',
      viewers: 'same',
      'temporary-admins': 'same',
      uploads: 'same',
      inventory: 'update',
    });
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
    expect((await engine.read(created.inventory)).properties.displayName).toBe(DEFAULT_JOB_DISPLAY_NAME);
  });

  test('up with the rename updates the job in place', async () => {
    const result = await engine.run({ config: renamed });
    expectSuccess(result);
    expect(byName(result).inventory).toBe('update');
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual(['update']);
    expect(result.outputs.jobDisplayName).toBe(RENAMED);
    const job = await engine.read(entry('inventory'));
    expect(job.id).toBe(created.inventory.id);
    expect(job.properties.displayName).toBe(RENAMED);
  });

  // Issue 14: the job's `assetSource` is the source's name, which a new display name does not
  // change. The Source's check gives the name at preview, so the job's diff sees it unchanged.
  test('preview of a rename of the source plans an update of the source only: the job that refers to it stays same', async () => {
    const result = await engine.run({ config: sourceRenamed, dryRun: true });
    expectSuccess(result);
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'same',
      sidecars: 'same',
      viewers: 'same',
      'temporary-admins': 'same',
      uploads: 'update',
      inventory: 'same',
    });
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
    // The job's diff ran (against the source's name, known at preview) and found nothing.
    expect(result.providerCalls.filter((c) => c === 'diff')).toHaveLength(5);
    expect(result.outputs.jobName).toBe(created.inventory.id);
    expect((await engine.read(entry('uploads'))).properties.displayName).toBe(DEFAULT_SOURCE_DISPLAY_NAME);
    expect((await engine.read(entry('inventory'))).properties.displayName).toBe(RENAMED);
  });

  test('up with the rename of the source updates the source in place and nothing else', async () => {
    const result = await engine.run({ config: sourceRenamed });
    expectSuccess(result);
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'same',
      sidecars: 'same',
      viewers: 'same',
      'temporary-admins': 'same',
      uploads: 'update',
      inventory: 'same',
    });
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual(['update']);
    const source = await engine.read(entry('uploads'));
    expect(source.id).toBe(created.uploads.id);
    expect(source.properties).toMatchObject({ name: created.uploads.id, displayName: RENAMED_SOURCE });
    const job = await engine.read(entry('inventory'));
    expect(job.id).toBe(created.inventory.id);
    expect(job.properties).toMatchObject({ displayName: RENAMED, assetSource: created.uploads.id });
    expect(result.outputs).toMatchObject({ jobName: created.inventory.id, jobDisplayName: RENAMED });
  });

  test('up in another project replaces every resource; the old ones are deleted after the new ones exist', async () => {
    // Both renames stay: only the project changes.
    const moved = { ...sourceRenamed, 'google-native-local:project': OTHER_PROJECT };
    const result = await engine.run({ config: moved });
    expectSuccess(result);
    expect(byName(result)).toMatchObject({
      sidecars: 'replace',
      viewers: 'replace',
      'temporary-admins': 'replace',
      uploads: 'replace',
      inventory: 'replace',
    });
    expect(result.outputs.jobName).toBe(`projects/${OTHER_PROJECT}/locations/global/importJobs/inventory-2026-11`);
    for (const e of Object.values(created)) expect((await engine.read(e)).id).toBe('');
    const job = entry('inventory');
    expect(job.id).toBe(result.outputs.jobName);
    expect((await engine.read(job)).properties.assetSource).toBe(entry('uploads').id);
    expect((await engine.read(entry('uploads'))).properties.displayName).toBe(RENAMED_SOURCE);
    // Create-before-delete: the replacements of the job and its source exist before the old ones go.
    const calls = result.providerCalls;
    expect(calls.lastIndexOf('create')).toBeLessThan(calls.indexOf('delete'));
  });

  test('destroy deletes everything, dependents first; nothing is left to read', async () => {
    const last = ['sidecars', 'viewers', 'temporary-admins', 'uploads', 'inventory'].map(entry);
    const result = await engine.destroy();
    const order = [...result.operations.keys()].map((urn) => urn.split('::').pop()!);
    expect(new Set(result.operations.values())).toEqual(new Set(['delete']));
    expect(order.indexOf('inventory')).toBeLessThan(order.indexOf('uploads'));
    expect(order.indexOf('viewers')).toBeLessThan(order.indexOf('sidecars'));
    expect(order.indexOf('temporary-admins')).toBeLessThan(order.indexOf('sidecars'));
    expect(order.pop()).toBe(`${program.project}-${STACK}`);
    expect(engine.state.size).toBe(0);
    for (const e of last) expect((await engine.read(e)).id).toBe('');
  });
});

describe('a program that fails', () => {
  test('a check failure fails the run with the reason as its error, and nothing is created', async () => {
    const failing = new StandInEngine({ programDir: program.dir, project: program.project, stack: 'broken' });
    try {
      const result = await failing.run({ config: { 'google-native-local:project': 'Not A Project!' } });
      expect(result.errors).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/::sidecars: check failed: project: must be a project ID/),
          expect.stringMatching(/::uploads: check failed: project:/),
        ]),
      );
      expect([...failing.state.values()].filter((e) => e.custom)).toEqual([]);
      expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});
