/**
 * The emulator's configuration: one plain object, built from flags and environment by the CLI
 * (or given directly to `startEmulator` / `buildEmulatorApp`), read by every service through
 * `EmulatorContext.config`.
 */
import * as fs from 'fs';
import * as path from 'path';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8085;
export const DEFAULT_DATA_DIR = '.emulator-data';
export const DEFAULT_LOG_LEVEL = 'warn';
/** Default request body limit (1 MiB); a route may raise its own with fastify's `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The longest the console reads a row's cells for (a row deep in a large file): 10 s. */
export const DEFAULT_ROW_CELLS_TIME_LIMIT_MS = 10_000;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The `--auth FILE` document. */
export interface AuthConfig {
  /** Bearer token -> principal (`user:alice@example.com`, `serviceAccount:...`). */
  tokens: Record<string, string>;
  /** Tokens that may use `/emulator/v1/*` and pass every permission check. */
  adminTokens?: string[];
  /** Group membership, for bindings to `group:...` members: group member -> principals. */
  groups?: Record<string, string[]>;
  /** Custom roles (`projects/P/roles/R`, `organizations/O/roles/R`, or extra `roles/...`) -> permissions. */
  roles?: Record<string, string[]>;
}

export interface EmulatorConfig {
  /** `undefined` when the store is in memory. */
  dataDir?: string;
  inMemory: boolean;
  logLevel: LogLevel;
  /** Undefined: no authentication (every request is allowed). */
  auth?: AuthConfig;
  /**
   * References to other resources must exist: IAM methods on a missing endpoint policy answer
   * NOT_FOUND (as Google does), and Migration Center checks the sources it is given. Off by
   * default, so that IAM bindings can be exercised without creating their resource first.
   */
  strictReferences: boolean;
  /** Folder that stands for Cloud Storage (import jobs' `gcsPayload`); `undefined`: none. */
  storageDir?: string;
  /** Origin of a GCS-compatible server to read storage payloads from instead of `storageDir`. */
  storageEndpoint?: string;
  bodyLimit: number;
  /** The longest the console's rowCells read runs before it ends 504 DEADLINE_EXCEEDED. */
  rowCellsTimeLimitMs: number;
  /** The address the emulator listens on (`--host`); its own name is an allowed Host. */
  listenHost?: string;
  /** Host names allowed beside loopback and `listenHost` (`--allow-host`; http/request-origin.ts). */
  allowHosts: string[];
  /** Web page origins allowed to call the emulator (`--allow-origin`; http/request-origin.ts). */
  allowOrigins: string[];
}

export function defaultConfig(overrides: Partial<EmulatorConfig> = {}): EmulatorConfig {
  return {
    inMemory: false,
    logLevel: DEFAULT_LOG_LEVEL,
    strictReferences: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    rowCellsTimeLimitMs: DEFAULT_ROW_CELLS_TIME_LIMIT_MS,
    allowHosts: [],
    allowOrigins: [],
    ...stripUndefined(overrides),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** A configuration problem the CLI reports with exit code 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseLogLevel(value: string, source: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new ConfigError(`${source}: unknown log level '${value}' (use one of ${LOG_LEVELS.join(', ')})`);
}

export function parsePort(value: string, source: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new ConfigError(`${source}: '${value}' is not a port number (0 to 65535; 0 picks a free port)`);
  return Number(value);
}

/** Checks the shape of an auth document; throws ConfigError naming the first problem. */
export function checkAuthConfig(value: unknown, source: string): AuthConfig {
  const fail = (what: string): never => {
    throw new ConfigError(`${source}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('must be a JSON object {"tokens": {...}, "adminTokens": [...]}');
  const doc = value as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    if (!['tokens', 'adminTokens', 'groups', 'roles'].includes(key)) fail(`unknown property '${key}' (known: tokens, adminTokens, groups, roles)`);
  }
  const tokens = doc.tokens ?? {};
  if (typeof tokens !== 'object' || tokens === null || Array.isArray(tokens)) fail("'tokens' must map bearer tokens to principals");
  for (const [token, principal] of Object.entries(tokens as Record<string, unknown>)) {
    if (!token) fail("'tokens' has an empty token");
    if (typeof principal !== 'string' || !/^(user|serviceAccount|group|domain|principal|principalSet):/.test(principal)) {
      fail(`'tokens' entry for a token maps to '${String(principal)}', which is not a principal like user:alice@example.com`);
    }
  }
  const adminTokens = doc.adminTokens ?? [];
  if (!Array.isArray(adminTokens) || adminTokens.some((t) => typeof t !== 'string' || !t)) fail("'adminTokens' must be a list of non-empty strings");
  const mapOfLists = (name: string, v: unknown): Record<string, string[]> | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`'${name}' must be an object of string lists`);
    for (const [k, list] of Object.entries(v as Record<string, unknown>)) {
      if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) fail(`'${name}.${k}' must be a list of strings`);
    }
    return v as Record<string, string[]>;
  };
  return {
    tokens: tokens as Record<string, string>,
    adminTokens: adminTokens as string[],
    groups: mapOfLists('groups', doc.groups),
    roles: mapOfLists('roles', doc.roles),
  };
}

export function loadAuthFile(file: string): AuthConfig {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (err) {
    throw new ConfigError(`--auth ${abs}: cannot read the file: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`--auth ${abs}: not valid JSON: ${(err as Error).message}`);
  }
  return checkAuthConfig(json, `--auth ${abs}`);
}

/**
 * Loopback by name or address: `localhost` and its subdomains (RFC 6761), 127.0.0.0/8, `::1` (with
 * or without brackets), in any letter case. The one rule for the start-up warning of a non-loopback
 * `--host` and for the Host check against DNS rebinding (http/request-origin.ts).
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(name) || name === '::1' || name === '[::1]';
}
