/**
 * The console's scripts without a browser: the generated constants.js agrees with the TypeScript
 * (a drift test: regenerate with `npx ts-node --transpile-only scripts/console-constants.ts`), and
 * kit.js's logic that draws nothing (the data file id, number and plural formatting, OS names,
 * request building) gives what it should. kit.js is run as the browser runs it, in a `vm` context
 * whose window, document, location, sessionStorage and fetch are small fakes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { CONSOLE_CONSTANTS, enumWords } from '../../../backend-emulator/console/constants';
import { dataFileId } from '../../../provider/data-files';
import { consoleConstantsText, CONSTANTS_FILE } from '../../../scripts/console-constants';

const STATIC = path.join(__dirname, '..', '..', '..', 'backend-emulator', 'console', 'static');

interface FetchCall {
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
}

/** constants.js then kit.js in one fresh context; returns window.GNL and the fetch calls made. */
function loadKit(options: { token?: string; answer?: { status: number; body: unknown } } = {}) {
  const calls: FetchCall[] = [];
  const storage = new Map<string, string>(options.token ? [['google-native-local.console.token', options.token]] : []);
  const answer = options.answer ?? { status: 200, body: {} };
  const window: Record<string, unknown> = {
    addEventListener: () => {},
    location: { origin: 'http://127.0.0.1:8085', hash: '', pathname: '/', search: '' },
    document: { readyState: 'loading', addEventListener: () => {}, getElementById: () => null },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
      removeItem: (k: string) => storage.delete(k),
    },
    history: { replaceState: () => {} },
    URL,
    URLSearchParams,
    fetch: (url: string, init: FetchCall['init']) => {
      calls.push({ url, init });
      return Promise.resolve({
        ok: answer.status < 400,
        status: answer.status,
        statusText: 'status text',
        text: () => Promise.resolve(JSON.stringify(answer.body)),
      });
    },
  };
  window.window = window;
  Object.assign(window, { location: window.location, document: window.document });
  const context = vm.createContext(window);
  for (const file of ['constants.js', 'kit.js']) vm.runInContext(fs.readFileSync(path.join(STATIC, file), 'utf8'), context, { filename: file });
  return { G: window.GNL as Record<string, (...args: never[]) => unknown>, calls };
}

describe('constants.js', () => {
  test('is what scripts/console-constants.ts writes from the TypeScript (no drift)', () => {
    expect(fs.readFileSync(CONSTANTS_FILE, 'utf8')).toBe(consoleConstantsText());
  });

  test('gives the browser (window.GNL_CONSTANTS) and Node (module.exports) the TypeScript values', () => {
    const window: Record<string, unknown> = {};
    vm.runInContext(fs.readFileSync(CONSTANTS_FILE, 'utf8'), vm.createContext({ window }));
    expect(window.GNL_CONSTANTS).toEqual(JSON.parse(JSON.stringify(CONSOLE_CONSTANTS)));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(require(CONSTANTS_FILE)).toEqual(JSON.parse(JSON.stringify(CONSOLE_CONSTANTS)));
  });

  test('lists the formats, severities and OS families a user meets, by their Google names', () => {
    expect(CONSOLE_CONSTANTS.formats.map(([f]) => f)).toEqual([
      'IMPORT_JOB_FORMAT_MANUAL_CSV',
      'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
      'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
      'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
      'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
      'IMPORT_JOB_FORMAT_CMDB',
    ]);
    expect(CONSOLE_CONSTANTS.severities).toEqual(['ERROR', 'WARNING', 'INFO']);
    expect(CONSOLE_CONSTANTS.osFamilies).toEqual(['OS_FAMILY_WINDOWS', 'OS_FAMILY_LINUX', 'OS_FAMILY_UNIX', 'OS_FAMILY_UNKNOWN']);
  });
});

describe('the words for enum values (preferenceWords)', () => {
  test("cover every enum of PreferenceSet.schema.json, each the words after its enum's shared prefix", () => {
    const words = CONSOLE_CONSTANTS.preferenceWords;
    expect(
      [
        'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
        'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE',
        'COMMITMENT_PLAN_FLEXIBLE_THREE_YEARS',
        'COMMITMENT_PLAN_UNSPECIFIED',
        'ON_DEMAND',
        'PERSISTENT_DISK_TYPE_SSD',
        'VERSION_TYPE_ENTERPRISE',
      ].map((v) => words[v]),
    ).toEqual(['Compute engine', 'Same as source', 'Flexible three years', 'Unspecified', 'On demand', 'Ssd', 'Enterprise']);
    // Every distinct value of the schema's string enums (73, counted in the schema file).
    expect(Object.keys(words)).toHaveLength(73);
  });

  test('a value two enums would word differently is an error, not a silent pick', () => {
    expect(() =>
      enumWords([
        ['A_X_ONE', 'A_X_TWO'],
        ['A_X_ONE', 'B_THREE'],
      ]),
    ).toThrow("A_X_ONE is worded both 'One' and 'A x one'");
    expect(enumWords([['ONLY_ONE']])).toEqual({ ONLY_ONE: 'Only one' });
  });
});

describe('kit.js, without a browser', () => {
  const NAMES: Array<[string, string]> = [
    ['vmInfo.csv', 'vm-info-csv'],
    ['VmInfo 2024.CSV', 'vm-info-2024-csv'],
    ['RVTools_export.xlsx', 'rvtools-export-xlsx'],
    ['2024 inventory.zip', 'f-2024-inventory-zip'],
    ['--perf__Info--.csv', 'perf-info-csv'],
    ['été.csv', 't-csv'],
    [`${'a'.repeat(62)}-b.csv`, 'a'.repeat(62)],
  ];

  test.each(NAMES)('the data file id of %j is %j, as the CLI and the provider name it', (name, id) => {
    const { G } = loadKit();
    expect(G.dataFileId(name as never)).toBe(id);
    expect(dataFileId(name)).toBe(id);
  });

  test('numbers, plurals and severity counts read as a person writes them', () => {
    const { G } = loadKit();
    expect(G.num(1234567 as never)).toBe('1,234,567');
    expect(G.num('42' as never)).toBe('42');
    expect(G.num('' as never)).toBe('');
    expect(G.num('x' as never)).toBe('');
    expect(G.plural(1 as never, 'asset' as never)).toBe('1 asset');
    expect(G.plural(2000 as never, 'asset' as never)).toBe('2,000 assets');
    expect(G.severityCount(1 as never, 'ERROR' as never)).toBe('1 error');
    expect(G.severityCount(7 as never, 'WARNING' as never)).toBe('7 warnings');
    expect(G.severityCount(3 as never, 'INFO' as never)).toBe('3 info');
  });

  test('OS families, names and paths', () => {
    const { G } = loadKit();
    expect(G.osFamilyName('OS_FAMILY_LINUX' as never)).toBe('Linux');
    expect(G.osFamilyName('OS_FAMILY_NEW' as never)).toBe('OS_FAMILY_NEW');
    expect(G.osFamilyName('' as never)).toBe('');
    expect(G.lastSegment('projects/p/locations/l/assets/a1' as never)).toBe('a1');
    expect(G.parentOfName('projects/p/locations/l/importJobs/j' as never)).toBe('projects/p/locations/l');
    expect(G.parentOfName('nothing' as never)).toBe('');
    expect(G.v1alpha1('projects/p 1/locations/l/importJobs/j' as never, 'run' as never)).toBe('/v1alpha1/projects/p%201/locations/l/importJobs/j:run');
  });

  test('a request: query without empty values, JSON body, the session token as a bearer header', async () => {
    const { G, calls } = loadKit({ token: 'tok-1', answer: { status: 200, body: { name: 'op' } } });
    await expect(
      G.request(
        'POST' as never,
        '/v1alpha1/projects/p/locations/l/importJobs' as never,
        { importJobId: 'j1', requestId: '', pageSize: 0 } as never,
        { a: 1 } as never,
      ),
    ).resolves.toEqual({
      name: 'op',
    });
    expect(calls).toEqual([
      {
        url: 'http://127.0.0.1:8085/v1alpha1/projects/p/locations/l/importJobs?importJobId=j1&pageSize=0',
        init: { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer tok-1' }, body: '{"a":1}' },
      },
    ]);
  });

  test("an error answer becomes an error with Google's status name and message", async () => {
    const { G, calls } = loadKit({ answer: { status: 404, body: { error: { code: 404, status: 'NOT_FOUND', message: 'no such job' } } } });
    await expect(G.request('GET' as never, '/v1alpha1/x' as never)).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'NOT_FOUND: no such job',
    });
    expect(calls[0].init).toEqual({ method: 'GET', headers: { Accept: 'application/json' }, body: undefined });
  });
});
