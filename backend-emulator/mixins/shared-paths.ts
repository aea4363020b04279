/**
 * Paths two services share. Google serves each API on a host of its own
 * (`networkservices.googleapis.com`, `migrationcenter.googleapis.com`); the emulator serves every
 * API on one URL, so where two APIs have the same path (`/v1/projects/*\/locations/*\/operations`,
 * `/v1/projects/*\/locations`) one route answers for both, and a request is answered by the one
 * service it means:
 *
 * 1. The `Host` it was sent to, when its first label names a service (`migrationcenter.googleapis.com`,
 *    `migrationcenter.localhost:8085`, any allowed host `networkservices.example.test`): that service only,
 *    exactly as Google answers.
 * 2. Otherwise (Google's clients pointed at one emulator URL send only that URL's host), by what the
 *    request names: an operation by the service that holds it (every service keeps its operations
 *    in its own store collection); a list or a location by the first service, in registration
 *    order, that claims the location (Network Services claims `global`, the only location of its
 *    resources here; Migration Center every location): so a list never holds two services' records.
 */
import type { FastifyRequest } from 'fastify';

/** One service answering on a shared path. */
export interface Tenant {
  /** The service's host label: `migrationcenter`, `networkservices`. */
  readonly service: string;
  /** Whether the service answers an unhinted request about this location (default: every location). */
  readonly claimsLocation?: (location: string) => boolean;
}

/**
 * The tenants of each shared route, per app: keyed by an object of that app alone (its operations
 * registry; not its store, which a test may hand to the next app it builds).
 */
const registries = new WeakMap<object, Map<string, Tenant[]>>();

/**
 * Adds `tenant` to the shared route `key` of the app `owner` stands for. Returns true for the
 * first tenant, who registers the route (fastify refuses a route declared twice).
 */
export function joinSharedPath<T extends Tenant>(owner: object, key: string, tenant: T): { first: boolean; tenants: readonly T[] } {
  let byKey = registries.get(owner);
  if (!byKey) registries.set(owner, (byKey = new Map()));
  const tenants = byKey.get(key) ?? [];
  const first = tenants.length === 0;
  tenants.push(tenant);
  byKey.set(key, tenants);
  return { first, tenants: tenants as T[] };
}

/** The service the request's `Host` names (its first label), when one of `tenants` is that service. */
export function hostedService<T extends Tenant>(request: FastifyRequest, tenants: readonly T[]): T | undefined {
  const host = (request.headers.host ?? '').toLowerCase();
  const label = host.split(/[.:]/, 1)[0];
  return tenants.find((t) => t.service === label);
}

/** The tenants a request about `location` may mean: the hosted one, else the first that claims the location. */
export function tenantFor<T extends Tenant>(request: FastifyRequest, tenants: readonly T[], location: string): T {
  return hostedService(request, tenants) ?? tenants.find((t) => t.claimsLocation?.(location) ?? true) ?? tenants[0];
}

/** The tenants an operation name may belong to: the hosted one, else all, in registration order. */
export function candidateTenants<T extends Tenant>(request: FastifyRequest, tenants: readonly T[]): readonly T[] {
  const hosted = hostedService(request, tenants);
  return hosted ? [hosted] : tenants;
}
