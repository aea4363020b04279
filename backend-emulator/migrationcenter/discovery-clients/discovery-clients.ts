/**
 * Discovery clients (`projects/{project}/locations/{location}/discoveryClients/{id}`): installed
 * collectors that report assets to a source and send heartbeats. The standard methods of
 * resource-collection.ts, and `:sendHeartbeat`; the body rules are
 * schemas/DiscoveryClient.schema.json and DiscoveryClientHeartbeat.schema.json.
 *
 * - `source` (an existing source of the client's location) and `serviceAccount` are required on
 *   create; `source` cannot be changed afterwards.
 * - `ttl` and `expireTime` are one protobuf oneof: at most one is given. `ttl` is input only: the
 *   client stores the `expireTime` it gives (now + ttl). An expiration must lie in the future.
 * - `state` is derived when the client is read (state.ts); heartbeats set `heartbeatTime`,
 *   `version` and `errors`, and, as Google documents, leave `updateTime` alone.
 * - `signalsEndpoint` ("for internal use") and `recommendedVersions` stay absent: the emulator
 *   has no signals endpoint and no client versions to recommend.
 */
import type { Store } from '../../store/store';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../../operations/operations';
import { failedPrecondition, invalidArgument, notFound } from '../../errors';
import { schemaViolations } from '../../http/validation';
import { listStorePage, type ListFields, type ListRequest } from '../../query/list-query';
import type { Sources } from '../sources/sources';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, parentOf } from '../names';
import { ResourceCollection, type CollectionSpec, type NamedResource } from '../resource-collection';
import { discoveryClientState, type DiscoveryClientState } from './state';

export interface DiscoveryClientWire extends NamedResource {
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  labels?: Record<string, string>;
  source: string;
  serviceAccount: string;
  expireTime?: string;
  heartbeatTime?: string;
  version?: string;
  errors?: Array<Record<string, unknown>>;
  /** Input only: turned into expireTime before the client is stored. */
  ttl?: string;
  /** Output only: derived when read, never stored. */
  state?: DiscoveryClientState;
}

const INPUT_FIELDS = ['displayName', 'description', 'labels', 'source', 'serviceAccount', 'ttl', 'expireTime'] as const;
const UPDATABLE = ['displayName', 'description', 'labels', 'serviceAccount', 'ttl', 'expireTime'] as const;

export function checkDiscoveryClientBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations = schemaViolations('DiscoveryClient', body);
  if (body.ttl !== undefined && body.expireTime !== undefined) {
    violations.push({ field: 'ttl', description: 'cannot be given together with expireTime: they are one choice (the expiration)' });
  }
  if (violations.length > 0) throw invalidArgument(violations);
  const input: Record<string, unknown> = {};
  for (const field of INPUT_FIELDS) if (body[field] !== undefined) input[field] = body[field];
  return input;
}

/** `86400s` or `1.5s` (a checked protobuf Duration) in milliseconds. */
function durationMs(ttl: string): number {
  return Math.round(Number(ttl.slice(0, -1)) * 1000);
}

export class DiscoveryClients extends ResourceCollection<DiscoveryClientWire> {
  constructor(store: Store, ops: ServiceOperations, sources: Sources, now: () => string = () => new Date().toISOString()) {
    const listFields: ListFields<DiscoveryClientWire> = {
      scalars: {
        name: (c) => c.name,
        displayName: (c) => c.displayName,
        description: (c) => c.description,
        source: (c) => c.source,
        serviceAccount: (c) => c.serviceAccount,
        version: (c) => c.version,
        state: (c) => discoveryClientState(c, Date.parse(now())),
        createTime: (c) => c.createTime,
        updateTime: (c) => c.updateTime,
        expireTime: (c) => c.expireTime,
        heartbeatTime: (c) => c.heartbeatTime,
      },
      maps: { labels: (c) => c.labels },
      name: (c) => c.name,
    };
    const spec: CollectionSpec<DiscoveryClientWire> = {
      segment: 'discoveryClients',
      idField: 'discoveryClientId',
      storeCollection: COLLECTIONS.discoveryClients,
      resourceType: RESOURCE_TYPES.discoveryClient,
      wireType: TYPES.discoveryClient,
      methodNames: { create: 'createDiscoveryClient', update: 'updateDiscoveryClient', delete: 'deleteDiscoveryClient' },
      check: checkDiscoveryClientBody,
      updatable: UPDATABLE,
      listFields,
      create: (name, input, time) => ({
        name,
        createTime: time,
        updateTime: time,
        ...(input as Omit<DiscoveryClientWire, 'name' | 'createTime' | 'updateTime'>),
      }),
      beforeWrite: (client, previous) => {
        delete client.state;
        const nowMs = Date.parse(now());
        if (client.ttl !== undefined) {
          // From the write's own time (create and patch set updateTime to it): expireTime - updateTime = ttl.
          client.expireTime = new Date(Date.parse(client.updateTime) + durationMs(client.ttl)).toISOString();
          delete client.ttl;
        }
        if (client.expireTime !== undefined && client.expireTime !== previous?.expireTime && Date.parse(client.expireTime) <= nowMs) {
          throw invalidArgument([{ field: 'expireTime', description: `must be in the future (it is ${client.expireTime}, and now is ${now()})` }]);
        }
        if (!client.serviceAccount) throw invalidArgument([{ field: 'serviceAccount', description: 'is required' }]);
        if (!previous) {
          if (parentOf(client.source) !== parentOf(client.name)) {
            throw invalidArgument([{ field: 'source', description: `must be a source of ${parentOf(client.name)}, not of ${parentOf(client.source)}` }]);
          }
          if (!sources.find(client.source)) throw notFound(RESOURCE_TYPES.source, client.source);
        }
      },
    };
    super(spec, store, ops, now);
  }

  /**
   * CreateDiscoveryClient: `source` and `serviceAccount` are required (a patch may leave them out).
   * The id is checked first, as every collection's create does: a request without one is refused
   * naming `discoveryClientId`, whatever its body holds.
   */
  override create(parent: string, id: string | undefined, requestId: unknown, body: Record<string, unknown>, location = parent): Operation {
    this.checkId(id);
    const missing = (['source', 'serviceAccount'] as const).filter((f) => body[f] === undefined || body[f] === '');
    const violations = [...schemaViolations('DiscoveryClient', body), ...missing.map((field) => ({ field, description: 'is required' }))];
    if (missing.length > 0) throw invalidArgument(violations);
    return super.create(parent, id, requestId, body, location);
  }

  override get(name: string): DiscoveryClientWire {
    return this.withState(super.get(name));
  }

  override list(parent: string, request: ListRequest): Record<string, unknown> {
    const page = listStorePage(
      this.store,
      this.spec.storeCollection,
      `${parent}/discoveryClients/`,
      request,
      this.spec.listFields,
      `discoveryClients:${parent}`,
    );
    return { discoveryClients: page.items.map((c) => this.withState(c)), ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  override insert(name: string, input: Record<string, unknown>): DiscoveryClientWire {
    return this.withState(super.insert(name, input));
  }

  override update(name: string, input: Record<string, unknown>, paths: readonly string[]): DiscoveryClientWire {
    return this.withState(super.update(name, input, paths));
  }

  /**
   * SendDiscoveryClientHeartbeat: an Operation done at once (response Empty). An expired client's
   * heartbeat is FAILED_PRECONDITION, as Google's backend accepts nothing from it after expireTime.
   */
  sendHeartbeat(name: string, location: string, body: Record<string, unknown>): Operation {
    const violations = schemaViolations('DiscoveryClientHeartbeat', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const { version, errors } = body as { version?: string; errors?: Array<Record<string, unknown>> };
    return this.ops.write({ parent: location, target: name, verb: 'sendHeartbeat', responseType: EMPTY_TYPE }, () => {
      const { state: _state, ...client } = this.get(name);
      if (discoveryClientState(client, Date.parse(this.now())) === 'EXPIRED') {
        throw failedPrecondition(`Discovery client ${name} expired at ${client.expireTime}: it accepts no heartbeat; extend its ttl or expireTime first.`);
      }
      const next: DiscoveryClientWire = { ...client, heartbeatTime: this.now() };
      if (version) next.version = version;
      else delete next.version;
      if (errors && errors.length > 0) next.errors = errors;
      else delete next.errors;
      // updateTime stays: Google's "not updated by heartbeats".
      this.store.put(this.spec.storeCollection, name, next);
    });
  }

  private withState(client: DiscoveryClientWire): DiscoveryClientWire {
    return { ...client, state: discoveryClientState(client, Date.parse(this.now())) };
  }
}
