/**
 * What both providers need at run time inside the dynamic-provider host: the stack config
 * handed to `configure`, the backend it selects, defaults, and Pulumi's encoding quirks.
 * State lives here, in a module the serialised providers `require`, never in the closures.
 */
import type * as pulumi from '@pulumi/pulumi';
import { resolveBackend, type GoogleApiName } from './backends';
import type { GoogleRestClient } from './client';

export const CONFIG_NAMESPACE = 'google-native-local';

/** The value Pulumi passes for an input it cannot know yet during preview. */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

let stackConfig: Record<string, string | undefined> = {};

/** Keeps the keys of our namespace from the stack config (called from `configure`). */
export function configureFrom(config: pulumi.dynamic.Config): void {
  const keys = ['endpoint', 'token', 'project', 'location', 'importTimeoutSeconds'];
  stackConfig = Object.fromEntries(keys.map((k) => [`${CONFIG_NAMESPACE}:${k}`, config.get(`${CONFIG_NAMESPACE}:${k}`)]));
}

export function configValue(key: string): string | undefined {
  const value = stackConfig[`${CONFIG_NAMESPACE}:${key}`];
  return value === undefined || value === '' ? undefined : value;
}

export function clientFor(api: GoogleApiName): GoogleRestClient {
  return resolveBackend(stackConfig).client(api);
}

/** Default project: stack config, then GOOGLE_CLOUD_PROJECT. */
export function defaultProject(): string | undefined {
  return configValue('project') ?? process.env.GOOGLE_CLOUD_PROJECT ?? process.env.CLOUDSDK_CORE_PROJECT;
}

/** Default location: stack config, then `global`. */
export function defaultLocation(): string {
  return configValue('location') ?? 'global';
}

/** True when the value holds a preview-time unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

/** A copy without `undefined` anywhere: the provider protocol's encoder throws on it. */
export function withoutUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Deep equality of two JSON values. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
