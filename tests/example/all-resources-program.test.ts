/**
 * examples/all-resources runs as a real Pulumi program under the stand-in engine
 * (support/harness/engine.ts): every resource the package exports and its read functions, against
 * the embedded emulator keeping its store in the program folder. up (creates all) -> up again
 * (every resource same) -> one run changing an updatable field of each resource that has one
 * (each an update of exactly that resource) -> a preview, then a run, changing a field Google
 * cannot change on four resources (each a replace of exactly that resource) -> destroy (nothing left to read back
 * through the provider's REST calls). Each test starts from the state the one before it left.
 *
 * Not exercised: a replace of the report config. Its report would have to be replaced with it
 * (Google refuses to delete a config that has reports); the Pulumi engine does that as a dependent
 * replacement of a delete-before-replace, which the stand-in engine does not implement.
 */
import { createExampleProgram, StandInEngine, type ExampleProgram, type RunResult, type StateEntry } from '../../support/harness';
import { DEFAULT_PROJECT, type Settings } from '../../examples/all-resources/settings';

// Five program runs of 15 resources and 4 reads, and a destroy: each about 20 s alone, minutes on
// a loaded 2-core machine.
jest.setTimeout(420_000);

const STACK = 'dev';
const WRITES = ['create', 'update', 'delete'];
const LOCATION = `projects/${DEFAULT_PROJECT}/locations/global`;

const MANAGED = [
  'web-sidecars',
  'web-iam',
  'api-servers',
  'api-viewers',
  'api-admin',
  'uploads',
  'discovered',
  'inventory',
  'staging',
  'batch-hosts',
  'web-tier',
  'compute-engine',
  'wave-1',
  'wave-1-tco',
  'collector',
];
const READS = [
  `getEndpointPolicy:${LOCATION}/endpointPolicies/web-sidecars`,
  `getEndpointPolicyIamPolicy:${LOCATION}/endpointPolicies/web-sidecars:3`,
  `getImportJob:${LOCATION}/importJobs/inventory-2026-11`,
  `getSource:${LOCATION}/sources/uploads`,
];

/** The changes of updatable fields: one per resource that has one, on eight resources. */
const UPDATES: Partial<Settings> = {
  webPolicyDescription: 'Sidecars of the web and api tiers',
  webViewers: 'user:alice@example.com',
  apiViewers: 'group:api-readers@example.com,user:dave@example.com',
  sourceDisplayName: 'Uploaded spreadsheets',
  jobDisplayName: 'December inventory',
  groupDisplayName: 'Web servers',
  commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR',
  clientDisplayName: 'Rack 4 collector',
};
const UPDATED = ['web-sidecars', 'web-iam', 'api-viewers', 'uploads', 'inventory', 'web-tier', 'compute-engine', 'collector'];

/** Changes of fields Google cannot change (or grants that are another grant): each a replace. */
const REPLACEMENTS: Partial<Settings> = {
  apiAdmin: 'user:erin@example.com',
  dataFileDisplayName: 'batch-hosts.csv',
  reportDescription: 'TCO of wave 1, one-year commitment',
  clientSource: 'uploads',
};
const REPLACED = ['api-admin', 'batch-hosts', 'wave-1-tco', 'collector'];

let program: ExampleProgram;
let engine: StandInEngine;

/** The operation of each resource, by resource name (the last URN segment). */
function byName(result: RunResult): Record<string, string> {
  return Object.fromEntries([...result.operations].map(([urn, op]) => [urn.split('::').pop()!, op]));
}

/** What a run that does `op` to `changed` does: the rest of the resources same, the reads read. */
function expected(op: string, changed: string[]): Record<string, string> {
  return {
    [`${program.project}-${STACK}`]: 'same',
    ...Object.fromEntries(MANAGED.map((n) => [n, changed.includes(n) ? op : 'same'])),
    ...Object.fromEntries(READS.map((n) => [n, 'read'])),
  };
}

/** Fails with the program's own output when the run did not succeed. */
function expectSuccess(result: RunResult): void {
  if (result.exitCode !== 0 || result.errors.length) {
    throw new Error(`the program failed (${result.exitCode}):\n${result.errors.join('\n')}\n${result.stderr}`);
  }
}

function entry(name: string): StateEntry {
  const found = [...engine.state.values()].find((e) => e.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no ${name} in the state`);
  return found;
}

/** The resource as the emulator has it now, read through the provider host (REST). */
async function onServer(name: string): Promise<{ id: string; properties: Record<string, any> }> {
  return engine.read(entry(name));
}

/** The stack config: the project, and the example's own settings. */
function configOf(settings: Partial<Settings>): Record<string, string> {
  const own = Object.entries(settings).map(([key, value]) => [`${program.project}:${key}`, String(value)]);
  return { 'google-native-local:project': DEFAULT_PROJECT, ...Object.fromEntries(own) };
}

beforeAll(async () => {
  program = await createExampleProgram('all-resources');
  engine = new StandInEngine({ programDir: program.dir, project: program.project, stack: STACK });
});

afterAll(async () => {
  await engine?.close();
  program?.cleanup();
});

describe('examples/all-resources under the stand-in engine', () => {
  let created: Record<string, StateEntry>;

  test('up creates the 15 resources, reads with the 4 read functions, and exports what they read', async () => {
    const result = await engine.run({ config: configOf({}) });
    expectSuccess(result);
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'create',
      ...Object.fromEntries(MANAGED.map((n) => [n, 'create'])),
      ...Object.fromEntries(READS.map((n) => [n, 'read'])),
    });
    expect([...engine.state.values()].filter((e) => e.custom && !e.external)).toHaveLength(15);
    created = Object.fromEntries(MANAGED.map((n) => [n, entry(n)]));

    expect(result.outputs).toEqual({
      webPolicyDescription: 'Sidecars of the web tier',
      // Google keeps members sorted.
      webPolicyBindings: [
        { role: 'roles/networkservices.viewer', members: ['group:web-ops@example.com', 'user:alice@example.com'] },
        { role: 'roles/networkservices.admin', members: ['serviceAccount:deployer@example-project.iam.gserviceaccount.com'] },
      ],
      inventoryState: 'IMPORT_JOB_STATE_COMPLETED',
      inventoryFramesReported: 2,
      uploadsDisplayName: 'Spreadsheet uploads',
      stagingState: 'IMPORT_JOB_STATE_PENDING',
      batchHostsState: 'ACTIVE',
      reportState: 'SUCCEEDED',
      collectorName: `${LOCATION}/discoveryClients/collector`,
      collectorSource: `${LOCATION}/sources/discovered`,
    });

    // The binding and the member share the api policy without undoing each other.
    expect((await onServer('api-viewers')).properties.members).toEqual(['group:api-readers@example.com']);
    expect((await onServer('api-admin')).id).toBe(created['api-admin'].id);
    expect((await onServer('batch-hosts')).properties).toMatchObject({ displayName: 'vm-inventory.csv', size: 176 });
    expect((await onServer('wave-1')).properties.groupPreferencesetAssignments).toEqual([
      { group: `${LOCATION}/groups/web-tier`, preferenceSet: `${LOCATION}/preferenceSets/compute-engine` },
    ]);
  });

  test('up again changes nothing: every resource same, the reads read again, no write', async () => {
    const result = await engine.run({ config: configOf({}) });
    expectSuccess(result);
    expect(byName(result)).toEqual(expected('same', []));
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
  });

  test('a change of an updatable field of each of eight resources updates exactly those, in place', async () => {
    const result = await engine.run({ config: configOf(UPDATES) });
    expectSuccess(result);
    expect(byName(result)).toEqual(expected('update', UPDATED));
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual(Array(8).fill('update'));
    for (const name of MANAGED) expect(entry(name).id).toBe(created[name].id);

    // The read functions read after the writes.
    expect(result.outputs).toMatchObject({
      webPolicyDescription: UPDATES.webPolicyDescription,
      webPolicyBindings: [
        { role: 'roles/networkservices.viewer', members: ['user:alice@example.com'] },
        { role: 'roles/networkservices.admin', members: ['serviceAccount:deployer@example-project.iam.gserviceaccount.com'] },
      ],
      uploadsDisplayName: 'Uploaded spreadsheets',
    });
    expect((await onServer('api-viewers')).properties.members).toEqual(['group:api-readers@example.com', 'user:dave@example.com']);
    expect((await onServer('api-admin')).id).toBe(created['api-admin'].id);
    expect((await onServer('inventory')).properties.displayName).toBe('December inventory');
    expect((await onServer('web-tier')).properties.displayName).toBe('Web servers');
    expect((await onServer('compute-engine')).properties.virtualMachinePreferences).toMatchObject({ commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' });
    expect((await onServer('collector')).properties).toMatchObject({ displayName: 'Rack 4 collector', source: `${LOCATION}/sources/discovered` });
  });

  test('preview of those changes plans a replace of exactly those resources, and writes nothing', async () => {
    const result = await engine.run({ config: configOf({ ...UPDATES, ...REPLACEMENTS }), dryRun: true });
    expectSuccess(result);
    expect(byName(result)).toEqual(expected('replace', REPLACED));
    expect(result.providerCalls.filter((c) => WRITES.includes(c))).toEqual([]);
    expect((await onServer('collector')).properties.source).toBe(`${LOCATION}/sources/discovered`);
  });

  test('a change Google cannot make in place replaces exactly that resource; one that keeps its name is deleted first', async () => {
    const result = await engine.run({ config: configOf({ ...UPDATES, ...REPLACEMENTS }) });
    expectSuccess(result);
    expect(byName(result)).toEqual(expected('replace', REPLACED));
    const writes = result.providerCalls.filter((c) => WRITES.includes(c));
    expect(writes.filter((c) => c === 'create')).toHaveLength(4);
    expect(writes.filter((c) => c === 'delete')).toHaveLength(4);
    expect(writes).not.toContain('update');
    // The report, the data file and the client keep their names: each old one went before its
    // replacement was created (created first, each would be ALREADY_EXISTS and fail the run). The
    // new member is another grant: created first, the old one deleted once the program was done.
    expect(writes[writes.length - 1]).toBe('delete');

    expect(result.outputs.collectorSource).toBe(`${LOCATION}/sources/uploads`);
    expect((await onServer('collector')).properties).toMatchObject({ source: `${LOCATION}/sources/uploads`, displayName: 'Rack 4 collector' });
    expect((await onServer('wave-1-tco')).properties).toMatchObject({ description: REPLACEMENTS.reportDescription, state: 'SUCCEEDED' });
    expect((await onServer('batch-hosts')).properties).toMatchObject({ displayName: 'batch-hosts.csv', state: 'ACTIVE' });
    expect((await onServer('api-admin')).properties).toMatchObject({ member: 'user:erin@example.com', role: 'roles/networkservices.admin' });
    // The old grant is gone; the binding beside it kept its members.
    expect((await engine.read(created['api-admin'])).id).toBe('');
    expect((await onServer('api-viewers')).properties.members).toEqual(['group:api-readers@example.com', 'user:dave@example.com']);
  });

  test('destroy deletes every resource, dependents first, and forgets the reads; nothing is left to read', async () => {
    const last = MANAGED.map(entry);
    const result = await engine.destroy();
    expect(byName(result)).toEqual({
      [`${program.project}-${STACK}`]: 'delete',
      ...Object.fromEntries(MANAGED.map((n) => [n, 'delete'])),
      ...Object.fromEntries(READS.map((n) => [n, 'discard'])),
    });
    expect(result.providerCalls).toEqual(Array(15).fill('delete'));
    const order = [...result.operations.keys()].map((urn) => urn.split('::').pop()!);
    for (const [dependent, dependency] of [
      ['wave-1-tco', 'wave-1'],
      ['wave-1', 'web-tier'],
      ['batch-hosts', 'staging'],
      ['collector', 'uploads'],
      ['api-admin', 'api-servers'],
      ['web-iam', 'web-sidecars'],
    ]) {
      expect(order.indexOf(dependent)).toBeLessThan(order.indexOf(dependency));
    }
    expect(engine.state.size).toBe(0);
    for (const e of last) expect([e.urn, (await engine.read(e)).id]).toEqual([e.urn, '']);
  });
});
