/**
 * The IAM policy domain (`google.iam.v1` getIamPolicy / setIamPolicy) of any resource name.
 *
 * Storage: collection `iamPolicies`, key = resource name, value `StoredPolicy` (always the full
 * version-3 form); every accepted write is appended to `iamPolicyHistory` (key
 * `{resource}#{revision:12}`) in the same transaction as the write, which removes the entry
 * IAM_HISTORY_KEPT writes older.
 *
 * etags: `ACAB` is the etag of a policy never written (or cleared because its resource was
 * deleted); every accepted write gets a new random 8-byte etag (base64, e.g. `BwXhqTuaU8g=`).
 * The etag comparison and the write happen inside one store transaction.
 */
import { createHash } from 'crypto';
import { randomBytesPooled } from '../random';
import { aborted, invalidArgument, type FieldViolation } from '../errors';
import { integerText } from '../integer-text';
import type { Store } from '../store/store';
import { canonicalMember } from '../../schemas/members';
import { schemaViolations } from '../http/validation';
import { jsonFieldPath } from '../http/protojson';
import { AnswerTexts } from '../http/answer-text';
import { IAM_POLICIES, readStoredPolicy, type Binding, type Expr, type StoredPolicy } from '../auth/policy-records';

// The stored record and its reader live in auth/ (which reads them to authorize, and is below
// the services): re-exported here for the domain's users.
export { IAM_POLICIES, readStoredPolicy, type Binding, type Expr, type StoredPolicy };

export const IAM_HISTORY = 'iamPolicyHistory';

/**
 * The writes of one resource's policy the history keeps: the newest, each write past them removing
 * the oldest. Unbounded, a caller allowed to set one policy grew it for good: 3,300 writes of
 * 1,500 members took 42 s and made a 322 MB data dir, and one `iamHistory` read of it held the
 * emulator at 1.9 GB (a few thousand more and its answer would pass V8's longest string).
 */
export const IAM_HISTORY_KEPT = 100;
export const EMPTY_ETAG = 'ACAB';
export const CONCURRENT_POLICY_CHANGES = 'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.';

export const MAX_MEMBERS = 1500;
export const MAX_GROUPS = 250;
/** Bindings with the same role and member but different conditions. */
export const MAX_CONDITIONS_PER_ROLE_MEMBER = 20;
export const BASIC_ROLES: ReadonlySet<string> = new Set(['roles/owner', 'roles/editor', 'roles/viewer']);
export const PUBLIC_MEMBERS: ReadonlySet<string> = new Set(['allUsers', 'allAuthenticatedUsers']);
export const POLICY_VERSIONS: readonly number[] = [0, 1, 3];
export const WITHCOND = '_withcond_';

/** The wire `google.iam.v1.Policy`. */
export interface Policy {
  version?: number;
  bindings?: Binding[];
  auditConfigs?: unknown[];
  etag?: string;
}

export type HistoryKind = 'set' | 'seed' | 'resourceDeleted';

export interface HistoryEntry {
  resource: string;
  revision: number;
  etag: string;
  time: string;
  kind: HistoryKind;
  /** The caller, when the emulator runs with --auth. */
  principal?: string;
  /** The policy as stored after this write (version 3 form). */
  policy: Policy;
}

type MaskField = 'bindings' | 'etag' | 'auditConfigs' | 'version';
const MASK_FIELDS: Record<string, MaskField> = {
  bindings: 'bindings',
  etag: 'etag',
  auditConfigs: 'auditConfigs',
  audit_configs: 'auditConfigs',
  version: 'version',
};
export const DEFAULT_UPDATE_MASK: ReadonlySet<MaskField> = new Set<MaskField>(['bindings', 'etag']);

// ---------------------------------------------------------------------------------------------
// Reading

/** `options.requestedPolicyVersion`: absent is 0; only 0, 1 and 3 exist. */
export function parseRequestedVersion(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const value = integerText(raw) ?? NaN;
  if (!POLICY_VERSIONS.includes(value)) {
    throw invalidArgument(
      [{ field: 'options.requestedPolicyVersion', description: `must be 0, 1 or 3, not '${raw}'` }],
      `Invalid requested policy version: ${raw}. Valid versions are 0, 1 and 3.`,
    );
  }
  return value;
}

/** The role name a conditional binding gets when read below version 3. */
export function maskedRole(binding: Binding): string {
  const c = binding.condition ?? { expression: '' };
  const hash = createHash('sha256')
    .update(JSON.stringify([c.expression, c.title ?? '', c.description ?? '', c.location ?? '']))
    .digest('hex')
    .slice(0, 20);
  return `${binding.role}${WITHCOND}${hash}`;
}

/**
 * The policy as a client sees it at `requestedVersion`. A policy with no bindings and no audit
 * configs is just `{etag}`. Without conditions the version is 1; with conditions it is 3 when 3
 * was asked for, else 1 with each conditional role renamed `{role}_withcond_{hash}` and its
 * condition left out.
 */
export function viewPolicy(stored: StoredPolicy | undefined, requestedVersion: number): Policy {
  if (!stored || (stored.bindings.length === 0 && stored.auditConfigs.length === 0)) return { etag: stored?.etag ?? EMPTY_ETAG };
  const conditional = stored.bindings.some((b) => b.condition);
  const policy: Policy = { version: conditional && requestedVersion === 3 ? 3 : 1 };
  if (stored.bindings.length > 0) {
    policy.bindings = stored.bindings.map((b) => {
      if (b.condition && requestedVersion < 3) return { role: maskedRole(b), members: [...b.members] };
      return b.condition ? { role: b.role, members: [...b.members], condition: { ...b.condition } } : { role: b.role, members: [...b.members] };
    });
  }
  if (stored.auditConfigs.length > 0) policy.auditConfigs = stored.auditConfigs;
  policy.etag = stored.etag;
  return policy;
}

function getIamPolicy(store: Store, resource: string, requestedVersion: number): Policy {
  return viewPolicy(readStoredPolicy(store, resource), requestedVersion);
}

// ---------------------------------------------------------------------------------------------
// Rules

/** `updateMask` (a FieldMask in its JSON form: comma-separated paths); absent: `bindings,etag`. */
export function parseUpdateMask(raw: unknown): ReadonlySet<MaskField> {
  if (raw === undefined || raw === null || raw === '') return DEFAULT_UPDATE_MASK;
  if (typeof raw !== 'string') throw invalidArgument([{ field: 'updateMask', description: 'must be a comma-separated list of field names' }]);
  const fields = new Set<MaskField>();
  for (const part of raw.split(',').map((p) => p.trim())) {
    // Either spelling of a path (`audit_configs`, `auditConfigs`), as for every FieldMask.
    const field = MASK_FIELDS[jsonFieldPath(part).replace(/^policy\./, '')];
    if (!field) {
      throw invalidArgument([
        { field: 'updateMask', description: `'${part}' is not a field of the policy that can be updated (bindings, etag, auditConfigs, version)` },
      ]);
    }
    fields.add(field);
  }
  return fields;
}

function conditionKey(c: Expr | undefined): string {
  return c ? JSON.stringify([c.expression, c.title ?? '', c.description ?? '', c.location ?? '']) : '';
}

/**
 * The policy-level rules JSON Schema cannot state. Fields name the exact binding and member
 * (`policy.bindings[2].members[0]`), in the request's own indexes.
 */
export function policyRuleViolations(policy: Policy, prefix = 'policy'): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const bindings = Array.isArray(policy.bindings) ? policy.bindings : [];
  let total = 0;
  let groups = 0;
  let conditional: number | undefined;
  const conditionsPerRoleMember = new Map<string, Set<string>>();
  bindings.forEach((binding, i) => {
    if (!binding || typeof binding !== 'object') return;
    const at = `${prefix}.bindings[${i}]`;
    const role = typeof binding.role === 'string' ? binding.role : '';
    const hasCondition = binding.condition !== undefined && binding.condition !== null;
    if (role.includes(WITHCOND)) {
      violations.push({
        field: `${at}.role`,
        description: `'${role}' is a conditional role binding masked by a policy read below version 3; read the policy with options.requestedPolicyVersion=3 and write that back`,
      });
    }
    if (hasCondition) {
      conditional ??= i;
      if (BASIC_ROLES.has(role)) {
        violations.push({
          field: `${at}.condition`,
          description: `conditions are not allowed on the basic role ${role} (roles/owner, roles/editor, roles/viewer)`,
        });
      }
    }
    const seen = new Map<string, number>();
    const members = Array.isArray(binding.members) ? binding.members : [];
    members.forEach((member, j) => {
      if (typeof member !== 'string') return;
      const field = `${at}.members[${j}]`;
      total++;
      if (total === MAX_MEMBERS + 1) {
        violations.push({
          field,
          description: `is member number ${total} of the policy; a policy holds at most ${MAX_MEMBERS} members, counting each appearance`,
        });
      }
      if (member.startsWith('group:')) {
        groups++;
        if (groups === MAX_GROUPS + 1)
          violations.push({ field, description: `is group number ${groups} of the policy; a policy holds at most ${MAX_GROUPS} groups` });
      }
      const key = canonicalMember(member);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        violations.push({ field, description: `repeats ${at}.members[${earlier}] (the email or domain part of a member is compared case-insensitively)` });
      } else seen.set(key, j);
      if (hasCondition && PUBLIC_MEMBERS.has(member)) {
        violations.push({ field, description: `${member} cannot be granted a role with a condition` });
      }
      if (hasCondition && role) {
        const rm = `${role}\u0000${key}`;
        const set = conditionsPerRoleMember.get(rm) ?? new Set<string>();
        set.add(conditionKey(binding.condition));
        conditionsPerRoleMember.set(rm, set);
        if (set.size === MAX_CONDITIONS_PER_ROLE_MEMBER + 1) {
          violations.push({
            field,
            description: `has role ${role} under ${set.size} different conditions; at most ${MAX_CONDITIONS_PER_ROLE_MEMBER} are allowed`,
          });
        }
      }
    });
  });
  if (conditional !== undefined && policy.version !== 3) {
    violations.unshift({
      field: `${prefix}.version`,
      description: `must be 3 when a binding has a condition (${prefix}.bindings[${conditional}].condition)`,
    });
  }
  return violations;
}

/**
 * What the resource's type says of a role: undefined when it can be granted there, else why not
 * (Google: `Role roles/storage.admin is not supported for this resource.`).
 */
export type RoleRule = (role: string) => string | undefined;

/** The bindings whose role the resource refuses, as `policy.bindings[i].role` violations. */
function roleViolations(policy: Policy, prefix: string, roleRule: RoleRule): FieldViolation[] {
  const bindings = Array.isArray(policy.bindings) ? policy.bindings : [];
  const found: FieldViolation[] = [];
  bindings.forEach((binding, i) => {
    const role = binding && typeof binding === 'object' ? binding.role : undefined;
    const problem = typeof role === 'string' ? roleRule(role) : undefined;
    if (problem) found.push({ field: `${prefix}.bindings[${i}].role`, description: problem });
  });
  return found;
}

/** Schema violations first, then the policy-level rules, then the roles; one entry per field. */
function allViolations(
  schemaName: 'SetIamPolicyRequest' | 'IamPolicy',
  value: unknown,
  prefix: string,
  policy: Policy | undefined,
  policyPrefix: string,
  roleRule?: RoleRule,
): FieldViolation[] {
  const violations = schemaViolations(schemaName, value, prefix);
  if (policy && typeof policy === 'object') {
    violations.push(...policyRuleViolations(policy, policyPrefix));
    if (roleRule) violations.push(...roleViolations(policy, policyPrefix, roleRule));
  }
  const seen = new Set<string>();
  return violations.filter((v) => (seen.has(v.field) ? false : (seen.add(v.field), true)));
}

/** INVALID_ARGUMENT; when the first problem is a refused role, Google's sentence is the message. */
function refuse(violations: FieldViolation[]): never {
  const first = violations[0];
  const roleRefused = /\.bindings\[\d+\]\.role$/.test(first.field) && first.description.startsWith('Role ');
  throw invalidArgument(violations, roleRefused ? first.description : undefined);
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Bindings with the same role and condition are merged (members de-duplicated after case folding). */
export function normalizeBindings(bindings: Binding[]): Binding[] {
  const byKey = new Map<string, { binding: Binding; seen: Set<string> }>();
  const out: Binding[] = [];
  for (const b of bindings) {
    const key = `${b.role}\u0000${conditionKey(b.condition)}`;
    let entry = byKey.get(key);
    if (!entry) {
      const binding: Binding = { role: b.role, members: [] };
      if (b.condition) {
        binding.condition = { expression: b.condition.expression };
        if (b.condition.title !== undefined) binding.condition.title = b.condition.title;
        if (b.condition.description !== undefined) binding.condition.description = b.condition.description;
        if (b.condition.location !== undefined) binding.condition.location = b.condition.location;
      }
      entry = { binding, seen: new Set() };
      byKey.set(key, entry);
      out.push(binding);
    }
    for (const m of b.members) {
      const folded = canonicalMember(m);
      if (entry.seen.has(folded)) continue;
      entry.seen.add(folded);
      entry.binding.members.push(m);
    }
  }
  return out.filter((b) => b.members.length > 0);
}

function newEtag(previous: string): string {
  for (;;) {
    const bytes = randomBytesPooled(8);
    bytes[0] = 0x07;
    const etag = bytes.toString('base64');
    if (etag !== previous && etag !== EMPTY_ETAG) return etag;
  }
}

function historyKey(resource: string, revision: number): string {
  return `${resource}#${String(revision).padStart(12, '0')}`;
}

/**
 * Writes `next` as `resource`'s policy, with its history entry. Returns the new policy as read at
 * version 3 (the history entry's own copy).
 */
function write(
  store: Store,
  resource: string,
  current: StoredPolicy | undefined,
  next: Omit<StoredPolicy, 'revision' | 'updateTime' | 'etag'> & { etag?: string },
  kind: HistoryKind,
  principal?: string,
): Policy {
  const stored: StoredPolicy = {
    bindings: next.bindings,
    auditConfigs: next.auditConfigs,
    etag: next.etag ?? newEtag(current?.etag ?? EMPTY_ETAG),
    revision: (current?.revision ?? 0) + 1,
    updateTime: new Date().toISOString(),
  };
  store.put(IAM_POLICIES, resource, stored);
  const entry: HistoryEntry = {
    resource,
    revision: stored.revision,
    etag: stored.etag,
    time: stored.updateTime,
    kind,
    policy: viewPolicy(stored, 3),
  };
  if (principal) entry.principal = principal;
  store.put(IAM_HISTORY, historyKey(resource, stored.revision), entry);
  if (stored.revision > IAM_HISTORY_KEPT) store.delete(IAM_HISTORY, historyKey(resource, stored.revision - IAM_HISTORY_KEPT));
  return entry.policy;
}

export interface SetIamPolicyOptions {
  principal?: string;
  /** The roles the resource's type accepts; absent: any well-formed role. */
  roleRule?: RoleRule;
  /**
   * Run first, inside the write's transaction (it throws when the resource may not hold a policy,
   * e.g. NOT_FOUND): its reads then take no read transaction of their own, which on a data dir
   * is a lock of the WAL index and its release for each.
   */
  check?: () => void;
}

/**
 * `setIamPolicy`: in one transaction, `options.check`, then validates the request (schema, then
 * policy rules), compares the etag (when given) with the current one and writes. Returns the new
 * policy as read at version 3. A refused request writes nothing (its transaction is rolled back).
 */
function setIamPolicy(store: Store, resource: string, body: unknown, options: SetIamPolicyOptions = {}): Policy {
  return store.transaction(() => {
    options.check?.();
    const request = (body ?? {}) as { policy?: Policy; updateMask?: unknown };
    const mask = parseUpdateMask(request.updateMask);
    const violations = allViolations('SetIamPolicyRequest', body ?? {}, '', mask.has('bindings') ? request.policy : undefined, 'policy', options.roleRule);
    if (violations.length > 0) refuse(violations);
    const policy = request.policy as Policy;
    const current = readStoredPolicy(store, resource);
    const currentEtag = current?.etag ?? EMPTY_ETAG;
    if (policy.etag !== undefined && policy.etag !== currentEtag) throw aborted(CONCURRENT_POLICY_CHANGES);
    // The history entry's view of the new policy is the answer: written (serialised) already, and
    // the same object viewPolicy(stored, 3) would build again.
    return write(
      store,
      resource,
      current,
      {
        bindings: mask.has('bindings') ? normalizeBindings(policy.bindings ?? []) : (current?.bindings ?? []),
        auditConfigs: mask.has('auditConfigs') ? (policy.auditConfigs ?? []) : (current?.auditConfigs ?? []),
      },
      'set',
      options.principal,
    );
  });
}

/** Validates a seed document's policy (field paths start with `field`) and writes it unconditionally. */
function seedIamPolicy(store: Store, resource: string, policy: unknown, field: string, roleRule?: RoleRule): void {
  const violations = allViolations('IamPolicy', policy, field, policy as Policy, field, roleRule);
  if (violations.length > 0) refuse(violations);
  const p = policy as Policy;
  store.transaction(() => {
    write(store, resource, readStoredPolicy(store, resource), { bindings: normalizeBindings(p.bindings ?? []), auditConfigs: p.auditConfigs ?? [] }, 'seed');
  });
}

/** The resource was deleted: its policy goes with it (reads `{etag: ACAB}` again). */
function clearIamPolicy(store: Store, resource: string, principal?: string): void {
  store.transaction(() => {
    const current = readStoredPolicy(store, resource);
    if (!current || current.etag === EMPTY_ETAG) return;
    write(store, resource, current, { bindings: [], auditConfigs: [], etag: EMPTY_ETAG }, 'resourceDeleted', principal);
  });
}

/**
 * The last IAM_HISTORY_KEPT accepted writes to `resource`'s policy, oldest first (read from the
 * current revision down, so that the entries a data dir of an earlier version kept beyond them
 * are never read either).
 */
function iamPolicyHistory(store: Store, resource: string): HistoryEntry[] {
  const revision = readStoredPolicy(store, resource)?.revision ?? 0;
  const after = revision > IAM_HISTORY_KEPT ? historyKey(resource, revision - IAM_HISTORY_KEPT) : undefined;
  return store.list<HistoryEntry>(IAM_HISTORY, { prefix: `${resource}#`, after }).map((e) => e.value);
}

/**
 * The IAM policies of one app (endpoint policies' and projects'): getIamPolicy, setIamPolicy,
 * the clearing that goes with a resource's deletion, seeds, and the history the admin API shows.
 */
export class IamPolicies {
  /** getIamPolicy's answers as text, by requested version and resource (http/answer-text.ts). */
  private readonly answers = new AnswerTexts();

  constructor(private readonly store: Store) {}

  /** The stored policy of `resource` as read at `requestedVersion`. */
  get(resource: string, requestedVersion: number): Policy {
    return getIamPolicy(this.store, resource, requestedVersion);
  }

  /**
   * `get`'s answer as ProtoJSON text, after `check()` (which throws when the resource may not be
   * read, e.g. NOT_FOUND). Kept while the store's documents are unchanged: the reads, the check's
   * included, are made again after any write (http/answer-text.ts).
   */
  getText(resource: string, requestedVersion: number, check: () => void): string {
    return this.answers.text(`${requestedVersion} ${resource}`, this.store.documentsVersion(), () => {
      check();
      return getIamPolicy(this.store, resource, requestedVersion);
    });
  }

  /** The stored record (etag, revision) of `resource`'s policy, if any was ever written. */
  find(resource: string): StoredPolicy | undefined {
    return readStoredPolicy(this.store, resource);
  }

  set(resource: string, body: unknown, options: SetIamPolicyOptions = {}): Policy {
    return setIamPolicy(this.store, resource, body, options);
  }

  /** The resource was deleted: its policy goes with it (call inside the deletion's transaction). */
  clear(resource: string, principal?: string): void {
    clearIamPolicy(this.store, resource, principal);
  }

  seed(resource: string, policy: unknown, field: string, roleRule?: RoleRule): void {
    seedIamPolicy(this.store, resource, policy, field, roleRule);
  }

  /** Every accepted write to `resource`'s policy, oldest first. */
  history(resource: string): HistoryEntry[] {
    return iamPolicyHistory(this.store, resource);
  }
}
