/**
 * The Group provider's work: a REST resource of migrationcenter/v1alpha1, plus its members.
 *
 * Members are managed by one of two arguments, never both: `assets` (exactly these asset ids) or
 * `assetFilter` (the assets an AIP-160 filter selects when Pulumi applies the group). Without
 * either, the provider leaves the members alone. The output `assets` is always the members as
 * last read or written (ids, sorted), so a refresh shows an asset taken out of the group (or put
 * in) outside Pulumi, and the next update puts it right with `:addAssets` / `:removeAssets` for the
 * difference only. A changed list or filter is an update of the group, never a replace.
 *
 * Preview: a list's members are known (they are the list). A filter's are not: the output is
 * unknown until the update evaluates the filter. diff() does evaluate a known filter against the
 * service as it is at preview time, so that a filter whose selection has not changed shows no
 * change (an `up` run again is a no-op) and one whose selection has changed shows an update.
 */
import type * as pulumi from '@pulumi/pulumi';
import { assetsSelectedBy, groupMembers, misplacedAssets, normalizeAssetIds, syncMembers } from './group-membership';
import type { Operation } from './client';
import { restResource } from './rest-resource';
import { clientFor, containsUnknown, sameJson } from './runtime';

type Props = Record<string, unknown>;

const base = restResource({
  schema: 'GroupArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'groups',
  idField: 'groupId',
  bodyFields: ['displayName', 'description', 'labels'],
  outputFields: ['name', 'createTime', 'updateTime'],
  requestId: true,
  crossFieldFailures: (inputs) => {
    if (!Array.isArray(inputs.assets) || typeof inputs.project !== 'string' || typeof inputs.location !== 'string') return [];
    const location = `projects/${inputs.project}/locations/${inputs.location}`;
    return misplacedAssets(inputs.assets, location).map((i) => ({
      property: `assets[${i}]`,
      reason: `must be an asset of the group's project and location: ${location}/assets/{asset}, or the asset id alone`,
    }));
  },
});

const client = () => clientFor('migrationcenter');
const wait = (op: Operation) => client().waitForOperation(op, { apiVersion: 'v1alpha1', initialPollMs: 100, maxPollMs: 2000 });
const locationOf = (p: Props) => `projects/${String(p.project)}/locations/${String(p.location)}`;

/** The members `inputs` ask for now (the filter evaluated now), or undefined when they ask for none. */
async function wantedMembers(inputs: Props): Promise<string[] | undefined> {
  if (typeof inputs.assetFilter === 'string') return assetsSelectedBy(client(), locationOf(inputs), inputs.assetFilter);
  if (Array.isArray(inputs.assets)) return normalizeAssetIds(inputs.assets as string[]);
  return undefined;
}

export function check(olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
  const result = base.check(olds, news);
  const inputs = { ...(result.inputs as Props) };
  const failures = result.failures ?? [];
  // The list in the form the output has: a reordered list or an id given as a name changes nothing.
  if (Array.isArray(inputs.assets) && !containsUnknown(inputs.assets) && !failures.some((f) => f.property.startsWith('assets'))) {
    inputs.assets = normalizeAssetIds(inputs.assets as string[]);
  }
  return { inputs, failures };
}

/** The membership arguments that change: always an update (the group keeps its name). */
async function membershipChanges(olds: Props, news: Props): Promise<string[]> {
  if (news.assetFilter !== undefined) {
    if (containsUnknown(news.assetFilter) || olds.assetFilter !== news.assetFilter) return ['assetFilter'];
    // The same filter: a change only if what it selects now is not what the group holds.
    const selected = await wantedMembers(news);
    return sameJson(selected, olds.assets ?? []) ? [] : ['assets'];
  }
  const changed = olds.assetFilter !== undefined ? ['assetFilter'] : [];
  if (news.assets !== undefined && (containsUnknown(news.assets) || !sameJson(news.assets, olds.assets ?? []))) changed.push('assets');
  return changed;
}

export async function diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const result = base.diff(id, olds, news);
  // A replace creates the group anew with its members: no need to ask the service here.
  if ((result.replaces ?? []).length > 0) return result;
  const changed = await membershipChanges(olds, news);
  return changed.length > 0 ? { ...result, changes: true } : result;
}

export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const created = await base.create(inputs);
  const wanted = await wantedMembers(inputs);
  // A new group has no members: what it is asked to hold is all there is to add.
  if (wanted) await syncMembers(client(), created.id, [], wanted, wait);
  return { id: created.id, outs: { ...(created.outs as Props), assets: wanted ?? [] } };
}

export async function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const updated = await base.update(id, olds, news);
  const current = await groupMembers(client(), id);
  const wanted = await wantedMembers(news);
  if (wanted) await syncMembers(client(), id, current, wanted, wait);
  return { outs: { ...(updated.outs as Props), assets: wanted ?? current } };
}

export async function read(id: string, props: Props = {}): Promise<pulumi.dynamic.ReadResult> {
  const result = await base.read(id);
  if (!result.id) return result;
  const assets = await groupMembers(client(), id);
  // The filter is the program's, not the service's: kept from the state, so a refresh does not lose it.
  const filter = typeof props.assetFilter === 'string' ? { assetFilter: props.assetFilter } : {};
  return { ...result, props: { ...(result.props as Props), ...filter, assets }, inputs: { ...(result.inputs as Props), ...filter } };
}

export const { remove } = base;
