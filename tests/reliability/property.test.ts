/**
 * Property-based tests (fast-check) of what hostile input reaches first:
 * - the schema validation (schemas/index.ts `validate` for every schema, `validateImportJobArgs`):
 *   random JSON never throws and always answers a list of `{property, reason}` strings;
 * - every format parser through `validateImport`: random bytes as each file of each of the six
 *   formats, random rows under each file's real header, and random, mutated and truncated bytes as
 *   an XLSX workbook: never an exception, never a hang (each run bounded by a timer), a
 *   schema-valid report, and nothing of a run kept after it: the input pieces and the reports
 *   of every run are unreachable once the property is over (counted after a full
 *   collection, tests/support/reachability.ts: a count the machine's load cannot move, where a
 *   heap figure in MB would be).
 * Runs are kept modest (FC_RUNS scales them: tests/support/property-runs.ts) so the suite stays fast.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { IMPORT_JOB_FORMATS, validateImport, type ImportJobFormat, type PayloadFile } from '../../backend-emulator/import-engine';
import { FORMATS } from '../../backend-emulator/import-engine/formats';
import { ALL_SCHEMAS, validate, validateImportJobArgs, type SchemaName } from '../../schemas';
import { handWorkbook, inlineRow, sheetXml } from '../../support/xlsx-build';
import { freshBuffer, Reachability } from '../support/reachability';
import { chunkedFile } from '../support/payload-files';
import { propertyRuns } from '../support/property-runs';

jest.setTimeout(180_000);

const runs = propertyRuns;
/** One run of a parser may not take longer than this (a hang fails the property). */
const RUN_TIMEOUT_MS = 10_000;

/** Rejects when `promise` takes longer than `ms`: a hang is a failure, not a wait. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function expectFailureList(failures: unknown): void {
  // Checked by hand and thrown (fast-check reports the run's value with it): the schema properties
  // made about 23,000 expect() calls here in a quick run, each about 50 us of jest's matcher set-up.
  const wrong = (what: string): never => {
    throw new Error(`not a list of at most 100 {property, reason} strings (${what}): ${JSON.stringify(failures)?.slice(0, 500)}`);
  };
  if (!Array.isArray(failures)) wrong('not an array');
  for (const f of failures as unknown[]) {
    if (typeof f !== 'object' || f === null) wrong('an entry is not an object');
    const keys = Object.keys(f as object).sort();
    if (keys.length !== 2 || keys[0] !== 'property' || keys[1] !== 'reason') wrong(`an entry's keys are ${keys.join(', ')}`);
    if (typeof (f as { property: unknown }).property !== 'string') wrong('a property is not a string');
    if (typeof (f as { reason: unknown }).reason !== 'string') wrong('a reason is not a string');
  }
  if ((failures as unknown[]).length > 100) wrong(`${(failures as unknown[]).length} entries`);
}

// ---------------------------------------------------------------------------------------------
// Schemas

/** Every property name the schemas know, so that random objects reach past the first level. */
const SCHEMA_KEYS: string[] = (() => {
  const keys = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'properties' && v && typeof v === 'object') for (const p of Object.keys(v)) keys.add(p);
        walk(v);
      }
    }
  };
  walk(ALL_SCHEMAS);
  return [...keys];
})();

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'a.b', 'x'.repeat(300)];

/** JSON values whose objects use the schemas' own keys (and hostile ones) as own properties, as JSON.parse makes them. */
const schemaShaped: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 5, depthIdentifier: 'json' },
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('IMPORT_JOB_FORMAT_MANUAL_CSV', 'gs://b/o', 'user:a@example.com', 'roles/viewer', 'QQ==', 'SIDECAR_PROXY'),
    ),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...SCHEMA_KEYS), fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 6 })
      .map((entries) => Object.fromEntries(entries)),
  ),
})).value;

const anyJson = fc.oneof(fc.jsonValue(), schemaShaped);

describe('schema validation never throws', () => {
  const names = ALL_SCHEMAS.map((s) => s.title as SchemaName);

  test.each(names)('validate("%s", random JSON) answers a list of {property, reason} strings', (name) => {
    fc.assert(
      fc.property(anyJson, (value) => {
        expectFailureList(validate(name, value));
      }),
      { numRuns: runs(150) },
    );
  });

  test('validateImportJobArgs(random object) answers a list of {property, reason} strings', () => {
    const args = fc.oneof(
      fc.dictionary(fc.oneof(fc.constantFrom(...SCHEMA_KEYS, ...HOSTILE_KEYS, 'storagePayload', 'gcsPayload'), fc.string({ maxLength: 6 })), anyJson, {
        maxKeys: 8,
      }),
      schemaShaped.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)),
    );
    fc.assert(
      fc.property(args, (value) => {
        expectFailureList(validateImportJobArgs(value as Record<string, unknown>));
      }),
      { numRuns: runs(500) },
    );
  });

  test('values nested 10,000 deep, in every schema, and in the import job args', () => {
    const deepObject = JSON.parse('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)) as Record<string, unknown>;
    const deepArray = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown;
    for (const name of names) {
      for (const value of [deepObject, deepArray, { labels: deepObject, policy: deepObject, bindings: deepArray }]) expectFailureList(validate(name, value));
    }
    expectFailureList(validateImportJobArgs({ labels: deepObject, inlinePayload: deepObject, displayName: deepArray }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Format parsers

/** The payload file names each format recognises (one per file kind). */
function fileNames(format: ImportJobFormat): string[] {
  const def = FORMATS[format];
  if (!def) return [];
  if (format === 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX') return ['RVTools_export_all.xlsx'];
  return def.fileKinds.map((k) => k.title).filter((title) => def.fileKinds.some((k) => k.fileName.test(title)));
}

/** The real header of each file kind (the columns a template writes). */
function headers(format: ImportJobFormat): Array<{ name: string; sheet?: string; columns: string[] }> {
  const def = FORMATS[format];
  if (!def) return [];
  return def.fileKinds
    .filter((k) => k.columns.length > 0)
    .map((k) => ({
      name: k.title,
      sheet: /^sheet (\S+)$/.exec(k.title)?.[1],
      columns: k.columns.filter((c) => !(c as { derived?: boolean }).derived).map((c) => c.name),
    }));
}

/** While a property runs under `nothingKept`: what its runs handed the engine and got back. */
let handedOver: Reachability | undefined;

/** The file as the engine sees it, every piece it reads tracked. */
function tracked(file: PayloadFile, watch: Reachability): PayloadFile {
  return {
    ...file,
    open: () => {
      const source = file.open() as Readable;
      async function* fresh(): AsyncGenerator<Buffer> {
        for await (const chunk of source) {
          // Fresh memory of its own (small buffers share Node's pool), so that it can be tracked.
          const piece = freshBuffer(chunk as Buffer);
          watch.track(piece);
          yield piece;
        }
      }
      return Readable.from(fresh(), { objectMode: false });
    },
  };
}

async function checkReport(format: ImportJobFormat, files: PayloadFile[]): Promise<void> {
  const watch = handedOver;
  const given = watch ? files.map((f) => tracked(f, watch)) : files;
  const report = await bounded(validateImport(format, given, { maxRowBytes: 4096 }), RUN_TIMEOUT_MS, `validateImport(${format})`);
  watch?.track(report);
  expect(validate('ValidationReport', report)).toEqual([]);
}

/**
 * Runs a property, then checks that the engine kept nothing of its runs: every input piece it read
 * and every report it gave back is unreachable after a full collection (a leak across runs would
 * keep them, whatever the machine's load).
 */
async function nothingKept(run: () => Promise<void>): Promise<void> {
  const watch = new Reachability();
  handedOver = watch;
  try {
    await run();
  } finally {
    handedOver = undefined;
  }
  // A macrotask turn first: WeakRef targets stay alive until the microtask queue drains.
  await new Promise((resolve) => setImmediate(resolve));
  expect(watch.tracked).toBeGreaterThan(0);
  expect(watch.check()).toBe(0);
}

/** Cells that stress CSV readers: separators, quotes, line breaks, BOM, multi-byte, formula starters, numbers. */
const cellChar = fc.constantFrom(
  ',',
  '"',
  '\n',
  '\r',
  ' ',
  'a',
  'Z',
  '0',
  '9',
  '.',
  '-',
  '=',
  '@',
  '+',
  ';',
  ':',
  '\uFEFF',
  'é',
  '€',
  '😀',
  '\t',
  '\u0000',
  '/',
  'T',
);
const cell = fc.oneof(
  fc.string({ unit: cellChar, maxLength: 12 }),
  fc.integer({ min: -5, max: 100000 }).map(String),
  fc.constantFrom('', 'true', 'poweredOn', '2024-01-31 10:00:00', '10.0.0.1', 'Linux'),
);
const quote = (s: string) => (/[",\r\n]/.test(s) || s === '' ? `"${s.replace(/"/g, '""')}"` : s);

// Formats the emulator imports; the others (DATABASE_ZIP) are checked below.
const IMPORTED = IMPORT_JOB_FORMATS.filter((f) => FORMATS[f] !== undefined);
const REFUSED = IMPORT_JOB_FORMATS.filter((f) => FORMATS[f] === undefined);

describe('formats the emulator refuses', () => {
  test('are only DATABASE_ZIP', () => {
    expect(REFUSED).toEqual(['IMPORT_JOB_FORMAT_DATABASE_ZIP']);
  });

  test.each(REFUSED.map((f) => [f]))('%s: any files give a valid report with exactly one job ERROR and no file or row error', async (format) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 4 }), fc.uint8Array({ maxLength: 500 }), async (names, bytes) => {
        const report = await bounded(
          validateImport(
            format,
            names.map((n) => chunkedFile(n, bytes, [])),
          ),
          RUN_TIMEOUT_MS,
          `validateImport(${format})`,
        );
        expect(validate('ValidationReport', report)).toEqual([]);
        expect(report.jobErrors.map((e) => e.severity)).toEqual(['ERROR']);
        expect(report.fileValidations.flatMap((f) => [...(f.fileErrors ?? []), ...(f.rowErrors ?? [])])).toEqual([]);
      }),
      { numRuns: runs(20) },
    );
  });
});

describe.each(IMPORTED.map((f) => [f]))('%s: validateImport never throws, never hangs, keeps nothing of a run', (format) => {
  test('random bytes as each of its files, in random chunks', async () => {
    const names = fileNames(format);
    expect(names.length).toBeGreaterThan(0);
    await nothingKept(() =>
      fc.assert(
        fc.asyncProperty(
          fc.subarray(names, { minLength: 1 }),
          fc.uint8Array({ maxLength: 3000 }),
          fc.array(fc.nat(), { maxLength: 5 }),
          async (chosen, bytes, cuts) => {
            await checkReport(
              format,
              chosen.map((n) => chunkedFile(n, bytes, cuts)),
            );
          },
        ),
        { numRuns: runs(40) },
      ),
    );
  });

  test('random rows under the real header of each file', async () => {
    const kinds = headers(format);
    expect(kinds.length).toBeGreaterThan(0);
    const xlsx = format === 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX';
    await nothingKept(() =>
      fc.assert(
        fc.asyncProperty(
          fc.subarray(kinds, { minLength: 1 }),
          fc.array(fc.array(cell, { maxLength: 30 }), { maxLength: 12 }),
          fc.constantFrom('\n', '\r\n'),
          async (chosen, rows, nl) => {
            if (xlsx) {
              // Cells as inline strings in a hand-made workbook (text kept XML-safe).
              // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 cannot hold
              const safe = (s: string) => s.replace(/[<>&"\u0000-\u0008\u000b\u000c\u000e-\u001f\uFEFF]/g, '_');
              const sheets: Array<[string, string]> = chosen.map((k) => [
                k.sheet ?? k.name,
                sheetXml(inlineRow(1, k.columns.slice(0, 26)) + rows.map((r, i) => inlineRow(i + 2, r.slice(0, 26).map(safe))).join('')),
              ]);
              await checkReport(format, [chunkedFile('RVTools_export_all.xlsx', handWorkbook(sheets))]);
            } else {
              const files = chosen.map((k) =>
                chunkedFile(k.name, Buffer.from([k.columns.map(quote).join(','), ...rows.map((r) => r.map(quote).join(','))].join(nl) + nl)),
              );
              await checkReport(format, files);
            }
          },
        ),
        { numRuns: runs(40) },
      ),
    );
  });
});

describe('random bytes as an XLSX workbook (IMPORT_JOB_FORMAT_RVTOOLS_XLSX)', () => {
  const FORMAT = 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX' as const;
  const valid = handWorkbook([
    [
      'vInfo',
      sheetXml(inlineRow(1, ['VM', 'CPUs', 'Memory', 'VM ID']) + inlineRow(2, ['vm-1', 2, 4096, 'vm-101']) + inlineRow(3, ['vm-2', 4, 8192, 'vm-102'])),
    ],
    ['vDisk', sheetXml(inlineRow(1, ['VM', 'Disk', 'Capacity MiB', 'VM ID']) + inlineRow(2, ['vm-1', 'Hard disk 1', 40960, 'vm-101']))],
  ]);

  test('the valid workbook these mutate validates clean', async () => {
    const report = await validateImport(FORMAT, [chunkedFile('RVTools.xlsx', valid)]);
    expect(report.jobErrors).toEqual([]);
    expect(report.fileValidations[0].fileErrors.filter((e) => e.severity === 'ERROR')).toEqual([]);
  });

  test('pure random bytes, with and without a zip signature', async () => {
    await nothingKept(() =>
      fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), fc.boolean(), async (bytes, zipMagic) => {
          const buf = Buffer.from(bytes);
          if (zipMagic && buf.length >= 4) buf.writeUInt32LE(0x04034b50, 0);
          await checkReport(FORMAT, [chunkedFile('RVTools.xlsx', buf)]);
        }),
        { numRuns: runs(80) },
      ),
    );
  });

  test('a valid workbook with random bytes overwritten, or truncated at a random length', async () => {
    await nothingKept(() =>
      fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
          fc.option(fc.nat({ max: valid.length }), { nil: undefined }),
          fc.array(fc.nat(), { maxLength: 4 }),
          async (writes, truncate, cuts) => {
            const buf = Buffer.from(valid);
            for (const [at, byte] of writes) buf[at] = byte;
            await checkReport(FORMAT, [chunkedFile('RVTools.xlsx', truncate === undefined ? buf : buf.subarray(0, truncate), cuts)]);
          },
        ),
        { numRuns: runs(120) },
      ),
    );
  });
});
