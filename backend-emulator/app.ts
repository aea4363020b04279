/**
 * `buildEmulatorApp(options)`: the whole emulator as a fastify instance, not listening, so that
 * it can serve a socket (`startEmulator`) or be reached in-process with `app.inject()` over the
 * very same routes, hooks and error handler.
 *
 * Services: each folder `backend-emulator/<service>/routes.ts` exports
 * `async function <service>Routes(app, ctx: EmulatorContext)`; SERVICE_MODULES lists them, and an
 * optional one whose module is absent is skipped. `options.services` adds more (tests, plugins).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { defaultConfig, loadAuthFile, type AuthConfig, type EmulatorConfig, type LogLevel } from './config';
import type { EmulatorContext, ServiceRoutes } from './context';
import { createLogger, genReqId, redactUrl, requestLoggerFactory } from './logging';
import type { Store } from './store/store';
import { SqliteStore } from './store/sqlite-store';
import { Operations } from './operations/operations';
import { Authorizer } from './auth/auth';
import { authorizationDecision } from './auth/hook';
import { requestOriginGuard } from './http/request-origin';
import { MAX_PATH_SEGMENT, clientErrorHandler, frameworkErrorHandler, installErrorHandlers } from './http/errors';
import { unavailable } from './errors';
import { installJsonParser } from './http/body';
import { FilesFolder } from './temp-folders';
import { setAnswerHeaders } from './http/answer-headers';
import { googleFrontEndRequest, installGoogleFrontEnd } from './http/front-end';
import { installFlushedAnswers } from './http/flushed-answers';
import { installRequestMethodSlots } from './http/request-method';
import { namedPlugin } from './http/plugin-name';
import { Seeds } from './admin/seed';
import { adminRoutes } from './admin/routes';

export interface EmulatorAppOptions {
  /** A store to use (the app does not close it unless `closeStore`); else one is opened from dataDir / inMemory. */
  store?: Store;
  closeStore?: boolean;
  /** Durable store in this directory. Without `store`, `dataDir` or `inMemory`: in memory. */
  dataDir?: string;
  inMemory?: boolean;
  logLevel?: LogLevel;
  /** Where log lines go (default: `logFd`). */
  logStream?: NodeJS.WritableStream;
  /** File descriptor for log lines: 1 (stdout, default) or 2 (stderr; the CLI uses it, so stdout carries only `listening on`). */
  logFd?: number;
  /** A ready pino logger (wins over logLevel / logStream). */
  logger?: Logger;
  /** Auth document, or the path of an auth file. */
  auth?: AuthConfig | string;
  strictReferences?: boolean;
  storageDir?: string;
  storageEndpoint?: string;
  bodyLimit?: number;
  /** The longest the console reads a row's cells for (default 10 s; tests shorten it). */
  rowCellsTimeLimitMs?: number;
  /** The address the app's socket listens on (startEmulator sets it): an allowed Host. */
  listenHost?: string;
  /** Host names allowed beside loopback names and addresses (`--allow-host`). */
  allowHosts?: string[];
  /** Web page origins allowed to call the emulator (`--allow-origin`). */
  allowOrigins?: string[];
  /** Extra services registered after the built-in ones. */
  services?: ServiceRoutes[];
  /** Which built-in services (SERVICE_MODULES names) to register; default all that are present. */
  builtinServices?: string[];
}

interface ServiceModule {
  name: string;
  /** Returns the routes function, or undefined when an optional module is not installed. */
  load: () => ServiceRoutes | undefined;
}

/** Requires `./<path>` and returns its export `name`; undefined when that module does not exist. */
function optionalRoutes(path: string, name: string): ServiceRoutes | undefined {
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(path) as Record<string, unknown>;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'MODULE_NOT_FOUND' && e.message.includes(path)) return undefined;
    throw err;
  }
  const fn = mod[name];
  if (typeof fn !== 'function') throw new Error(`${path} does not export ${name}(app, ctx)`);
  return fn as ServiceRoutes;
}

export const SERVICE_MODULES: ServiceModule[] = [
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  { name: 'networkservices', load: () => (require('./networkservices/routes') as typeof import('./networkservices/routes')).networkServicesRoutes },
  { name: 'migrationcenter', load: () => optionalRoutes('./migrationcenter/routes', 'migrationCenterRoutes') },
  { name: 'console', load: () => optionalRoutes('./console/routes', 'consoleRoutes') },
];

/**
 * fastify's default schema compiler factories, required at their first use instead of at every
 * app's construction (where fastify requires them even when no route has a schema).
 */
type SchemaCompilerFactory = (...args: unknown[]) => unknown;
const lazySchemaCompilers: Record<'buildValidator' | 'buildSerializer', SchemaCompilerFactory> = {
  buildValidator: (...args) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const factory = (require('@fastify/ajv-compiler') as () => SchemaCompilerFactory)();
    lazySchemaCompilers.buildValidator = factory;
    return factory(...args);
  },
  buildSerializer: (...args) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const factory = (require('@fastify/fast-json-stringify-compiler') as () => SchemaCompilerFactory)();
    lazySchemaCompilers.buildSerializer = factory;
    return factory(...args);
  },
};

export function resolveConfig(options: EmulatorAppOptions): EmulatorConfig {
  const inMemory = options.inMemory ?? options.dataDir === undefined;
  return defaultConfig({
    dataDir: inMemory ? undefined : options.dataDir,
    inMemory,
    logLevel: options.logLevel,
    auth: typeof options.auth === 'string' ? loadAuthFile(options.auth) : options.auth,
    strictReferences: options.strictReferences,
    storageDir: options.storageDir,
    storageEndpoint: options.storageEndpoint,
    bodyLimit: options.bodyLimit,
    rowCellsTimeLimitMs: options.rowCellsTimeLimitMs,
    listenHost: options.listenHost,
    allowHosts: options.allowHosts,
    allowOrigins: options.allowOrigins,
  });
}

export function buildEmulatorApp(options: EmulatorAppOptions = {}): FastifyInstance {
  const config = resolveConfig(options);
  const logger = options.logger ?? createLogger({ level: config.logLevel, stream: options.logStream, fd: options.logFd });
  const ownsStore = !options.store || options.closeStore === true;
  const store: Store =
    options.store ??
    new SqliteStore({
      dataDir: config.dataDir,
      inMemory: config.inMemory,
      // Said when it happens, not only in the next answer (every answer is refused from then on).
      onFlushFailure: (err) => logger.error({ err }, 'the data dir could not be synced to disk: every answer is refused until a restart'),
    });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Fastify = require('fastify') as typeof import('fastify');
  let app: FastifyInstance;
  try {
    app = Fastify.default({
      loggerInstance: logger,
      // fastify's own two lines per request are off: the onResponse hook writes one.
      logController: new Fastify.LogController({ disableRequestLogging: true }),
      // Each request's logger (with its reqId) is made when it first writes a line, not per request.
      // (typed with pino's Logger; fastify's type names its narrower FastifyBaseLogger)
      childLoggerFactory: requestLoggerFactory as never,
      genReqId,
      bodyLimit: config.bodyLimit,
      onProtoPoisoning: 'error',
      onConstructorPoisoning: 'error',
      // Requests arriving while closing get a Google-shaped 503 from the hook below instead.
      return503OnClosing: false,
      // Errors raised before routing (bad URL, overlong path segment, unparsable HTTP): Google's shape too.
      routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
      frameworkErrors: frameworkErrorHandler,
      clientErrorHandler,
      // No route declares a fastify schema (the Google front end and the domains check input):
      // the default compilers (Ajv, fast-json-stringify, ~100 modules) are loaded only if one does.
      // (typed loosely: the factories' own types are overloads the wrappers only pass through)
      schemaController: { compilersFactory: lazySchemaCompilers as never },
    }) as unknown as FastifyInstance;
  } catch (err) {
    if (ownsStore) store.close();
    throw err;
  }

  const operations = new Operations(store, app.log);
  const resetHooks: Array<() => void> = [];
  const ctx: EmulatorContext = {
    store,
    config,
    log: app.log,
    operations,
    auth: new Authorizer(
      config.auth,
      store,
      (expression) =>
        app.log.warn(
          { expression: expression.slice(0, 200) },
          'an IAM condition ran out of time being evaluated: it grants nothing until the emulator restarts',
        ),
      (resource) =>
        app.log.warn({ resource }, "a request's IAM conditions spent their CPU budget: the conditions not yet evaluated grant nothing to this request"),
    ),
    seeds: new Seeds(),
    onReset: (hook) => resetHooks.push(hook),
    reset: () => {
      operations.abortAll('reset');
      store.clear();
      for (const hook of resetHooks) hook();
    },
  };
  app.decorate('emulator', ctx);
  app.decorateRequest('principal', undefined);
  installRequestMethodSlots(app);

  installErrorHandlers(app);
  // Large inline payloads' texts, written by the body worker before a route moves them (http/large-bytes.ts).
  const largeBytesFolder = new FilesFolder(config.dataDir, 'request-texts', 'request-texts');
  largeBytesFolder.clear();
  app.addHook('onClose', async () => largeBytesFolder.close());
  installJsonParser(app, largeBytesFolder);

  // Shutting down: requests already under way finish; new ones are refused (503 UNAVAILABLE).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // Every rule that reads a request before its body, in one onRequest hook and in this order: the
  // answer's own headers, the closing check, the Host/Origin guard (before anything else reads the
  // request), the one authorization decision (--auth) on the route the router matched, and Google's
  // front end on the query. The body's rules run as it is parsed (http/body.ts). One callback hook,
  // not one per rule: each hook costs fastify a runner and its closures on every request.
  const originGuard = requestOriginGuard(config);
  const authorize = authorizationDecision(ctx.auth);
  app.addHook('onRequest', (request, reply, done) => {
    setAnswerHeaders(request, reply);
    try {
      if (closing) throw unavailable('The emulator is shutting down.');
      // A CORS preflight answered by the guard ends the request: the chain does not go on.
      if (originGuard(request, reply)) return;
      authorize?.(request);
      googleFrontEndRequest(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });

  // Google's front end on every Google API route's answer: ProtoJSON out.
  installGoogleFrontEnd(app);
  // Every answer leaves once what it may show is on disk (the store's group commit).
  installFlushedAnswers(app, store);

  // The request's log line: the hook is there only when its level is on (the level is fixed when
  // the app is built: --log-level), so a quiet emulator does no logging work per request.
  if (logger.isLevelEnabled('info')) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          principal: request.principal?.member,
        },
        'request',
      );
      done();
    });
  }
  app.addHook('onClose', async () => {
    operations.abortAll('shutdown');
    await operations.idle(5_000);
    if (ownsStore) store.close();
  });

  app.register(namedPlugin('admin', async (instance) => adminRoutes(instance, ctx)));
  for (const service of SERVICE_MODULES) {
    if (options.builtinServices && !options.builtinServices.includes(service.name)) continue;
    const routes = service.load();
    if (routes) app.register(namedPlugin(service.name, async (instance) => routes(instance, ctx)));
  }
  for (const [index, routes] of (options.services ?? []).entries()) {
    app.register(namedPlugin(routes.name || `service ${index + 1}`, async (instance) => routes(instance, ctx)));
  }
  return app;
}
