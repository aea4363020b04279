/**
 * A resource family of Migration Center: one folder (`import-jobs/`, `groups/`, ...) holding its
 * domain, its wire rules and its routes, and one entry in the registry (families.ts).
 *
 * The service entry (routes.ts) builds every family's domain in the registry's order, then lets
 * each family declare its routes. A family reaches another family's domain only through
 * `scope.domain(key)` (built earlier in the registry) or `scope.later(key)` (for two families
 * that use each other), so the registry's order is the dependency order, and a wrong order fails
 * at start-up with a message naming both families.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { ServiceOperations } from '../operations/operations';
import type { StorageSettings } from '../payloads';
import type { Store } from '../store/store';
import { unknownPath } from '../errors';
import { locationName, splitVerb } from '../http/names';
import type { MigrationCenterDomains } from './families';
import type { WireVersion } from './wire-version';

export type FamilyKey = keyof MigrationCenterDomains;

/** What every family is given. */
export interface FamilyScope {
  readonly app: FastifyInstance;
  readonly ctx: EmulatorContext;
  readonly store: Store;
  /** Migration Center's operations (one service, one requestId table, one metadata type). */
  readonly ops: ServiceOperations;
  /** Where import payloads and export outputs live (a folder, or a GCS-compatible endpoint). */
  readonly storage: () => StorageSettings;
  /**
   * `/v1alpha1/projects/:project/locations/:location` (or `/v1/...`): every family's routes start
   * here. The service entry declares each family's routes once per API version, each time on a
   * fastify context of that version whose edge translates requests and answers (version-translation.ts),
   * so routes are built from `prefix` and types from names.ts, never spelled with a version.
   */
  readonly prefix: string;
  /** The API version these routes serve (its differences are data: wire-version.ts). */
  readonly version: WireVersion;
  /** A domain of a family registered before this one. */
  domain<K extends FamilyKey>(key: K): MigrationCenterDomains[K];
  /** A domain of any family, read when called (for families that use each other). */
  later<K extends FamilyKey>(key: K): () => MigrationCenterDomains[K];
}

export interface Family<K extends FamilyKey> {
  readonly key: K;
  /**
   * Builds the domain, once for every version (registers seeds, recovery and reset hooks as it
   * needs, and routes that belong to no API version, such as signed upload URLs).
   */
  build(scope: FamilyScope): MigrationCenterDomains[K];
  /** Declares the family's routes on `scope.app`, each calling one method of `domain`: once per API version. */
  routes(scope: FamilyScope, domain: MigrationCenterDomains[K]): void;
}

/** Route parameters of every Migration Center route: the location, and the path's further segments. */
export interface LocationParams {
  project: string;
  location: string;
}

/** The request's path without its query. */
export function urlPath(request: FastifyRequest): string {
  return request.url.split('?')[0];
}

/** `projects/{project}/locations/{location}` of a route; `field` names it in errors. */
export function parentOf(request: FastifyRequest<{ Params: LocationParams }>, field = 'parent'): string {
  return locationName(request.params.project, request.params.location, field).parent;
}

/**
 * The resource id of a path segment. Without `verbs` the segment is a bare id (`group-1`); with
 * them it must be `id:verb` with one of those verbs (`group-1:addAssets`). Anything else is the
 * path nobody serves (404, or 501 for a method Google has: errors.ts `unknownPath`).
 */
export function idSegment(request: FastifyRequest, segment: string, verbs?: readonly string[]): { id: string; verb?: string } {
  const { id, verb } = splitVerb(segment);
  const fits = verbs === undefined ? verb === undefined : verb !== undefined && verbs.includes(verb);
  if (!id || !fits) throw unknownPath(request.method, urlPath(request));
  return verb === undefined ? { id } : { id, verb };
}
