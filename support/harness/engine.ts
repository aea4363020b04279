/**
 * A small stand-in for the Pulumi engine, so that a real Pulumi program (e.g. examples/basic) runs
 * under test without the Pulumi CLI: `@pulumi/pulumi`'s own program runner (`cmd/run`) talks to
 * this over gRPC, exactly as it talks to the engine, and our dynamic providers run in the real
 * dynamic-provider host (ONE host process, see provider-host.ts).
 *
 * Implements, with the SDK's generated stubs:
 * - ResourceMonitor: `SupportsFeature` (false for every feature: the SDK then sends plain values,
 *   no secrets, resource references or output values), `RegisterResource`, `ReadResource`,
 *   `RegisterResourceOutputs`, `SignalAndWaitForShutdown`; `Invoke` and `Call` answer an error
 *   (nothing here calls them).
 * - Engine: `Log` (kept in `RunResult.logs`), `GetRootResource`, `SetRootResource`.
 * - Resources: the stack and components get a URN and nothing else. Custom resources must be
 *   dynamic (`pulumi-nodejs:dynamic...`): check -> diff against the previous state -> create /
 *   update / replace / same, with the resource's own `__provider`. A replace creates first and
 *   deletes the old resource once the program is done, or deletes first when the diff or the
 *   resource asks (deleteBeforeReplace). After a successful `up`, resources the program no longer
 *   declares are deleted too, dependents first, as the engine does.
 * - Preview (`dryRun`): check and diff only; a create, update or replace answers the checked
 *   inputs as outputs (what the engine does for a provider without preview support: the host's
 *   Configure does not claim it), so the SDK treats every other output as unknown.
 * - Reads (`Resource.get`, the package's read functions): the provider host reads the id, at
 *   preview too; the resource is kept in the state as external (operation `read`), never diffed,
 *   updated or deleted: destroy and a run that no longer reads it only forget it (`discard`), as the
 *   engine does.
 * - State: URN -> {id, type, inputs, outputs, dependencies}, in memory, kept between runs;
 *   `destroy()` deletes it in reverse dependency order without running the program.
 *
 * Does not implement: explicit or default provider resources (`provider` references), aliases, protect, ignoreChanges, replaceOnChanges, import, refresh, parallel
 * limits, secrets, stack transforms, hooks, `GetDeploymentInfo` (UNIMPLEMENTED: the SDK then probes
 * `SupportsFeature`), and any persistence of the state.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import * as grpc from '@grpc/grpc-js';
import * as emptyproto from 'google-protobuf/google/protobuf/empty_pb';
import * as engineproto from '@pulumi/pulumi/proto/engine_pb';
import * as enginerpc from '@pulumi/pulumi/proto/engine_grpc_pb';
import * as resproto from '@pulumi/pulumi/proto/resource_pb';
import * as resrpc from '@pulumi/pulumi/proto/resource_grpc_pb';
import { fromStruct, PROVIDER_KEY, startProviderHost, toStruct, type PropertyMap, type ProviderHost } from './provider-host';

export const STACK_TYPE = 'pulumi:pulumi:Stack';
const DYNAMIC_TYPE = /^pulumi-nodejs:dynamic[/:]/;

export interface StateEntry {
  urn: string;
  type: string;
  custom: boolean;
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** URNs this resource depends on (its parent and its `dependsOn`/input dependencies). */
  dependencies: string[];
  /** Read, not managed (`Resource.get`, a read function): never updated or deleted by the engine. */
  external?: boolean;
}

/** As the engine's step operations; `discard` forgets a read resource (it deletes nothing). */
export type Operation = 'create' | 'update' | 'replace' | 'same' | 'delete' | 'read' | 'discard';

export interface RunResult {
  /** The runner's exit code (0: the program ran and every registration succeeded). */
  exitCode: number | null;
  /** URN -> the operation the run performed (or, in preview, planned). */
  operations: Map<string, Operation>;
  /** The provider host methods called during the run, in order (check, diff, create, ...). */
  providerCalls: string[];
  /** The stack's outputs (`export const ...` of the program). */
  outputs: PropertyMap;
  /** Engine `Log` messages, `severity: message`, and the runner's own stdout/stderr. */
  logs: string[];
  /** Failed steps (check failures, provider errors): any fails the run, as in the engine. */
  errors: string[];
  stdout: string;
  stderr: string;
}

export interface EngineOptions {
  /** The program folder (Pulumi.yaml, index.ts, node_modules with the package). */
  programDir: string;
  project: string;
  stack: string;
  /** Echo logs and the runner's output to this process's stderr. */
  echo?: boolean;
}

export interface RunOptions {
  dryRun?: boolean;
  /** Stack config with full `namespace:key` names, passed as PULUMI_CONFIG (as the CLI does). */
  config?: Record<string, string>;
  /** Extra environment for the program. */
  env?: Record<string, string>;
}

/** Builds a URN as the engine does: children of the stack are not qualified by its type. */
export function makeUrn(stack: string, project: string, type: string, name: string, parentUrn?: string): string {
  const parentType = parentUrn ? parentUrn.split('::')[2] : undefined;
  const qualified = parentType && parentType !== STACK_TYPE ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

export class StandInEngine {
  /** What survives between runs, as the engine's checkpoint. */
  readonly state = new Map<string, StateEntry>();
  private host: Promise<ProviderHost> | undefined;
  private server: grpc.Server | undefined;
  private port = 0;
  private rootUrn = '';
  private current: (RunResult & { dryRun: boolean; seen: Set<string>; replaced: StateEntry[] }) | undefined;
  private config: Record<string, string> = {};

  constructor(readonly options: EngineOptions) {}

  /** Runs the program once (`pulumi up`, or `pulumi preview` with `dryRun`). */
  async run(options: RunOptions = {}): Promise<RunResult> {
    await this.listen();
    this.config = options.config ?? {};
    const run = (this.current = {
      dryRun: options.dryRun ?? false,
      seen: new Set<string>(),
      replaced: [],
      exitCode: null,
      operations: new Map(),
      providerCalls: [],
      outputs: {},
      logs: [],
      errors: [],
      stdout: '',
      stderr: '',
    });
    try {
      await this.runProgram(options);
      if (run.exitCode === 0 && !run.errors.length && !run.dryRun) {
        // As the engine: replaced resources (create-before-delete) and resources the program no
        // longer declares are deleted once the program is done, dependents first.
        const gone = [...this.state.values()].filter((e) => !run.seen.has(e.urn));
        await this.deleteAll([...run.replaced, ...gone], run);
      }
    } finally {
      this.current = undefined;
    }
    const { dryRun: _dryRun, seen: _seen, replaced: _replaced, ...result } = run;
    return result;
  }

  /** `pulumi destroy`: deletes every resource of the state, dependents first. The program does not run. */
  async destroy(): Promise<RunResult> {
    const run = { exitCode: 0, operations: new Map(), providerCalls: [], outputs: {}, logs: [], errors: [], stdout: '', stderr: '' } as RunResult;
    await this.deleteAll([...this.state.values()], run);
    this.state.clear();
    return run;
  }

  /**
   * Reads a resource back through the provider host (what `pulumi refresh` does for one entry):
   * `id` is '' when the resource no longer exists. Takes an entry so that one from before a
   * `destroy` can be checked.
   */
  async read(entry: StateEntry): Promise<{ id: string; properties: PropertyMap }> {
    const host = await this.providerHost();
    return host.read(entry.id, entry.urn, entry.outputs, entry.inputs);
  }

  /** Stops the gRPC server and the provider host. */
  async close(): Promise<void> {
    const host = this.host;
    this.host = undefined;
    await (await host?.catch(() => undefined))?.close();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    const server = new grpc.Server();
    const unary =
      <Req, Res>(fn: (req: Req) => Promise<Res> | Res) =>
      (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => {
        Promise.resolve()
          .then(() => fn(call.request))
          .then(
            (res) => callback(null, res),
            (err: Error) => {
              this.log(`engine error: ${err.stack ?? err.message}`);
              const code = (err as { code?: grpc.status }).code ?? grpc.status.UNKNOWN;
              callback({ code, details: err.message });
            },
          );
      };
    const unsupported = (what: string) => () => {
      throw new Error(`${what} is not implemented by the stand-in engine (support/harness/engine.ts)`);
    };
    server.addService(resrpc.ResourceMonitorService, {
      supportsFeature: unary(() => new resproto.SupportsFeatureResponse().setHassupport(false)),
      registerResource: unary((req: resproto.RegisterResourceRequest) =>
        this.registerResource(req).catch((err: Error) => {
          // A failed step fails the deployment: the engine reports it and shuts the monitor down,
          // so the program sees UNAVAILABLE and exits without reporting it again (the SDK's
          // formatting of a rejected registration also takes a minute of CPU).
          this.current?.errors.push(err.message);
          throw Object.assign(new Error(`resource monitor shut down: ${err.message}`), { code: grpc.status.UNAVAILABLE });
        }),
      ),
      registerResourceOutputs: unary((req: resproto.RegisterResourceOutputsRequest) => {
        if (req.getUrn() === this.rootUrn && this.current) this.current.outputs = fromStruct(req.getOutputs());
        return new emptyproto.Empty();
      }),
      signalAndWaitForShutdown: unary(() => new emptyproto.Empty()),
      readResource: unary((req: resproto.ReadResourceRequest) =>
        this.readResource(req).catch((err: Error) => {
          this.current?.errors.push(err.message);
          throw Object.assign(new Error(`resource monitor shut down: ${err.message}`), { code: grpc.status.UNAVAILABLE });
        }),
      ),
      invoke: unary(unsupported('Invoke')),
      call: unary(unsupported('Call')),
    });
    server.addService(enginerpc.EngineService, {
      log: unary((req: engineproto.LogRequest) => {
        const severity = ['debug', 'info', 'warning', 'error'][req.getSeverity()] ?? 'log';
        this.log(`${severity}: ${req.getMessage()}`);
        return new emptyproto.Empty();
      }),
      getRootResource: unary(() => new engineproto.GetRootResourceResponse().setUrn(this.rootUrn)),
      setRootResource: unary((req: engineproto.SetRootResourceRequest) => {
        this.rootUrn = req.getUrn();
        return new engineproto.SetRootResourceResponse();
      }),
    });
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
    this.server = server;
  }

  /** Starts `@pulumi/pulumi/cmd/run` in the program folder, as the Node.js language host does. */
  private runProgram(options: RunOptions): Promise<void> {
    const run = this.current!;
    const { programDir, project, stack } = this.options;
    const runner = path.join(path.dirname(require.resolve('@pulumi/pulumi/package.json')), 'cmd', 'run');
    const address = `127.0.0.1:${this.port}`;
    const args = [runner, `--monitor=${address}`, `--engine=${address}`, `--project=${project}`, `--stack=${stack}`, `--pwd=${programDir}`];
    if (run.dryRun) args.push('--dry-run');
    args.push(programDir);
    const child = spawn(process.execPath, args, {
      cwd: programDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PULUMI_NODEJS_TYPESCRIPT: 'true',
        // Type checking is the repository's typecheck's job; ts-node only transpiles.
        PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
        PULUMI_CONFIG: JSON.stringify(this.config),
        PULUMI_CONFIG_SECRET_KEYS: '[]',
        ...options.env,
      },
    });
    child.stdout.on('data', (d: Buffer) => {
      run.stdout += d.toString();
      if (this.options.echo) process.stderr.write(`[program] ${d}`);
    });
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString();
      if (this.options.echo) process.stderr.write(`[program] ${d}`);
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => {
        run.exitCode = code;
        resolve();
      });
    });
  }

  private async registerResource(req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> {
    const run = this.current;
    if (!run) throw new Error('RegisterResource outside a run');
    const { stack, project } = this.options;
    const type = req.getType();
    const urn = makeUrn(stack, project, type, req.getName(), req.getParent() || undefined);
    if (run.seen.has(urn)) throw new Error(`duplicate resource URN ${urn}`);
    run.seen.add(urn);
    const inputs = fromStruct(req.getObject());
    const dependencies = [...new Set([req.getParent(), ...req.getDependenciesList()].filter(Boolean))];
    const old = this.state.get(urn);
    const res = new resproto.RegisterResourceResponse().setUrn(urn);

    if (!req.getCustom()) {
      if (!run.dryRun) this.state.set(urn, { urn, type, custom: false, id: '', inputs, outputs: {}, dependencies });
      run.operations.set(urn, old ? 'same' : 'create');
      return res.setObject(toStruct({}));
    }
    if (!DYNAMIC_TYPE.test(type)) throw new Error(`${urn}: only dynamic resources are supported, not ${type}`);
    if (typeof inputs[PROVIDER_KEY] !== 'string') throw new Error(`${urn}: inputs have no ${PROVIDER_KEY}`);

    const host = await this.providerHost();
    const call = <T>(method: string, fn: () => Promise<T>) => {
      run.providerCalls.push(method);
      return fn();
    };
    const checked = await call('check', () => host.check(urn, old?.inputs ?? {}, inputs));
    if (checked.failures.length) {
      const reasons = checked.failures.map((f) => `${f.property}: ${f.reason}`).join('; ');
      throw new Error(`${urn}: check failed: ${reasons}`);
    }
    const news = checked.inputs;
    let op: Operation = 'create';
    let deleteFirst = false;
    if (old) {
      const diff = await call('diff', () => host.diff(old.id, urn, old.outputs, news, old.inputs));
      if (diff.changes === 'none') op = 'same';
      else if (diff.replaces.length) op = 'replace';
      else op = 'update';
      deleteFirst = diff.deleteBeforeReplace || req.getDeletebeforereplace();
    }
    run.operations.set(urn, op);
    let id = old?.id ?? '';
    let outputs = old?.outputs ?? {};
    if (run.dryRun) {
      if (op !== 'same') outputs = news;
      if (op === 'create' || op === 'replace') id = '';
    } else if (op === 'create' || op === 'replace') {
      if (old && deleteFirst) await call('delete', () => host.delete(old.id, urn, old.outputs, { oldInputs: old.inputs }));
      const created = await call('create', () => host.create(urn, news));
      if (old && !deleteFirst) run.replaced.push(old);
      ({ id, properties: outputs } = created);
    } else if (op === 'update') {
      outputs = (await call('update', () => host.update(old!.id, urn, old!.outputs, news, { oldInputs: old!.inputs }))).properties;
    }
    if (!run.dryRun) this.state.set(urn, { urn, type, custom: true, id, inputs: news, outputs, dependencies });
    return res.setId(id).setObject(toStruct(outputs));
  }

  /** Reads a resource by id through the provider host (`Resource.get`): a read, at preview too. */
  private async readResource(req: resproto.ReadResourceRequest): Promise<resproto.ReadResourceResponse> {
    const run = this.current;
    if (!run) throw new Error('ReadResource outside a run');
    const { stack, project } = this.options;
    const type = req.getType();
    const urn = makeUrn(stack, project, type, req.getName(), req.getParent() || undefined);
    if (run.seen.has(urn)) throw new Error(`duplicate resource URN ${urn}`);
    run.seen.add(urn);
    if (!DYNAMIC_TYPE.test(type)) throw new Error(`${urn}: only dynamic resources are supported, not ${type}`);
    const inputs = fromStruct(req.getProperties());
    if (typeof inputs[PROVIDER_KEY] !== 'string') throw new Error(`${urn}: properties have no ${PROVIDER_KEY}`);
    const host = await this.providerHost();
    run.providerCalls.push('read');
    const read = await host.read(req.getId(), urn, inputs);
    if (!read.id) throw new Error(`${urn}: resource '${req.getId()}' does not exist`);
    run.operations.set(urn, 'read');
    const dependencies = [...new Set([req.getParent(), ...req.getDependenciesList()].filter(Boolean))];
    if (!run.dryRun) this.state.set(urn, { urn, type, custom: true, external: true, id: read.id, inputs, outputs: read.properties, dependencies });
    return new resproto.ReadResourceResponse().setUrn(urn).setProperties(toStruct(read.properties));
  }

  /**
   * Deletes entries, each only after every other entry depending on it, and forgets those still in
   * the state. A replaced resource's old entry has the same URN as its replacement: entries are
   * tracked as objects, and its operation stays `replace`.
   */
  private async deleteAll(entries: StateEntry[], run: RunResult): Promise<void> {
    let left = [...entries];
    while (left.length) {
      const dependedOn = new Set(left.flatMap((e) => e.dependencies));
      const leaves = left.filter((e) => !dependedOn.has(e.urn));
      if (!leaves.length) throw new Error(`dependency cycle among ${left.map((e) => e.urn).join(', ')}`);
      for (const entry of leaves) {
        if (entry.custom && !entry.external) {
          const host = await this.providerHost();
          run.providerCalls.push('delete');
          await host.delete(entry.id, entry.urn, entry.outputs, { oldInputs: entry.inputs });
        }
        if (!run.operations.has(entry.urn)) run.operations.set(entry.urn, entry.external ? 'discard' : 'delete');
        if (this.state.get(entry.urn) === entry) this.state.delete(entry.urn);
      }
      left = left.filter((e) => !leaves.includes(e));
    }
  }

  /** The one provider host, started in the program folder and configured with the stack config. */
  private providerHost(): Promise<ProviderHost> {
    // One promise: the SDK registers independent resources concurrently.
    this.host ??= (async () => {
      const host = await startProviderHost({ cwd: this.options.programDir, project: this.options.project, echo: this.options.echo });
      // The engine configures a provider before any other call; the host applies the config to each
      // provider when it first deserialises it, so later config changes reach only new providers.
      await host.configure(this.config);
      return host;
    })();
    return this.host;
  }

  private log(line: string): void {
    this.current?.logs.push(line);
    if (this.options.echo) process.stderr.write(`[engine] ${line}\n`);
  }
}
