/**
 * Proves the provider-host harness: a small dynamic provider, serialised with the SDK's own
 * serializer, driven through the real dynamic-provider host over gRPC.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { dynamicUrn, HostCallError, PROVIDER_KEY, ProviderHost, serializeProvider, startProviderHost, UNKNOWN } from '../../support/harness/provider-host';
import { createTestProgram, TestProgram } from '../../support/harness/program';
import { createThenRead, lifecycle } from '../../support/harness/lifecycle';

jest.setTimeout(60_000);

/** A counter provider over a JSON file: state is visible to the test and survives the host. */
function makeCounterProvider(storeFile: string) {
  const load = (): Record<string, { name: string; count: number }> => (fs.existsSync(storeFile) ? JSON.parse(fs.readFileSync(storeFile, 'utf8')).counters : {});
  const save = (counters: Record<string, { name: string; count: number }>, extra: Record<string, unknown> = {}) => {
    const prior = fs.existsSync(storeFile) ? JSON.parse(fs.readFileSync(storeFile, 'utf8')) : {};
    fs.writeFileSync(storeFile, JSON.stringify({ ...prior, ...extra, counters }));
  };
  return {
    async configure(req: { config: { get(key: string): string | undefined } }) {
      save(load(), { configured: { endpoint: req.config.get('google-native-local:endpoint') ?? null, short: req.config.get('greeting') ?? null } });
    },
    async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
      const failures: { property: string; reason: string }[] = [];
      const count = news.count;
      if (count !== UNKNOWN_VALUE && (typeof count !== 'number' || count < 0)) {
        failures.push({ property: 'count', reason: 'count must be a number >= 0' });
      }
      if (typeof news.name !== 'string' || news.name.length === 0) {
        failures.push({ property: 'name', reason: 'name is required' });
      }
      return { inputs: { name: news.name, count: news.count }, failures };
    },
    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
      const replaces = olds.name !== news.name ? ['name'] : [];
      const changes = replaces.length > 0 || olds.count !== news.count;
      return { changes, replaces, deleteBeforeReplace: replaces.length > 0, stables: ['name'] };
    },
    async create(inputs: Record<string, unknown>) {
      if (inputs.name === 'boom') throw new Error('create exploded');
      if (inputs.name === 'half') {
        const err = new Error('created but not ready') as Error & { id?: string; properties?: unknown; reasons?: string[] };
        err.id = 'half-id';
        err.properties = { name: 'half', count: 0 };
        err.reasons = ['still warming up'];
        throw err;
      }
      if (inputs.name === 'undef') return { id: 'undef-id', outs: { name: 'undef', missing: undefined } };
      const counters = load();
      const id = `counter-${inputs.name as string}`;
      counters[id] = { name: inputs.name as string, count: inputs.count as number };
      save(counters);
      return { id, outs: { name: inputs.name, count: inputs.count, createdBy: 'create' } };
    },
    async read(id: string, _props: Record<string, unknown>) {
      const c = load()[id];
      if (!c) return { id: '', props: {} };
      return { id, props: { name: c.name, count: c.count, createdBy: 'read' }, inputs: { name: c.name, count: c.count } };
    },
    async update(id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
      const counters = load();
      counters[id] = { name: news.name as string, count: news.count as number };
      save(counters);
      return { outs: { name: news.name, count: news.count, createdBy: 'update' } };
    },
    async delete(id: string) {
      const counters = load();
      delete counters[id];
      save(counters);
    },
  };
}
const UNKNOWN_VALUE = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

const TYPE = 'networkservices/v1:EndpointPolicyIamBinding';

describe('provider host harness with an in-test provider', () => {
  let tmp: string;
  let storeFile: string;
  let serialized: string;
  let host: ProviderHost;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-harness-'));
    storeFile = path.join(tmp, 'store.json');
    serialized = await serializeProvider(makeCounterProvider(storeFile));
    host = await startProviderHost({ cwd: tmp, provider: serialized, project: 'proj' });
    await host.configure({ 'google-native-local:endpoint': 'http://127.0.0.1:9', 'proj:greeting': 'hi' });
  });

  afterAll(async () => {
    await host?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const readStore = () => JSON.parse(fs.readFileSync(storeFile, 'utf8'));

  it('serialises by value with the SDK serializer (exports.handler)', () => {
    expect(serialized).toContain('exports.handler');
    expect(serialized).toContain('create exploded');
    expect(serialized).toContain(JSON.stringify(storeFile));
    expect(serialized).not.toMatch(/require\("\.\/tests/);
  });

  it('Check returns failures as a list, not an error', async () => {
    const urn = dynamicUrn(TYPE, 'bad');
    const res = await host.check(urn, {}, { name: '', count: -1 });
    expect(res.failures).toEqual([
      { property: 'count', reason: 'count must be a number >= 0' },
      { property: 'name', reason: 'name is required' },
    ]);
    expect(res.inputs[PROVIDER_KEY]).toBe(serialized);
  });

  it('Configure reached the provider with full config names (and project-relative keys)', async () => {
    // configure runs when the host first deserialises the provider (the Check above).
    expect(readStore().configured).toEqual({ endpoint: 'http://127.0.0.1:9', short: 'hi' });
  });

  it('Check accepts unknown values during preview', async () => {
    const res = await host.check(dynamicUrn(TYPE, 'preview'), {}, { name: 'p', count: UNKNOWN });
    expect(res.failures).toEqual([]);
    expect(res.inputs.count).toBe(UNKNOWN);
  });

  it('Create, Read, Diff (with replaces), Update, Delete round-trip', async () => {
    const urn = dynamicUrn(TYPE, 'c1');
    const checked = await host.check(urn, {}, { name: 'one', count: 1 });
    expect(checked.failures).toEqual([]);

    const created = await host.create(urn, checked.inputs);
    expect(created.id).toBe('counter-one');
    expect(created.properties).toEqual({ name: 'one', count: 1, createdBy: 'create', [PROVIDER_KEY]: serialized });
    expect(readStore().counters['counter-one']).toEqual({ name: 'one', count: 1 });

    const read = await host.read(created.id, urn, created.properties);
    expect(read.id).toBe('counter-one');
    expect(read.properties).toMatchObject({ name: 'one', count: 1, createdBy: 'read' });
    expect(read.inputs).toMatchObject({ name: 'one', count: 1, [PROVIDER_KEY]: serialized });

    // get by id: only __provider in the properties
    const got = await host.read('counter-one', urn, {});
    expect(got.properties).toMatchObject({ name: 'one', count: 1 });

    const noChange = await host.diff(created.id, urn, created.properties, checked.inputs);
    expect(noChange).toMatchObject({ changes: 'none', replaces: [], deleteBeforeReplace: false });

    const recheck = await host.check(urn, checked.inputs, { name: 'one', count: 5 });
    const change = await host.diff(created.id, urn, created.properties, recheck.inputs);
    expect(change).toMatchObject({ changes: 'some', replaces: [], deleteBeforeReplace: false });
    // the host drops stables
    expect(change.stables).toEqual([]);

    const replace = await host.diff(created.id, urn, created.properties, { name: 'two', count: 1 });
    expect(replace).toMatchObject({ changes: 'some', replaces: ['name'], deleteBeforeReplace: true });

    const updated = await host.update(created.id, urn, created.properties, recheck.inputs);
    expect(updated.properties).toEqual({ name: 'one', count: 5, createdBy: 'update', [PROVIDER_KEY]: serialized });
    expect(readStore().counters['counter-one'].count).toBe(5);

    await host.delete(created.id, urn, updated.properties);
    expect(readStore().counters['counter-one']).toBeUndefined();

    const gone = await host.read(created.id, urn, updated.properties);
    expect(gone.id).toBe('');
  });

  it('an exception in a provider method comes back as a gRPC UNKNOWN error with the message', async () => {
    const err = await host.create(dynamicUrn(TYPE, 'boom'), { name: 'boom', count: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).codeName).toBe('UNKNOWN');
    expect((err as HostCallError).details).toBe('create exploded');
    expect((err as HostCallError).initFailure).toBeUndefined();
  });

  it('an error carrying an id reports a partly created resource', async () => {
    const err = (await host.create(dynamicUrn(TYPE, 'half'), { name: 'half', count: 0 }).catch((e: unknown) => e)) as HostCallError;
    expect(err).toBeInstanceOf(HostCallError);
    expect(err.initFailure).toEqual({ id: 'half-id', properties: { name: 'half', count: 0 }, reasons: ['still warming up'] });
  });

  it('undefined in returned outputs breaks the encoding (a gRPC error)', async () => {
    const err = await host.create(dynamicUrn(TYPE, 'undef'), { name: 'undef', count: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
  });

  it('lifecycle helpers drive check -> create -> read', async () => {
    const urn = dynamicUrn(TYPE, 'life');
    const res = await createThenRead(host, urn, { name: 'life', count: 2 });
    expect(res.created.id).toBe('counter-life');
    expect(res.read.properties).toMatchObject({ name: 'life', count: 2 });
    const steps = await lifecycle(
      host,
      urn,
      [
        { name: 'life', count: 2 },
        { name: 'life', count: 3 },
        { name: 'life2', count: 3 },
      ],
      { existing: res.created },
    );
    expect(steps.map((s) => s.action)).toEqual(['same', 'update', 'replace']);
    expect(steps[2].id).toBe('counter-life2');
    expect(readStore().counters['counter-life']).toBeUndefined();
    await host.delete(steps[2].id, urn, steps[2].properties);
  });
});

describe('a provider that captures a module of an installed package', () => {
  let program: TestProgram;
  let host: ProviderHost | undefined;

  beforeAll(async () => {
    program = await createTestProgram();
  });

  afterAll(async () => {
    await host?.close();
    program?.cleanup();
  });

  it('serialises as require("google-native-local/dist/...") and the host resolves it from its cwd', async () => {
    const backends = program.requirePackage<typeof import('../../provider/backends')>('dist/provider/backends');
    const provider = {
      async create(inputs: Record<string, unknown>) {
        const parsed = backends.parseEndpoint(inputs.endpoint as string);
        return { id: 'x', outs: { kind: parsed.kind } };
      },
    };
    const text = await serializeProvider(provider);
    expect(text).toMatch(/require\("google-native-local\/dist\/provider\/backends\.js"\)/);
    // Small, since the module is a require(); under `jest --coverage` the test's own functions carry
    // istanbul counters, serialised by value (hundreds of KB), so the size only holds without it.
    if (!('__coverage__' in globalThis)) expect(text.length).toBeLessThan(4000);

    host = await startProviderHost({ cwd: program.dir, provider: text });
    await host.configure({});
    const created = await host.create(dynamicUrn(TYPE, 'pkg'), { endpoint: 'http://127.0.0.1:1234' });
    expect(created.properties.kind).toBe('http');
  });

  it('the embedded backend runs inside the host with its store under <program>/.google-native-local', async () => {
    const backends = program.requirePackage<typeof import('../../provider/backends')>('dist/provider/backends');
    const clientModule = program.requirePackage<typeof import('../../provider/client')>('dist/provider/client');
    const provider = {
      async read(id: string) {
        const backend = backends.resolveBackend({});
        try {
          await backend.client('networkservices').get(`/v1/${id}`);
          return { id, props: { kind: backend.kind, found: true } };
        } catch (err) {
          if (!clientModule.isGoogleApiCallError(err)) throw err;
          return { id, props: { kind: backend.kind, status: err.status, httpCode: err.httpCode } };
        }
      },
    };
    const text = await serializeProvider(provider);
    expect(text).toContain('require("google-native-local/dist/provider/backends.js")');
    const embeddedHost = await startProviderHost({ cwd: program.dir, provider: text, env: { GOOGLE_NATIVE_LOCAL_ENDPOINT: undefined } });
    try {
      await embeddedHost.configure({});
      const name = 'projects/p1/locations/global/endpointPolicies/absent';
      const res = await embeddedHost.read(name, dynamicUrn(TYPE, 'embedded'), {});
      expect(res.properties).toMatchObject({ kind: 'embedded', status: 'NOT_FOUND', httpCode: 404 });
      expect(fs.existsSync(path.join(program.dir, '.google-native-local'))).toBe(true);
    } finally {
      await embeddedHost.close();
    }
  });
});
