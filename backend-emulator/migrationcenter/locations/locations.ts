/**
 * `projects.locations.get` and `list` of Migration Center: the emulator's locations are Google's
 * Migration Center regions (regions.ts) and every other location where the project holds
 * Migration Center data (a resource or an Operation under `projects/{p}/locations/{l}/`): the
 * emulator accepts any well-formed location in a resource name, as the list then shows.
 *
 * A Location answers `name`, `locationId` and `displayName` (the city of Google's page; the id for
 * a location outside it). `filter` (AIP-160) reads those three fields; the list is in name order.
 */
import type { Store } from '../../store/store';
import { notFound } from '../../errors';
import { listPage, type ListFields, type ListRequest } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES } from '../names';
import { MIGRATION_CENTER_REGIONS } from './regions';

export interface LocationWire {
  name: string;
  locationId: string;
  displayName: string;
}

const LOCATION_LIST_FIELDS: ListFields<LocationWire> = {
  scalars: { name: (l) => l.name, locationId: (l) => l.locationId, displayName: (l) => l.displayName },
  name: (l) => l.name,
};

const REGION_NAMES: ReadonlyMap<string, string> = new Map(MIGRATION_CENTER_REGIONS.map((r) => [r.id, r.displayName]));

export class Locations {
  constructor(
    private readonly store: Store,
    /** The store collections whose keys are Migration Center resource names (and Operations). */
    private readonly collections: readonly string[],
  ) {}

  /** Every location of `projects/{project}` (unpaged). */
  all(project: string): LocationWire[] {
    const ids = new Set([...REGION_NAMES.keys(), ...this.locationsWithData(project)]);
    return [...ids].map((id) => this.location(project, id));
  }

  /** ListLocations of `projects/{project}`. */
  list(project: string, request: ListRequest): { locations: LocationWire[]; nextPageToken?: string } {
    const all = this.all(project);
    const page = listPage(all, request, LOCATION_LIST_FIELDS, `locations:${project}`);
    return { locations: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** GetLocation: one of Google's regions, or a location where the project holds data; NOT_FOUND otherwise. */
  get(project: string, locationId: string): LocationWire {
    if (REGION_NAMES.has(locationId) || this.holdsData(project, locationId)) return this.location(project, locationId);
    throw notFound(RESOURCE_TYPES.location, `projects/${project}/locations/${locationId}`);
  }

  private location(project: string, id: string): LocationWire {
    return { name: `projects/${project}/locations/${id}`, locationId: id, displayName: REGION_NAMES.get(id) ?? id };
  }

  private holdsData(project: string, locationId: string): boolean {
    const prefix = `projects/${project}/locations/${locationId}/`;
    return this.collections.some((c) => this.store.count(c, prefix) > 0);
  }

  private locationsWithData(project: string): Set<string> {
    const prefix = `projects/${project}/locations/`;
    const found = new Set<string>();
    for (const collection of this.collections) {
      // One key per location is enough: skip past the rest of a location's keys.
      let after: string | undefined;
      for (;;) {
        const [entry] = this.store.list(collection, { prefix, ...(after ? { after } : {}), limit: 1 });
        if (!entry) break;
        const id = entry.key.slice(prefix.length).split('/')[0];
        found.add(id);
        after = `${prefix}${id}/\uffff`;
      }
    }
    return found;
  }
}

/** The collections that hold Migration Center resources by name: every one of names.ts but the requestIds. */
export function resourceCollections(operationsCollection: string): string[] {
  return [...Object.values(COLLECTIONS).filter((c) => c !== COLLECTIONS.requestIds), operationsCollection];
}
