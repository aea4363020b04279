/**
 * The endpoint policy domain (`networkservices/v1` EndpointPolicy): create, get, list, patch,
 * delete, seed. Stored in collection `endpointPolicies`, key = resource name.
 */
import { alreadyExists, invalidArgument, notFound, type FieldViolation } from '../errors';
import type { Store } from '../store/store';
import { keysetPage, type KeysetPageRequest, type ListPage } from '../query/list-query';
import { NAME_SEGMENT_ID } from '../http/names';
import { jsonName } from '../http/protojson';
import { joinField, schemaViolations } from '../http/validation';
import type { IamPolicies } from './iam-policy';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../operations/operations';
import { NOT_A_TIMESTAMP, isWireTimestamp } from '../http/wire-timestamp';

export const ENDPOINT_POLICIES = 'endpointPolicies';
export const ENDPOINT_POLICY_TYPE = 'type.googleapis.com/google.cloud.networkservices.v1.EndpointPolicy';
export const ENDPOINT_POLICY_RESOURCE_TYPE = 'networkservices.googleapis.com/EndpointPolicy';
export const NETWORK_SERVICES = 'networkservices.googleapis.com';

export interface EndpointPolicy {
  name: string;
  createTime: string;
  updateTime: string;
  type: 'SIDECAR_PROXY' | 'GRPC_SERVER';
  endpointMatcher: Record<string, unknown>;
  labels?: Record<string, string>;
  description?: string;
  authorizationPolicy?: string;
  serverTlsPolicy?: string;
  clientTlsPolicy?: string;
  trafficPortSelector?: { ports?: string[] };
}

/** Fields a caller sets (create, patch); `name`, `createTime`, `updateTime` are output only. */
export const MUTABLE_FIELDS = [
  'labels',
  'description',
  'type',
  'authorizationPolicy',
  'endpointMatcher',
  'trafficPortSelector',
  'serverTlsPolicy',
  'clientTlsPolicy',
] as const;
type MutableField = (typeof MUTABLE_FIELDS)[number];

const OUTPUT_FIELDS = new Set(['name', 'createTime', 'updateTime', 'create_time', 'update_time']);

const NAME = /^projects\/([^/]+)\/locations\/([^/]+)\/endpointPolicies\/([^/]+)$/;

/** What `--strict-references` checks in the reference fields (the referenced resources are not emulated). */
const REFERENCE_PATTERNS: Partial<Record<MutableField, RegExp>> = {
  authorizationPolicy: /^projects\/[^/]+\/locations\/[^/]+\/authorizationPolicies\/[^/]+$/,
  serverTlsPolicy: /^projects\/[^/]+\/locations\/[^/]+\/serverTlsPolicies\/[^/]+$/,
  clientTlsPolicy: /^projects\/[^/]+\/locations\/[^/]+\/clientTlsPolicies\/[^/]+$/,
};

/** endpoint_policy.proto: the parent "must be in the format projects/{project}/locations/global". */
export const ENDPOINT_POLICY_LOCATION = 'global';

/** INVALID_ARGUMENT for a location other than `global`; `field` is `parent` or `name`. */
export function checkGlobalLocation(location: string, field: string): void {
  if (location === ENDPOINT_POLICY_LOCATION) return;
  throw invalidArgument([
    {
      field,
      description: `location '${location}' is not supported: endpoint policies exist only in location 'global' (projects/{project}/locations/global)`,
    },
  ]);
}

export interface DomainOptions {
  strictReferences: boolean;
}

function pickMutable(body: Record<string, unknown>): Partial<EndpointPolicy> {
  const out: Record<string, unknown> = {};
  for (const f of MUTABLE_FIELDS) if (body[f] !== undefined) out[f] = body[f];
  return out as Partial<EndpointPolicy>;
}

/** Schema violations of the resource as it would be stored, plus reference checks. */
function violations(resource: Record<string, unknown>, prefix: string, options: DomainOptions): FieldViolation[] {
  const found = schemaViolations('EndpointPolicy', resource, prefix);
  if (options.strictReferences) {
    for (const [field, pattern] of Object.entries(REFERENCE_PATTERNS)) {
      const value = resource[field];
      if (typeof value === 'string' && value !== '' && !pattern!.test(value)) {
        found.push({ field: joinField(prefix, field), description: `must be a resource name matching ${pattern!.source.replace(/\\\//g, '/')}` });
      }
    }
  }
  return found;
}

/** The top-level fields an `updateMask` names; absent mask or `*` (AIP-134): every mutable field. */
export function parseEndpointPolicyMask(raw: string | undefined): MutableField[] {
  if (raw === undefined || raw.trim() === '') return [...MUTABLE_FIELDS];
  const fields = new Set<MutableField>();
  for (const part of raw.split(',').map((p) => p.trim())) {
    if (part === '*') {
      for (const field of MUTABLE_FIELDS) fields.add(field);
      continue;
    }
    const top = jsonName(part.split('.')[0]);
    if (OUTPUT_FIELDS.has(top) || OUTPUT_FIELDS.has(part)) {
      throw invalidArgument([{ field: 'updateMask', description: `'${part}' is output only and cannot be updated` }]);
    }
    if (!(MUTABLE_FIELDS as readonly string[]).includes(top)) {
      throw invalidArgument([{ field: 'updateMask', description: `'${part}' is not a field of EndpointPolicy (${MUTABLE_FIELDS.join(', ')})` }]);
    }
    fields.add(top as MutableField);
  }
  return [...fields];
}

/**
 * The endpoint policies of one app. Every write goes through the operations' write helper
 * (operations/writes.ts): one transaction with the change and its done Operation.
 */
export class EndpointPolicies {
  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    private readonly iamPolicies: IamPolicies,
    private readonly options: DomainOptions,
  ) {}

  get(name: string): EndpointPolicy {
    const policy = this.store.get<EndpointPolicy>(ENDPOINT_POLICIES, name);
    if (!policy) throw notFound(ENDPOINT_POLICY_RESOURCE_TYPE, name);
    return policy;
  }

  exists(name: string): boolean {
    return this.store.has(ENDPOINT_POLICIES, name);
  }

  list(parent: string, page: KeysetPageRequest): ListPage<EndpointPolicy> {
    return this.pageUnder(`${parent}/endpointPolicies/`, page);
  }

  /** Every endpoint policy of every project, by name (the console's list). */
  listAll(page: KeysetPageRequest): ListPage<EndpointPolicy> {
    return this.pageUnder('', page);
  }

  private pageUnder(prefix: string, page: KeysetPageRequest): ListPage<EndpointPolicy> {
    const result = keysetPage(
      page,
      (after, limit) => this.store.list<EndpointPolicy>(ENDPOINT_POLICIES, { prefix, after, limit }),
      (e) => e.key,
    );
    return { items: result.items.map((e) => e.value), nextPageToken: result.nextPageToken };
  }

  count(): number {
    return this.store.count(ENDPOINT_POLICIES);
  }

  /** CreateEndpointPolicy: validated before the write; the Operation is done at once. */
  create(parent: string, id: string, body: Record<string, unknown>): Operation {
    const name = `${parent}/endpointPolicies/${id}`;
    const found = violations(body, 'endpointPolicy', this.options);
    if (found.length > 0) throw invalidArgument(found);
    return this.ops.write({ parent, target: name, verb: 'create', responseType: ENDPOINT_POLICY_TYPE }, () => {
      if (this.store.get(ENDPOINT_POLICIES, name)) throw alreadyExists(ENDPOINT_POLICY_RESOURCE_TYPE, name);
      const now = new Date().toISOString();
      const policy = { name, createTime: now, updateTime: now, ...pickMutable(body) } as EndpointPolicy;
      this.store.put(ENDPOINT_POLICIES, name, policy);
      return policy;
    });
  }

  /**
   * UpdateEndpointPolicy: the fields the mask names are taken from the body (a field absent from
   * the body is cleared); without a mask every mutable field is replaced. The result is validated
   * as a whole.
   */
  patch(name: string, parent: string, body: Record<string, unknown>, updateMask: string | undefined): Operation {
    const fields = parseEndpointPolicyMask(updateMask);
    // Fields outside the mask are ignored (a name that is no field at all was refused by the front end).
    return this.ops.write({ parent, target: name, verb: 'update', responseType: ENDPOINT_POLICY_TYPE }, () => {
      const current = this.get(name);
      const next: Record<string, unknown> = { ...current };
      for (const f of fields) {
        if (body[f] === undefined) delete next[f];
        else next[f] = body[f];
      }
      const found = violations(next, 'endpointPolicy', this.options);
      if (found.length > 0) throw invalidArgument(found);
      next.updateTime = new Date().toISOString();
      this.store.put(ENDPOINT_POLICIES, name, next);
      return next;
    });
  }

  /** DeleteEndpointPolicy: the policy and its IAM policy (Google deletes a resource's IAM policy with it). */
  delete(name: string, parent: string, principal?: string): Operation {
    return this.ops.write({ parent, target: name, verb: 'delete', responseType: EMPTY_TYPE }, () => {
      if (!this.store.delete(ENDPOINT_POLICIES, name)) throw notFound(ENDPOINT_POLICY_RESOURCE_TYPE, name);
      this.iamPolicies.clear(name, principal);
    });
  }

  /** Seed section `endpointPolicies`: a list of whole resources with their `name`. */
  seed(value: unknown, field: string): number {
    if (!Array.isArray(value)) throw invalidArgument([{ field, description: 'must be a list of endpoint policies, each with its name' }]);
    const found: FieldViolation[] = [];
    const names = new Set<string>();
    value.forEach((item, i) => {
      const at = `${field}[${i}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        found.push({ field: at, description: 'must be an object' });
        return;
      }
      const name = (item as Record<string, unknown>).name;
      const match = typeof name === 'string' ? NAME.exec(name) : null;
      if (!match || !NAME_SEGMENT_ID.test(match[3])) {
        found.push({ field: `${at}.name`, description: 'must be projects/{project}/locations/global/endpointPolicies/{id}' });
      } else if (match[2] !== ENDPOINT_POLICY_LOCATION) {
        found.push({ field: `${at}.name`, description: `location '${match[2]}' is not supported: endpoint policies exist only in location 'global'` });
      } else if (names.has(name as string)) {
        found.push({ field: `${at}.name`, description: 'appears twice in the seed' });
      } else names.add(name as string);
      found.push(...violations(item as Record<string, unknown>, at, this.options));
      for (const time of ['createTime', 'updateTime'] as const) {
        const given = (item as Record<string, unknown>)[time];
        if (given !== undefined && !isWireTimestamp(given)) found.push({ field: `${at}.${time}`, description: NOT_A_TIMESTAMP });
      }
    });
    if (found.length > 0) throw invalidArgument(found);
    const now = new Date().toISOString();
    for (const item of value as Array<Record<string, unknown>>) {
      const policy = {
        name: item.name,
        createTime: typeof item.createTime === 'string' ? item.createTime : now,
        updateTime: typeof item.updateTime === 'string' ? item.updateTime : now,
        ...pickMutable(item),
      };
      this.store.put(ENDPOINT_POLICIES, item.name as string, policy);
    }
    return value.length;
  }
}
