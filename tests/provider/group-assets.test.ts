/**
 * A Group's members as the provider manages them, against the embedded emulator: by explicit list
 * (`assets`) or by an asset filter (`assetFilter`) evaluated at apply, never both; a switch between
 * them; drift (an asset taken out of the group outside Pulumi) seen on refresh and repaired by the
 * next update; assets deleted outside Pulumi; and only the difference sent to `:addAssets` /
 * `:removeAssets`. Assets come from the emulator's REST `assets:reportAssetFrames`.
 */
import * as fs from 'fs';
import * as group from '../../provider/group-impl';
import { GoogleRestClient, type Operation, type QueryValue } from '../../provider/client';
import { clientFor, configureFrom } from '../../provider/runtime';
import { closeEmbeddedBackend } from '../../provider/embedded';
import { tempDir } from '../../support/temp-dir';

type Props = Record<string, unknown>;

// The embedded emulator keeps its data in `<cwd>/.google-native-local`: a folder of this test's own.
const workDir = tempDir('gnl-group-assets-');
const startDir = process.cwd();

const LOCATION = 'projects/gp-project/locations/global';
const SOURCE = `${LOCATION}/sources/collector`;
const client = () => clientFor('migrationcenter');
const done = { apiVersion: 'v1alpha1' };

beforeAll(async () => {
  process.chdir(workDir);
  configureFrom({ get: (key: string) => ({ 'google-native-local:project': 'gp-project' })[key] } as never);
  await client().waitForOperation(await client().post<Operation>(`/v1alpha1/${LOCATION}/sources`, {}, { sourceId: 'collector' }), done);
});

afterAll(async () => {
  await closeEmbeddedBackend();
  process.chdir(startDir);
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** Reports one VM per machine id (asset `vm-{id}`), labelled `env`. */
async function reportVms(vms: Record<string, string>): Promise<void> {
  const framesData = Object.entries(vms).map(([id, env]) => ({
    virtualMachineDetails: { vmUuid: id, vmName: id, coreCount: 2, memoryMb: 4096 },
    labels: { env },
  }));
  await client().post(`/v1alpha1/${LOCATION}/assets:reportAssetFrames`, { framesData }, { source: SOURCE });
}

/** The group's members as the service has them, read from each asset's `assignedGroups`. */
async function membersOnServer(groupName: string): Promise<string[]> {
  const page = await client().get<{ assets?: Array<{ name: string; assignedGroups?: string[] }> }>(`/v1alpha1/${LOCATION}/assets`, { pageSize: 1000 });
  return (page.assets ?? [])
    .filter((a) => (a.assignedGroups ?? []).includes(groupName))
    .map((a) => a.name.slice(`${LOCATION}/assets/`.length))
    .sort();
}

async function checked(args: Props): Promise<Props> {
  const { inputs, failures } = group.check({}, args);
  expect(failures).toEqual([]);
  return inputs as Props;
}

/** The membership calls sent while `body` runs: `[verb, asset ids]`. */
async function membershipCalls(body: () => Promise<unknown>): Promise<Array<[string, string[]]>> {
  const calls: Array<[string, string[]]> = [];
  const post = GoogleRestClient.prototype.post;
  const spy = jest.spyOn(GoogleRestClient.prototype, 'post').mockImplementation(function (
    this: GoogleRestClient,
    path: string,
    sent?: unknown,
    query?: Record<string, QueryValue>,
  ) {
    const verb = /:(addAssets|removeAssets)$/.exec(path)?.[1];
    if (verb) calls.push([verb, ((sent as { assets: { assetIds: string[] } }).assets.assetIds ?? []).map((n) => n.slice(`${LOCATION}/assets/`.length))]);
    return post.call(this, path, sent, query);
  });
  try {
    await body();
  } finally {
    spy.mockRestore();
  }
  return calls;
}

describe('check', () => {
  it('refuses assets and assetFilter together, naming both', () => {
    expect(group.check({}, { groupId: 'g', assets: ['vm-a'], assetFilter: 'labels.env = "prod"' }).failures).toEqual([
      { property: 'assetFilter', reason: 'cannot be given together with assets: give at most one of assets and assetFilter' },
    ]);
  });

  it('keeps asset ids, sorted and once, from ids or full names of the group location', () => {
    const { inputs, failures } = group.check({}, { groupId: 'g', assets: ['vm-b', `${LOCATION}/assets/vm-a`, 'vm-b'] });
    expect(failures).toEqual([]);
    expect((inputs as Props).assets).toEqual(['vm-a', 'vm-b']);
  });

  it('names an asset of another location, and an asset reference that is neither id nor name', () => {
    expect(group.check({}, { groupId: 'g', assets: ['vm-a', 'projects/gp-project/locations/us-central1/assets/vm-b'] }).failures).toEqual([
      {
        property: 'assets[1]',
        reason: "must be an asset of the group's project and location: projects/gp-project/locations/global/assets/{asset}, or the asset id alone",
      },
    ]);
    expect(group.check({}, { groupId: 'g', assets: ['VM A'] }).failures).toEqual([
      {
        property: 'assets[0]',
        reason: "must be an asset id (lowercase letters, digits or '-', at most 63) or projects/{project}/locations/{location}/assets/{asset}",
      },
    ]);
  });

  it('leaves a filter group without members in its inputs: the preview shows them unknown', () => {
    const { inputs } = group.check({}, { groupId: 'g', assetFilter: 'labels.env = "prod"' });
    expect(Object.keys(inputs as Props).sort()).toEqual(['assetFilter', 'groupId', 'location', 'name', 'project']);
  });
});

describe('members against the embedded emulator', () => {
  beforeAll(() => reportVms({ 'web-1': 'prod', 'web-2': 'prod', 'db-1': 'prod', 'test-1': 'test' }));

  it('by list: adds the listed assets, updates by the difference only, repairs drift on the next update', async () => {
    const inputs = await checked({ groupId: 'listed', assets: ['vm-web-2', `${LOCATION}/assets/vm-web-1`] });
    const created = await group.create(inputs);
    const name = `${LOCATION}/groups/listed`;
    expect(created.id).toBe(name);
    expect((created.outs as Props).assets).toEqual(['vm-web-1', 'vm-web-2']);
    expect(await membersOnServer(name)).toEqual(['vm-web-1', 'vm-web-2']);
    expect(await group.diff(name, created.outs as Props, inputs)).toMatchObject({ changes: false });

    // A new list is an update: web-2 goes, db-1 comes, web-1 is not sent.
    const next = await checked({ groupId: 'listed', assets: ['vm-web-1', 'vm-db-1'] });
    expect(await group.diff(name, created.outs as Props, next)).toMatchObject({ changes: true, replaces: [] });
    let updated: Props = {};
    const calls = await membershipCalls(async () => {
      updated = (await group.update(name, created.outs as Props, next)).outs as Props;
    });
    expect(calls).toEqual([
      ['removeAssets', ['vm-web-2']],
      ['addAssets', ['vm-db-1']],
    ]);
    expect(updated.assets).toEqual(['vm-db-1', 'vm-web-1']);
    expect(await membersOnServer(name)).toEqual(['vm-db-1', 'vm-web-1']);

    // Outside Pulumi: web-1 taken out, test-1 put in. Refresh sees it, diff shows it, update repairs it.
    await client().waitForOperation(
      await client().post<Operation>(`/v1alpha1/${name}:removeAssets`, { assets: { assetIds: [`${LOCATION}/assets/vm-web-1`] } }),
      done,
    );
    await client().waitForOperation(
      await client().post<Operation>(`/v1alpha1/${name}:addAssets`, { assets: { assetIds: [`${LOCATION}/assets/vm-test-1`] } }),
      done,
    );
    const refreshed = await group.read(name, updated);
    expect((refreshed.props as Props).assets).toEqual(['vm-db-1', 'vm-test-1']);
    expect(await group.diff(name, refreshed.props as Props, next)).toMatchObject({ changes: true, replaces: [] });
    const repairs = await membershipCalls(() => group.update(name, refreshed.props as Props, next));
    expect(repairs).toEqual([
      ['removeAssets', ['vm-test-1']],
      ['addAssets', ['vm-web-1']],
    ]);
    expect(await membersOnServer(name)).toEqual(['vm-db-1', 'vm-web-1']);
    await group.remove(name);
  });

  it('by filter: the members are what the filter selects at apply; a newly matching asset shows as an update', async () => {
    const inputs = await checked({ groupId: 'filtered', assetFilter: 'labels.env = "prod"' });
    const created = await group.create(inputs);
    const name = `${LOCATION}/groups/filtered`;
    expect((created.outs as Props).assets).toEqual(['vm-db-1', 'vm-web-1', 'vm-web-2']);
    expect(await membersOnServer(name)).toEqual(['vm-db-1', 'vm-web-1', 'vm-web-2']);
    // Nothing changed: `up` again is a no-op.
    expect(await group.diff(name, created.outs as Props, inputs)).toMatchObject({ changes: false });

    await reportVms({ 'web-3': 'prod' });
    expect(await group.diff(name, created.outs as Props, inputs)).toMatchObject({ changes: true, replaces: [] });
    const grown = await group.update(name, created.outs as Props, inputs);
    expect((grown.outs as Props).assets).toEqual(['vm-db-1', 'vm-web-1', 'vm-web-2', 'vm-web-3']);

    // Another filter: an update that sends the difference only.
    const narrower = await checked({ groupId: 'filtered', assetFilter: 'labels.env = "prod" AND title = "db-1"' });
    expect(await group.diff(name, grown.outs as Props, narrower)).toMatchObject({ changes: true, replaces: [] });
    const calls = await membershipCalls(() => group.update(name, grown.outs as Props, narrower));
    expect(calls).toEqual([['removeAssets', ['vm-web-1', 'vm-web-2', 'vm-web-3']]]);
    expect(await membersOnServer(name)).toEqual(['vm-db-1']);
    // A refresh keeps the filter (the service does not know it).
    expect((await group.read(name, { ...(grown.outs as Props), assetFilter: narrower.assetFilter })).props).toMatchObject({
      assetFilter: 'labels.env = "prod" AND title = "db-1"',
      assets: ['vm-db-1'],
    });
    await group.remove(name);
  });

  it('switches from a list to a filter and back, and leaves members alone with neither', async () => {
    const name = `${LOCATION}/groups/switching`;
    const listed = await checked({ groupId: 'switching', assets: ['vm-test-1'] });
    const created = await group.create(listed);

    const filtered = await checked({ groupId: 'switching', assetFilter: 'labels.env = "test"' });
    // Same members, other argument: still an update (the state now holds the filter).
    expect(await group.diff(name, created.outs as Props, filtered)).toMatchObject({ changes: true, replaces: [] });
    const toFilter = await group.update(name, created.outs as Props, filtered);
    expect(toFilter.outs).toMatchObject({ assetFilter: 'labels.env = "test"', assets: ['vm-test-1'] });

    const relisted = await checked({ groupId: 'switching', assets: ['vm-web-1'] });
    expect(await group.diff(name, toFilter.outs as Props, relisted)).toMatchObject({ changes: true, replaces: [] });
    const toList = await group.update(name, toFilter.outs as Props, relisted);
    expect((toList.outs as Props).assetFilter).toBeUndefined();
    expect(await membersOnServer(name)).toEqual(['vm-web-1']);

    // Neither argument: an asset another tool adds is no diff, and the update leaves it.
    const unmanaged = await checked({ groupId: 'switching' });
    await client().waitForOperation(
      await client().post<Operation>(`/v1alpha1/${name}:addAssets`, { assets: { assetIds: [`${LOCATION}/assets/vm-db-1`] } }),
      done,
    );
    const refreshed = await group.read(name, toList.outs as Props);
    expect((refreshed.props as Props).assets).toEqual(['vm-db-1', 'vm-web-1']);
    expect(await group.diff(name, refreshed.props as Props, unmanaged)).toMatchObject({ changes: false });
    const calls = await membershipCalls(() => group.update(name, refreshed.props as Props, unmanaged));
    expect(calls).toEqual([]);
    expect(await membersOnServer(name)).toEqual(['vm-db-1', 'vm-web-1']);
    await group.remove(name);
  });

  it('an asset deleted outside Pulumi leaves the group: a filter forgets it, a list says which argument to fix', async () => {
    await reportVms({ 'gone-1': 'stage', 'gone-2': 'stage' });
    const filtered = await checked({ groupId: 'stage-filter', assetFilter: 'labels.env = "stage"' });
    const byFilter = await group.create(filtered);
    const listed = await checked({ groupId: 'stage-list', assets: ['vm-gone-1', 'vm-gone-2'] });
    const byList = await group.create(listed);

    await client().delete(`/v1alpha1/${LOCATION}/assets/vm-gone-2`);

    const filterRead = await group.read(byFilter.id, byFilter.outs as Props);
    expect((filterRead.props as Props).assets).toEqual(['vm-gone-1']);
    expect(await group.diff(byFilter.id, filterRead.props as Props, filtered)).toMatchObject({ changes: false });

    const listRead = await group.read(byList.id, byList.outs as Props);
    expect((listRead.props as Props).assets).toEqual(['vm-gone-1']);
    expect(await group.diff(byList.id, listRead.props as Props, listed)).toMatchObject({ changes: true, replaces: [] });
    await expect(group.update(byList.id, listRead.props as Props, listed)).rejects.toThrow(
      /^group projects\/gp-project\/locations\/global\/groups\/stage-list: an asset listed in 'assets' does not exist \(deleted outside Pulumi\?\): take it out of 'assets'.*vm-gone-2/,
    );
    // Taking it out of the list is the fix.
    const fixed = await checked({ groupId: 'stage-list', assets: ['vm-gone-1'] });
    expect(await group.diff(byList.id, listRead.props as Props, fixed)).toMatchObject({ changes: false });
    await group.remove(byFilter.id);
    await group.remove(byList.id);
  });
});
