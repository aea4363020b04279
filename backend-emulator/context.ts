/**
 * What every service's routes receive: the shared store, configuration, logger, long-running
 * operations, authorization and the seed registry.
 *
 * A service lives in its own folder with a `routes.ts` that exports
 *     export async function xxxRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void>
 * and app.ts registers it as an encapsulated fastify plugin (see SERVICE_MODULES there).
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorConfig } from './config';
import type { Store } from './store/store';
import type { Operations } from './operations/operations';
import type { Authorizer, Principal } from './auth/auth';

/**
 * Loads one top-level section of a seed document (`POST /emulator/v1/seed`). Runs inside the seed's
 * single store transaction: validate, then write; throw a GoogleApiError (field paths start with
 * `field`, e.g. `importJobs[2].displayName`) to reject the whole seed. Returns how many items it loaded.
 */
export type SeedLoader = (value: unknown, field: string) => number;

export interface SeedRegistry {
  /** Registers the loader of a top-level seed key; sections load in registration order. */
  register(section: string, loader: SeedLoader): void;
  sections(): string[];
  loader(section: string): SeedLoader | undefined;
}

export interface EmulatorContext {
  store: Store;
  config: EmulatorConfig;
  /** The app's root logger (each request also has `request.log` with its id). */
  log: FastifyBaseLogger;
  operations: Operations;
  auth: Authorizer;
  seeds: SeedRegistry;
  /** Runs `hook` after `POST /emulator/v1/reset` cleared the store (drop in-memory caches here). */
  onReset(hook: () => void): void;
  /** Clears all state: aborts background operations, empties the store, runs the reset hooks. */
  reset(): void;
}

/** The signature of a service's route registration function. */
export type ServiceRoutes = (app: FastifyInstance, ctx: EmulatorContext) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The emulator's context (for tests and admin tooling). */
    emulator: EmulatorContext;
  }
  interface FastifyRequest {
    /** The authenticated caller; undefined when the emulator runs without `--auth`. */
    principal?: Principal;
  }
}

export type { FastifyRequest };
