/**
 * The Migration Center settings of a location (`projects/{p}/locations/{l}/settings`):
 * `preferenceSet`, the preference set reports use by default, and two flags the emulator keeps
 * without effect (`disableCloudLogging`, `customerConsentForGoogleSalesToAccessMigrationCenter`).
 *
 * getSettings answers the stored settings, or `{ name }` when none were ever written;
 * updateSettings is a long-running method (an Operation, done at once) with a required
 * `updateMask`. A `preferenceSet` must name an existing preference set of the same location, and
 * while the settings name it, that preference set cannot be deleted (`guardDeletes`).
 */
import type { Store } from '../../store/store';
import type { ServiceOperations, Operation } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { failedPrecondition, invalidArgument, notFound } from '../../errors';
import { schemaViolations } from '../../http/validation';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, parentOf } from '../names';
import { maskPaths } from '../masks';
import { checkRequestId } from '../request-id-rule';
import type { PreferenceSets } from '../preference-sets/preference-sets';

export interface SettingsWire {
  name: string;
  preferenceSet?: string;
  disableCloudLogging?: boolean;
  customerConsentForGoogleSalesToAccessMigrationCenter?: boolean;
}

const UPDATABLE = ['preferenceSet', 'disableCloudLogging', 'customerConsentForGoogleSalesToAccessMigrationCenter'] as const;
type UpdatableField = (typeof UPDATABLE)[number];

export class LocationSettings {
  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    private readonly preferenceSets: PreferenceSets,
  ) {}

  /** The settings name of a location: `projects/{p}/locations/{l}/settings`. */
  static nameOf(location: string): string {
    return `${location}/settings`;
  }

  /** GetSettings: the stored settings, or the defaults (`{ name }`). */
  get(location: string): SettingsWire {
    const name = LocationSettings.nameOf(location);
    return this.store.get<SettingsWire>(COLLECTIONS.settings, name) ?? { name };
  }

  /** UpdateSettings: the fields `updateMask` names (required; `*` for all three). */
  update(location: string, updateMask: string | undefined, requestId: unknown, body: Record<string, unknown>): Operation {
    const checkedRequest = checkRequestId(requestId);
    const violations = schemaViolations('Settings', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const paths = maskPaths(updateMask, UPDATABLE);
    for (const path of paths) {
      if (!(UPDATABLE as readonly string[]).includes(path)) {
        throw invalidArgument([{ field: 'updateMask', description: `'${path}' cannot be updated: updatable fields are ${UPDATABLE.join(', ')}` }]);
      }
    }
    const name = LocationSettings.nameOf(location);
    const input = body as Partial<Record<UpdatableField, unknown>>;
    const hash = requestHash('updateSettings', name, { input, paths });
    return this.ops.write(
      { parent: location, target: name, verb: 'update', responseType: TYPES.settings, requestId: checkedRequest, requestHash: hash },
      () => {
        const next: Record<string, unknown> = { ...this.get(location) };
        for (const path of paths as UpdatableField[]) {
          if (input[path] === undefined) delete next[path];
          else next[path] = input[path];
        }
        const settings = next as unknown as SettingsWire;
        if (settings.preferenceSet) this.checkPreferenceSet(location, settings.preferenceSet);
        this.store.put(COLLECTIONS.settings, name, settings);
        return settings;
      },
    );
  }

  /** A preference set the settings name cannot be deleted: the preference sets' delete guard. */
  guardDeletes(): void {
    this.preferenceSets.guardDelete((preferenceSet) => {
      const location = parentOf(preferenceSet.name);
      if (this.get(location).preferenceSet !== preferenceSet.name) return;
      throw failedPrecondition(
        `Preference set ${preferenceSet.name} is the default preference set of ${LocationSettings.nameOf(location)}: ` +
          'name another preference set there, or clear it (updateSettings with updateMask=preferenceSet), before deleting it.',
      );
    });
  }

  private checkPreferenceSet(location: string, preferenceSet: string): void {
    if (parentOf(preferenceSet) !== location) {
      throw invalidArgument([{ field: 'preferenceSet', description: `must be a preference set of ${location}, not of ${parentOf(preferenceSet)}` }]);
    }
    if (!this.preferenceSets.find(preferenceSet)) throw notFound(RESOURCE_TYPES.preferenceSet, preferenceSet);
  }
}
