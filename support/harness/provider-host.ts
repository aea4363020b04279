/**
 * Drives Pulumi dynamic providers through the REAL plugin protocol.
 *
 * It starts the dynamic-provider host that ships inside `@pulumi/pulumi`
 * (`cmd/dynamic-provider/index.js <engine-address>`), the very process the Pulumi engine starts,
 * reads the port it prints, and calls it over gRPC with the SDK's own generated stubs, exactly as
 * the engine does: Configure first, then Check / Diff / Create / Read / Update / Delete with the
 * serialised provider in the `__provider` property of every property bag.
 *
 * See support/harness/README.md for how the host finds our own package's modules.
 */
import { ChildProcess, spawn } from 'child_process';
import * as path from 'path';
import * as grpc from '@grpc/grpc-js';
import * as structproto from 'google-protobuf/google/protobuf/struct_pb';
import * as provproto from '@pulumi/pulumi/proto/provider_pb';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as statusproto from '@pulumi/pulumi/proto/status_pb';

/** The property that carries the serialised provider, in inputs and in outputs. */
export const PROVIDER_KEY = '__provider';
/** The value the engine sends, during preview, for an input it cannot know yet. */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
/** The type token prefix of every dynamic resource. */
export const DYNAMIC_TYPE_PREFIX = 'pulumi-nodejs:dynamic';

export type PropertyMap = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  /** The inputs the provider returned (with `__provider`). */
  inputs: PropertyMap;
  /** Failures come back as a list in a normal response, not as a gRPC error. */
  failures: CheckFailure[];
}

export interface DiffResult {
  /** `some` when the provider returned `changes: true`, `none` for `false`, else `unknown`. */
  changes: 'some' | 'none' | 'unknown';
  replaces: string[];
  /** The dynamic-provider host never passes these on; kept to show that it does not. */
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

export interface ReadResult {
  id: string;
  properties: PropertyMap;
  /** Only when the provider's `read` returned `inputs`. */
  inputs?: PropertyMap;
}

export interface UpdateResult {
  properties: PropertyMap;
}

/** A partly created resource, reported by an error thrown from create/update that carries an `id`. */
export interface InitFailure {
  id: string;
  properties: PropertyMap;
  reasons: string[];
}

/** A gRPC error returned by the host: every exception thrown by a provider method arrives as one. */
export class HostCallError extends Error {
  override readonly name = 'HostCallError';
  constructor(
    /** The gRPC method, e.g. `create`. */
    readonly method: string,
    /** The gRPC status code (UNKNOWN = 2 for provider exceptions). */
    readonly code: number,
    /** The text of the gRPC error: the provider's exception message. */
    readonly details: string,
    /** Set when the provider threw an error with an `id` (a partly created resource). */
    readonly initFailure?: InitFailure,
  ) {
    super(`${method} failed (gRPC ${grpc.status[code] ?? code}): ${details}`);
  }

  /** The gRPC status name, e.g. `UNKNOWN`. */
  get codeName(): string {
    return grpc.status[this.code] ?? String(this.code);
  }
}

/** Builds a dynamic resource URN: `urn:pulumi:<stack>::<project>::pulumi-nodejs:dynamic/<typeName>::<name>`. */
export function dynamicUrn(typeName: string, name: string, opts: { stack?: string; project?: string } = {}): string {
  const stack = opts.stack ?? 'test';
  const project = opts.project ?? 'project';
  return `urn:pulumi:${stack}::${project}::${DYNAMIC_TYPE_PREFIX}/${typeName}::${name}`;
}

/** Splits a URN into its type token and name (the engine sends both alongside the URN). */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split('::');
  if (parts.length < 4 || !urn.startsWith('urn:pulumi:')) {
    throw new Error(`not a Pulumi URN: ${urn}`);
  }
  const typeChain = parts[2];
  const type = typeChain.split('$').pop() ?? typeChain;
  return { type, name: parts.slice(3).join('::') };
}

interface SerializeClosureModule {
  serializeFunction(func: () => unknown, args?: { allowSecrets?: boolean }): Promise<{ text: string }>;
}

/**
 * Serialises a provider object with the SDK's own closure serializer, exactly as
 * `pulumi.dynamic.Resource` does (`serializeFunction(() => provider, { allowSecrets: true })`).
 * The text is what the engine stores in the resource's `__provider` property.
 *
 * Modules captured by the provider that the serializer finds under a `node_modules` folder become
 * `require("<pkg>/<path>")`; anything else (including a provider defined in a test file) is copied
 * in by value. See README.md and `createTestProgram` for serialising our own package's providers.
 */
export async function serializeProvider(provider: object): Promise<string> {
  // The same module and arguments as @pulumi/pulumi/dynamic/index.js (loaded on demand, as there).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sc = require('@pulumi/pulumi/runtime/closure/serializeClosure') as SerializeClosureModule;
  const serialized = await sc.serializeFunction(() => provider, { allowSecrets: true });
  return serialized.text;
}

/** The host script the engine runs for dynamic providers. */
export function dynamicProviderHostScript(): string {
  const pulumiRoot = path.dirname(require.resolve('@pulumi/pulumi/package.json'));
  return path.join(pulumiRoot, 'cmd', 'dynamic-provider', 'index.js');
}

export interface StartProviderHostOptions {
  /** The host's working directory: the Pulumi program's folder. Defaults to this process's cwd. */
  cwd?: string;
  /** Environment of the host; merged over `process.env` unless `inheritEnv` is false. */
  env?: Record<string, string | undefined>;
  /** Whether to start from `process.env` (default true). */
  inheritEnv?: boolean;
  /** The project name the host sees (`PULUMI_NODEJS_PROJECT`), used by `config.get(key)` without a namespace. */
  project?: string;
  /** The serialised provider to put into `__provider` when a call's properties lack it. */
  provider?: string;
  /** How long to wait for the host to print its port (default 30 s). */
  startTimeoutMs?: number;
  /** Deadline of each gRPC call (default 120 s). */
  callTimeoutMs?: number;
  /** Echo the host's stdout/stderr to this process's stderr as they arrive. */
  echo?: boolean;
}

type Unary<Req, Res> = (
  req: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (err: grpc.ServiceError | null, res?: Res) => void,
) => grpc.ClientUnaryCall;

/** A running dynamic-provider host and a gRPC client connected to it. */
export class ProviderHost {
  /** The serialised provider used when a call's properties have no `__provider`. Settable. */
  provider: string | undefined;
  private readonly stdoutChunks: string[] = [];
  private readonly stderrChunks: string[] = [];
  private exited = false;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitPromise: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: provrpc.ResourceProviderClient,
    /** The port the host printed. */
    readonly port: number,
    /** The host's working directory. */
    readonly cwd: string,
    private readonly callTimeoutMs: number,
    stdoutSoFar: string,
    stderrSoFar: string[],
    exitPromise: Promise<void>,
    provider: string | undefined,
  ) {
    this.provider = provider;
    this.stdoutChunks.push(stdoutSoFar);
    this.stderrChunks.push(...stderrSoFar);
    this.exitPromise = exitPromise;
    child.stdout?.on('data', (d: Buffer) => this.stdoutChunks.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => this.stderrChunks.push(d.toString()));
    exitPromise.then(() => {
      this.exited = true;
    });
  }

  /** Starts the host, waits for its port and connects a gRPC client. */
  static async start(options: StartProviderHostOptions = {}): Promise<ProviderHost> {
    const cwd = options.cwd ?? process.cwd();
    const env: NodeJS.ProcessEnv = options.inheritEnv === false ? {} : { ...process.env };
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    if (options.project !== undefined) env.PULUMI_NODEJS_PROJECT = options.project;
    // The host never calls the engine address; any address will do.
    const child = spawn(process.execPath, [dynamicProviderHostScript(), '127.0.0.1:1'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const exitPromise = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        exitInfo = { code, signal };
        resolve();
      });
      child.once('error', () => resolve());
    });
    if (options.echo) {
      child.stdout?.on('data', (d: Buffer) => process.stderr.write(`[provider-host stdout] ${d}`));
      child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[provider-host stderr] ${d}`));
    }
    const onStderr = (d: Buffer) => stderr.push(d.toString());
    child.stderr?.on('data', onStderr);

    const timeoutMs = options.startTimeoutMs ?? 30_000;
    let stdout = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        child.kill('SIGKILL');
        reject(new Error(`dynamic-provider host printed no port within ${timeoutMs} ms; stderr:\n${stderr.join('')}`));
      }, timeoutMs);
      const onData = (d: Buffer) => {
        stdout += d.toString();
        const newline = stdout.indexOf('\n');
        if (newline < 0) return;
        const first = stdout.slice(0, newline).trim();
        stdout = stdout.slice(newline + 1);
        cleanup();
        const n = Number(first);
        if (!Number.isInteger(n) || n <= 0) {
          child.kill('SIGKILL');
          reject(new Error(`dynamic-provider host printed "${first}" instead of a port; stderr:\n${stderr.join('')}`));
        } else {
          resolve(n);
        }
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`dynamic-provider host exited before printing its port (${JSON.stringify(exitInfo)}); stderr:\n${stderr.join('')}`));
      };
      const onError = (err: Error) => {
        cleanup();
        reject(new Error(`could not start the dynamic-provider host: ${err.message}`));
      };
      function cleanup() {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        child.off('error', onError);
      }
      child.stdout?.on('data', onData);
      child.once('exit', onExit);
      child.once('error', onError);
    });
    child.stderr?.off('data', onStderr);

    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    await new Promise<void>((resolve, reject) => {
      client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve()));
    }).catch((err: Error) => {
      client.close();
      child.kill('SIGKILL');
      throw new Error(`could not connect to the dynamic-provider host on port ${port}: ${err.message}`);
    });
    const host = new ProviderHost(child, client, port, cwd, options.callTimeoutMs ?? 120_000, stdout, stderr, exitPromise, options.provider);
    exitPromise.then(() => {
      host.exitInfo = exitInfo;
    });
    return host;
  }

  /** Everything the host wrote to stdout (after the port line). */
  get stdout(): string {
    return this.stdoutChunks.join('');
  }

  /** Everything the host wrote to stderr (the host logs provider exceptions there). */
  get stderr(): string {
    return this.stderrChunks.join('');
  }

  /** The process id of the host. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the host process is still running. */
  get running(): boolean {
    return !this.exited;
  }

  /**
   * Configure: the engine always calls it first. `config` is the stack configuration with full
   * `namespace:key` names (e.g. `google-native-local:endpoint`); values are strings.
   */
  async configure(config: Record<string, string> = {}): Promise<void> {
    const req = new provproto.ConfigureRequest();
    const variables = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) variables.set(k, v);
    req.setArgs(toStruct(config));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    await this.call<provproto.ConfigureRequest, provproto.ConfigureResponse>('configure', req);
  }

  /** Check(olds, news). For a new resource the engine sends empty olds. */
  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setOlds(toStruct(this.withProvider(olds, false)));
    req.setNews(toStruct(this.withProvider(news)));
    const res = await this.call<provproto.CheckRequest, provproto.CheckResponse>('check', req);
    return {
      inputs: fromStruct(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Diff(id, olds, news): olds are the prior outputs (state), news the checked inputs. */
  async diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap, oldInputs?: PropertyMap): Promise<DiffResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.DiffRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setOlds(toStruct(this.withProvider(olds)));
    req.setNews(toStruct(this.withProvider(news)));
    if (oldInputs) req.setOldInputs(toStruct(this.withProvider(oldInputs)));
    const res = await this.call<provproto.DiffRequest, provproto.DiffResponse>('diff', req);
    const changes = res.getChanges();
    return {
      changes:
        changes === provproto.DiffResponse.DiffChanges.DIFF_SOME ? 'some' : changes === provproto.DiffResponse.DiffChanges.DIFF_NONE ? 'none' : 'unknown',
      replaces: res.getReplacesList(),
      stables: res.getStablesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
      diffs: res.getDiffsList(),
    };
  }

  /** Create(props): props are the checked inputs. */
  async create(urn: string, props: PropertyMap, opts: { timeoutSeconds?: number } = {}): Promise<CreateResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setProperties(toStruct(this.withProvider(props)));
    if (opts.timeoutSeconds !== undefined) req.setTimeout(opts.timeoutSeconds);
    const res = await this.call<provproto.CreateRequest, provproto.CreateResponse>('create', req);
    return { id: res.getId(), properties: fromStruct(res.getProperties()) };
  }

  /**
   * Read(id, props, inputs?). On refresh the engine sends the prior outputs as `props`; on a
   * `get` by id (`opts.id`) it sends only `__provider`: call `read(id, urn, {})`.
   */
  async read(id: string, urn: string, props: PropertyMap, inputs?: PropertyMap): Promise<ReadResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.ReadRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setProperties(toStruct(this.withProvider(props)));
    if (inputs) req.setInputs(toStruct(this.withProvider(inputs)));
    const res = await this.call<provproto.ReadRequest, provproto.ReadResponse>('read', req);
    const result: ReadResult = { id: res.getId(), properties: fromStruct(res.getProperties()) };
    if (res.hasInputs()) result.inputs = fromStruct(res.getInputs());
    return result;
  }

  /** Update(id, olds, news): olds are the prior outputs, news the checked inputs. */
  async update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    opts: { timeoutSeconds?: number; oldInputs?: PropertyMap } = {},
  ): Promise<UpdateResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.UpdateRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setOlds(toStruct(this.withProvider(olds)));
    req.setNews(toStruct(this.withProvider(news)));
    if (opts.oldInputs) req.setOldInputs(toStruct(this.withProvider(opts.oldInputs)));
    if (opts.timeoutSeconds !== undefined) req.setTimeout(opts.timeoutSeconds);
    const res = await this.call<provproto.UpdateRequest, provproto.UpdateResponse>('update', req);
    return { properties: fromStruct(res.getProperties()) };
  }

  /** Delete(id, props): props are the prior outputs. */
  async delete(id: string, urn: string, props: PropertyMap, opts: { timeoutSeconds?: number; oldInputs?: PropertyMap } = {}): Promise<void> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.DeleteRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setName(name);
    req.setType(type);
    req.setProperties(toStruct(this.withProvider(props)));
    if (opts.oldInputs) req.setOldInputs(toStruct(this.withProvider(opts.oldInputs)));
    if (opts.timeoutSeconds !== undefined) req.setTimeout(opts.timeoutSeconds);
    await this.call<provproto.DeleteRequest, unknown>('delete', req);
  }

  /** Closes the gRPC client and kills the host (SIGTERM, then SIGKILL after 3 s). */
  async close(): Promise<void> {
    this.client.close();
    if (this.exited) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, 3_000);
    await this.exitPromise;
    clearTimeout(timer);
  }

  /** How the host exited, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  /**
   * Adds `__provider` the way the engine does: it is part of every stored input and output bag.
   * Empty olds of a new resource stay empty (`addToEmpty` false). A `__provider` already present
   * (including UNKNOWN during preview) is left alone.
   */
  private withProvider(props: PropertyMap, addToEmpty = true): PropertyMap {
    const out = stripUndefined(props) as PropertyMap;
    if (PROVIDER_KEY in out) return out;
    if (!addToEmpty && Object.keys(out).length === 0) return out;
    if (this.provider === undefined) {
      throw new Error('no __provider: pass the serialised provider to startProviderHost({provider}) or in the properties');
    }
    return { ...out, [PROVIDER_KEY]: this.provider };
  }

  private call<Req, Res>(method: string, req: Req): Promise<Res> {
    const fn = (this.client as unknown as Record<string, Unary<Req, Res>>)[method].bind(this.client);
    return new Promise<Res>((resolve, reject) => {
      fn(req, new grpc.Metadata(), { deadline: Date.now() + this.callTimeoutMs }, (err, res) => {
        if (err) reject(toHostCallError(method, err));
        else resolve(res as Res);
      });
    });
  }
}

/** Starts a dynamic-provider host; see `ProviderHost.start`. */
export function startProviderHost(options: StartProviderHostOptions = {}): Promise<ProviderHost> {
  return ProviderHost.start(options);
}

function toHostCallError(method: string, err: grpc.ServiceError): HostCallError {
  let initFailure: InitFailure | undefined;
  const bins = err.metadata?.get('grpc-status-details-bin') ?? [];
  for (const bin of bins) {
    try {
      const status = statusproto.Status.deserializeBinary(typeof bin === 'string' ? Buffer.from(bin, 'base64') : bin);
      for (const any of status.getDetailsList()) {
        if (any.getTypeName() !== 'pulumirpc.ErrorResourceInitFailed') continue;
        const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
        initFailure = {
          id: detail.getId(),
          properties: fromStruct(detail.getProperties()),
          reasons: detail.getReasonsList(),
        };
      }
    } catch {
      // not a status we understand: keep the plain error
    }
  }
  return new HostCallError(method, err.code, err.details ?? err.message, initFailure);
}

/** Plain JS object -> google.protobuf.Struct, with the SDK's helper (as the host does). */
export function toStruct(value: PropertyMap): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
}

/** google.protobuf.Struct -> plain JS object. */
export function fromStruct(struct: structproto.Struct | undefined): PropertyMap {
  return struct ? (struct.toJavaScript() as PropertyMap) : {};
}

/** Drops `undefined` values, as the SDK does for a program's inputs (Struct cannot encode them). */
export function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : stripUndefined(v)));
  if (value !== null && typeof value === 'object') {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value as PropertyMap)) {
      if (v !== undefined) out[k] = stripUndefined(v);
    }
    return out;
  }
  return value;
}
