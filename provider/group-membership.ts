/**
 * A Migration Center group's members, as the Group resource manages them: read them, evaluate an
 * asset filter, and bring the members to a wanted set through `:addAssets` / `:removeAssets`,
 * sending only the difference.
 *
 * Members are read by listing the location's assets and keeping those whose `assignedGroups`
 * (Google's output field) names the group. The emulator also answers the filter
 * `assignedGroups:GROUP`, but Google does not publish that spelling: a listing that works on
 * Google is worth more than a shorter one that might not.
 */
import { isNotFound, type GoogleRestClient, type Operation } from './client';

/** Google's largest page of `assets.list`. */
const PAGE_SIZE = 1000;
/** Google's limits per request: 2,000 assets for addAssets, 1,000 for removeAssets. */
const ADD_BATCH = 2000;
const REMOVE_BATCH = 1000;

interface AssetOnWire {
  name: string;
  assignedGroups?: string[];
}

interface AssetPage {
  assets?: AssetOnWire[];
  nextPageToken?: string;
}

/** `projects/p/locations/l/groups/g` -> `projects/p/locations/l`. */
export function locationOfGroup(group: string): string {
  return group.split('/').slice(0, 4).join('/');
}

/** The asset id of an id or a full asset name (the name's location is checked by `misplacedAssets`). */
export function assetIdOf(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Asset ids of the given ids or names: sorted, each once (the form compared for drift). */
export function normalizeAssetIds(refs: readonly string[]): string[] {
  return [...new Set(refs.map(assetIdOf))].sort();
}

/** The indexes of full names that name an asset outside `location` (`projects/p/locations/l`). */
export function misplacedAssets(refs: readonly unknown[], location: string): number[] {
  const prefix = `${location}/assets/`;
  return refs.flatMap((ref, i) => (typeof ref === 'string' && ref.includes('/') && !ref.startsWith(prefix) ? [i] : []));
}

/** Every asset of `location` that `filter` selects (every asset without one), paged through. */
async function listAssets(client: GoogleRestClient, location: string, filter?: string): Promise<AssetOnWire[]> {
  const out: AssetOnWire[] = [];
  let pageToken: string | undefined;
  do {
    const page = await client.get<AssetPage>(`/v1alpha1/${location}/assets`, { pageSize: PAGE_SIZE, pageToken, filter });
    out.push(...(page.assets ?? []));
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return out;
}

/** The ids of the assets `filter` selects in `location` now, sorted. */
export async function assetsSelectedBy(client: GoogleRestClient, location: string, filter: string): Promise<string[]> {
  return normalizeAssetIds((await listAssets(client, location, filter)).map((a) => a.name));
}

/** The ids of the group's members, sorted. */
export async function groupMembers(client: GoogleRestClient, group: string): Promise<string[]> {
  const assets = await listAssets(client, locationOfGroup(group));
  return normalizeAssetIds(assets.filter((a) => (a.assignedGroups ?? []).includes(group)).map((a) => a.name));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Makes the group's members exactly `wanted` (asset ids), from `current` (asset ids as read):
 * adds the missing, removes the extra, and nothing else. The flags make a concurrent writer's
 * identical change harmless. An asset to add that does not exist (deleted outside Pulumi) fails
 * with a message that names the argument to fix.
 */
export async function syncMembers(
  client: GoogleRestClient,
  group: string,
  current: readonly string[],
  wanted: readonly string[],
  wait: (op: Operation) => Promise<unknown>,
): Promise<void> {
  const location = locationOfGroup(group);
  const nameOf = (id: string) => `${location}/assets/${id}`;
  const have = new Set(current);
  const want = new Set(wanted);
  const toAdd = wanted.filter((id) => !have.has(id));
  const toRemove = current.filter((id) => !want.has(id));
  for (const batch of chunks(toRemove, REMOVE_BATCH)) {
    await wait(await client.post<Operation>(`/v1alpha1/${group}:removeAssets`, { assets: { assetIds: batch.map(nameOf) }, allowMissing: true }));
  }
  for (const batch of chunks(toAdd, ADD_BATCH)) {
    try {
      await wait(await client.post<Operation>(`/v1alpha1/${group}:addAssets`, { assets: { assetIds: batch.map(nameOf) }, allowExisting: true }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(
        `group ${group}: an asset listed in 'assets' does not exist (deleted outside Pulumi?): take it out of 'assets', or bring the asset back. ${message}`,
        { cause: err },
      );
    }
  }
}
