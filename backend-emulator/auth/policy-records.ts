/**
 * The IAM policies as stored (collection `iamPolicies`, key = resource name, the full version-3
 * form): the record and its one reader. The authorizer reads them to decide a permission; the IAM
 * policy domain (networkservices/iam-policy.ts) writes them. It lives here, below the services,
 * so that auth/ needs nothing of networkservices/ (which depends on auth/).
 */
import type { Store } from '../store/store';

export const IAM_POLICIES = 'iamPolicies';

export interface Expr {
  expression: string;
  title?: string;
  description?: string;
  location?: string;
}

export interface Binding {
  role: string;
  members: string[];
  condition?: Expr;
}

export interface StoredPolicy {
  bindings: Binding[];
  auditConfigs: unknown[];
  etag: string;
  /** 1 for the first write of this resource; +1 for every accepted write. */
  revision: number;
  updateTime: string;
}

/** The stored policy of a resource name, or undefined if none was ever written. */
export function readStoredPolicy(store: Store, resource: string): StoredPolicy | undefined {
  return store.get<StoredPolicy>(IAM_POLICIES, resource);
}
