/**
 * IAM member spelling rules. Google compares the value part of `user:`, `serviceAccount:`,
 * `group:`, `domain:` and `deleted:` members case-insensitively, and keeps `allUsers`,
 * `allAuthenticatedUsers`, `principal://` and `principalSet://` exactly as written.
 */

const CASE_SENSITIVE_PREFIXES = ['principal://', 'principalSet://'];
const SPECIAL_MEMBERS = new Set(['allUsers', 'allAuthenticatedUsers']);

/** The canonical spelling of a member: the email or domain part lower-cased. */
export function canonicalMember(member: string): string {
  if (SPECIAL_MEMBERS.has(member) || CASE_SENSITIVE_PREFIXES.some((p) => member.startsWith(p))) return member;
  const colon = member.indexOf(':');
  if (colon < 0) return member;
  const type = member.slice(0, colon);
  const value = member.slice(colon + 1);
  if (type === 'deleted') {
    // deleted:{type}:{email}?uid={id}: fold the email, keep the uid as written.
    const inner = value.indexOf(':');
    const query = value.indexOf('?');
    if (inner < 0) return member;
    const end = query < 0 ? value.length : query;
    return `deleted:${value.slice(0, inner)}:${value.slice(inner + 1, end).toLowerCase()}${value.slice(end)}`;
  }
  return `${type}:${value.toLowerCase()}`;
}

/** Index of the first entry that repeats an earlier one after case folding, or -1. */
export function firstDuplicateMember(members: readonly string[]): { index: number; firstIndex: number } | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (typeof m !== 'string') continue;
    const key = canonicalMember(m);
    const earlier = seen.get(key);
    if (earlier !== undefined) return { index: i, firstIndex: earlier };
    seen.set(key, i);
  }
  return undefined;
}

export function memberType(member: string): string {
  if (SPECIAL_MEMBERS.has(member)) return member;
  if (member.startsWith('principalSet://')) return 'principalSet';
  if (member.startsWith('principal://')) return 'principal';
  const colon = member.indexOf(':');
  return colon < 0 ? member : member.slice(0, colon);
}
