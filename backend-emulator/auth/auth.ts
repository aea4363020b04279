/**
 * Authentication and authorization (`--auth FILE`).
 *
 * Without an auth file every request is allowed and has no principal. With one:
 * - every request but `GET /healthz` needs `Authorization: Bearer <token>` with a token of the
 *   file (else 401 UNAUTHENTICATED);
 * - `/emulator/v1/*` needs an admin token (else 403 PERMISSION_DENIED);
 * - every Google method needs its IAM permission (auth/method-permissions.ts) on the resource its
 *   path names, decided once per request by the hook (auth/hook.ts, auth/request-permission.ts);
 * - an admin token passes every permission check;
 * - permission checks read the IAM policies of the resource and of its ancestors
 *   (`projects/P`, `projects/P/locations/L`), with roles expanded through auth/permissions.ts.
 *   Members match the principal by spelling (case-folded), `allUsers`, `allAuthenticatedUsers`,
 *   `domain:` (the principal's email domain) and `group:` (the file's `groups`). A conditional
 *   binding applies when its CEL expression evaluates to true with `request.time` = now and
 *   `resource.name|type|service` of the resource; an expression that cannot be evaluated here
 *   (tags, `api.getAttribute`), or not within a time limit (auth/conditions.ts), does not grant.
 */
import { createHash, timingSafeEqual } from 'crypto';
import type { AuthConfig } from '../config';
import { GoogleApiError, permissionDenied, unauthenticated } from '../errors';
import type { Store } from '../store/store';
import { canonicalMember } from '../../schemas/members';
import { readStoredPolicy } from './policy-records';
import { roleGrants } from './permissions';
import { ConditionEvaluator, type RequestConditions } from './conditions';

export interface Principal {
  /** `user:alice@example.com`, or `admin` for an admin token. */
  member: string;
  admin: boolean;
}

export interface ResourceAttributes {
  name: string;
  type: string;
  service: string;
}

const MISSING_CREDENTIALS =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.';
const INVALID_CREDENTIALS =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.';

/** A token as compared: its SHA-256, so that every comparison is of 32 bytes whatever the token's length. */
function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

interface KnownToken {
  digest: Buffer;
  principal: Principal;
}

export class Authorizer {
  private readonly tokens: KnownToken[];
  private readonly conditions: ConditionEvaluator;

  /**
   * `onSlowCondition` is told of a condition that ran out of time, `onConditionBudget` of a
   * request whose conditions spent their CPU budget (auth/conditions.ts).
   */
  constructor(
    private readonly config: AuthConfig | undefined,
    private readonly store: Store,
    onSlowCondition?: (expression: string) => void,
    onConditionBudget?: (resourceName: string) => void,
  ) {
    this.conditions = new ConditionEvaluator(onSlowCondition, {}, onConditionBudget);
    const byToken = new Map<string, Principal>();
    if (config) {
      for (const [token, member] of Object.entries(config.tokens)) byToken.set(token, { member, admin: false });
      for (const token of config.adminTokens ?? []) byToken.set(token, { member: byToken.get(token)?.member ?? 'admin', admin: true });
    }
    this.tokens = [...byToken].map(([token, principal]) => ({ digest: tokenDigest(token), principal }));
  }

  /**
   * The principal of a presented token. Every known token is compared, each in constant time, so
   * the time taken tells nothing of how much of a token was right (a map lookup's would).
   */
  private principalOf(token: string): Principal | undefined {
    const digest = tokenDigest(token);
    let found: Principal | undefined;
    for (const known of this.tokens) if (timingSafeEqual(known.digest, digest)) found = known.principal;
    return found;
  }

  get enabled(): boolean {
    return this.config !== undefined;
  }

  /** The principal of an `Authorization` header value; throws 401 when missing or unknown. */
  authenticate(authorization: string | undefined): Principal {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!authorization) throw unauthenticated(MISSING_CREDENTIALS);
    if (!match) throw unauthenticated(INVALID_CREDENTIALS);
    const principal = this.principalOf(match[1]);
    if (!principal) throw unauthenticated(INVALID_CREDENTIALS);
    return principal;
  }

  requireAdmin(principal: Principal | undefined): void {
    if (!this.enabled || principal?.admin) return;
    throw new GoogleApiError('PERMISSION_DENIED', 'The emulator admin routes need an admin token (adminTokens in the --auth file).');
  }

  /** Whether the principal holds `permission` on the resource. No auth file: always. */
  holds(principal: Principal | undefined, resource: ResourceAttributes, permission: string): boolean {
    return this.decision(principal, resource)(permission);
  }

  /**
   * The permissions of the list that the principal holds on the resource, in the list's order,
   * repeats kept (testIamPermissions): each distinct permission is decided once, and the
   * conditions met are evaluated once for them all, within one budget (auth/conditions.ts). A
   * list of one permission 1,000 times decided it 1,000 times, every condition each time.
   */
  heldPermissions(principal: Principal | undefined, resource: ResourceAttributes, permissions: readonly string[]): string[] {
    return permissions.filter(this.decision(principal, resource));
  }

  /**
   * Throws PERMISSION_DENIED naming the (first) permission unless the principal holds one of
   * `permissions` on the resource.
   */
  requirePermission(principal: Principal | undefined, resource: ResourceAttributes, ...permissions: readonly string[]): void {
    if (!permissions.some(this.decision(principal, resource))) throw permissionDenied(permissions[0], resource.name);
  }

  /**
   * The decision of one request about one resource: whether the principal holds a permission,
   * each permission decided once, the conditions of all of them evaluated together.
   */
  private decision(principal: Principal | undefined, resource: ResourceAttributes): (permission: string) => boolean {
    if (!this.enabled || principal?.admin) return () => true;
    if (!principal) return () => false;
    const conditions = this.conditions.forRequest(resource);
    const decided = new Map<string, boolean>();
    return (permission) => {
      let held = decided.get(permission);
      if (held === undefined) {
        held = this.decide(principal, resource, permission, conditions);
        decided.set(permission, held);
      }
      return held;
    };
  }

  private decide(principal: Principal, resource: ResourceAttributes, permission: string, conditions: RequestConditions): boolean {
    for (const name of policyChain(resource.name)) {
      const stored = readStoredPolicy(this.store, name);
      if (!stored) continue;
      for (const binding of stored.bindings) {
        if (!roleGrants(binding.role, permission, this.config?.roles)) continue;
        if (!binding.members.some((m) => this.memberMatches(m, principal.member))) continue;
        if (binding.condition && !conditions.holds(binding.condition.expression)) continue;
        return true;
      }
    }
    return false;
  }

  private memberMatches(member: string, principal: string): boolean {
    if (member === 'allUsers' || member === 'allAuthenticatedUsers') return true;
    const folded = canonicalMember(member);
    const who = canonicalMember(principal);
    if (folded === who) return true;
    if (folded.startsWith('domain:')) {
      const at = who.lastIndexOf('@');
      return at > 0 && who.slice(at + 1) === folded.slice('domain:'.length);
    }
    if (folded.startsWith('group:') && this.config?.groups) {
      for (const [group, members] of Object.entries(this.config.groups)) {
        const g = canonicalMember(group.startsWith('group:') ? group : `group:${group}`);
        if (g === folded && members.some((m) => canonicalMember(m) === who)) return true;
      }
    }
    return false;
  }
}

/** The resource and its ancestors whose policies apply: `projects/p`, `projects/p/locations/l`, ... */
export function policyChain(resourceName: string): string[] {
  const parts = resourceName.split('/');
  const chain: string[] = [];
  for (let n = 2; n <= parts.length; n += 2) chain.push(parts.slice(0, n).join('/'));
  if (parts.length % 2 === 1) chain.push(resourceName);
  return chain;
}
