/**
 * The seed registry and loader behind `POST /emulator/v1/seed`.
 *
 * A seed document is a JSON object whose top-level keys are sections registered by the services
 * (`endpointPolicies`, `iamPolicies` by networkservices; Migration Center adds its own). Sections
 * load in registration order inside ONE store transaction: any invalid item rejects the whole
 * document and leaves the state as it was. Seeding adds to (or replaces, by name) what is there;
 * `POST /emulator/v1/reset` first for a clean slate.
 */
import type { SeedLoader, SeedRegistry } from '../context';
import { invalidArgument } from '../errors';
import type { Store } from '../store/store';

export class Seeds implements SeedRegistry {
  private readonly loaders = new Map<string, SeedLoader>();

  register(section: string, loader: SeedLoader): void {
    if (this.loaders.has(section)) throw new Error(`seed section '${section}' is registered twice`);
    this.loaders.set(section, loader);
  }

  sections(): string[] {
    return [...this.loaders.keys()];
  }

  loader(section: string): SeedLoader | undefined {
    return this.loaders.get(section);
  }
}

/** Validates and loads a seed document in one transaction; returns the count per section. */
export function loadSeed(store: Store, seeds: SeedRegistry, document: unknown): Record<string, number> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw invalidArgument([{ field: '', description: 'a seed document must be a JSON object of sections' }]);
  }
  const doc = document as Record<string, unknown>;
  const known = seeds.sections();
  const unknown = Object.keys(doc).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw invalidArgument(unknown.map((k) => ({ field: k, description: `is not a seed section this emulator knows (${known.join(', ')})` })));
  }
  return store.transaction(() => {
    const loaded: Record<string, number> = {};
    for (const section of known) {
      if (doc[section] === undefined) continue;
      loaded[section] = seeds.loader(section)!(doc[section], section);
    }
    return loaded;
  });
}
