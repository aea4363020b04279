/**
 * Reading and writing an endpoint policy's IAM policy, shared by the three IAM resources
 * (policy, binding, member): read at version 3, write with the etag just read, retry the whole
 * cycle on ABORTED, one writer per policy inside this process. The errors say what went wrong in
 * Pulumi's terms (the endpoint policy is missing; Google no longer serves IAM on it).
 */
import { isGoogleApiCallError, isNotFound } from './client';
import { POLICY_VERSION, type IamPolicy } from './iam-policy-edit';
import { withKeyLock } from './keyed-mutex';
import { retryOnConflict } from './retry';
import { clientFor } from './runtime';

const client = () => clientFor('networkservices');

/** The fields of the policy a write replaces: the audit configs stay as they are unless asked. */
export const BINDINGS_MASK = 'bindings,etag,version';

/** The IAM policy of `name` at `version` (3 unless asked otherwise: the only one that shows conditions). */
export async function readPolicy(name: string, version: number = POLICY_VERSION): Promise<IamPolicy> {
  try {
    return await client().get<IamPolicy>(`/v1/${name}:getIamPolicy`, { 'options.requestedPolicyVersion': version });
  } catch (err) {
    if (isIamMethodNotServed(err)) throw iamNotServedError(name, err);
    throw err;
  }
}

/**
 * Whether the answer says the IAM method itself is not served, rather than that the endpoint
 * policy is missing: Google's front end answers a path it has no method for with a 404 page that
 * is not a google.rpc.Status, and a server that knows the method but not its implementation
 * answers UNIMPLEMENTED.
 */
export function isIamMethodNotServed(err: unknown): boolean {
  return isGoogleApiCallError(err, 'UNIMPLEMENTED') || (isGoogleApiCallError(err, 'NOT_FOUND') && !err.googleShaped);
}

/**
 * Google's Network Services v1 listed getIamPolicy/setIamPolicy/testIamPermissions on endpoint
 * policies in its earlier published clients (googleapis revision 140, which @pulumi/google-native
 * 0.32.0 follows); its current client (revision 188) lists IAM methods only on the edge cache
 * keysets, origins and services. Said plainly, with what to do, instead of "does not exist".
 */
export function iamNotServedError(name: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `the Network Services API did not serve getIamPolicy for ${name}: Google's current Network Services v1 no longer offers IAM policies on endpoint policies ` +
      '(googleapis revision 140 lists them, revision 188 lists IAM methods only on edge cache keysets, origins and services). ' +
      'Grant the role on the project instead (a project-level IAM binding gives it on every endpoint policy of the project), ' +
      `or keep this resource on the emulator backend. ${message}`,
  );
}

/**
 * An IAM resource needs its endpoint policy: Google answers NOT_FOUND for the IAM policy of one
 * that does not exist. Said in Pulumi's terms, naming what to do.
 */
export function missingPolicyError(name: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `endpoint policy ${name} does not exist: create it first (an EndpointPolicy resource, and pass its name so that Pulumi creates it before the IAM resource). ${message}`,
  );
}

export interface PolicyWrite {
  /** The policy to write (its etag and version are set here). */
  policy: IamPolicy;
  /** The setIamPolicy update mask; default BINDINGS_MASK. */
  updateMask?: string;
  /** The version to write; default 3. */
  version?: number;
}

/**
 * One read-modify-write cycle per call of `edit`, retried on conflicts, serialised per policy.
 * `edit` gets the policy as read (version 3) and returns what to write; the etag written is the
 * one just read, so a concurrent writer's change is never overwritten: the cycle starts again.
 */
export async function modifyPolicy(name: string, edit: (policy: IamPolicy) => IamPolicy | PolicyWrite): Promise<IamPolicy> {
  return withKeyLock(name, () =>
    retryOnConflict(async () => {
      const current = await readPolicy(name);
      const edited = edit(current);
      const write: PolicyWrite = 'policy' in edited ? edited : { policy: edited };
      return client().post<IamPolicy>(`/v1/${name}:setIamPolicy`, {
        policy: { ...write.policy, etag: current.etag, version: write.version ?? POLICY_VERSION },
        updateMask: write.updateMask ?? BINDINGS_MASK,
      });
    }),
  );
}

/** For create and update: the edit, with a missing endpoint policy reported as such. */
export async function modifyExistingPolicy(name: string, edit: (policy: IamPolicy) => IamPolicy | PolicyWrite): Promise<IamPolicy> {
  try {
    return await modifyPolicy(name, edit);
  } catch (err) {
    if (isNotFound(err)) throw missingPolicyError(name, err);
    throw err;
  }
}

/** For delete: the edit; a missing endpoint policy has no IAM policy left to edit. */
export async function modifyPolicyIfPresent(name: string, edit: (policy: IamPolicy) => IamPolicy | PolicyWrite): Promise<void> {
  try {
    await modifyPolicy(name, edit);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** For read: the policy, or undefined when the endpoint policy is gone (and its IAM policy with it). */
export async function readPolicyIfPresent(name: string, version?: number): Promise<IamPolicy | undefined> {
  try {
    return await readPolicy(name, version);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** `projects/{project}/...`: the project named in an endpoint policy's name. */
export function projectOf(name: string): string {
  return name.split('/')[1] ?? '';
}
