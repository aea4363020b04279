/**
 * Real exports as the tools write them (issue 16), through the emulator's REST API with an inline
 * payload: each shape validates to READY (or FAILED_VALIDATION for the refused ones) with the
 * engine's own report, says what the case says, and a valid one runs to COMPLETED with its assets.
 * The cases (and their fixtures) are in tests/support/real-exports.ts.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { validateImport } from '../../../backend-emulator/import-engine';
import { validateOutput } from '../../../schemas';
import { act, BASE, call, createJob, newApp, ok, onTheWire } from '../../support/migrationcenter';
import { issueTexts, REAL_EXPORT_CASES } from '../../support/real-exports';
import { sharedApp } from '../../support/app';

// One app for every case, reset before each (its import worker stays warm from one case to the next).
let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});

describe.each(REAL_EXPORT_CASES.map((c, i) => ({ ...c, id: `real-${i}` })))('$name', (c) => {
  it(`${c.blocking ? 'fails validation' : 'validates and runs'} over REST with the engine's report`, async () => {
    const files = await c.files();
    const payload = { format: c.format, payload: files.map((f) => ({ name: f.name, data: f.data.toString('base64') })) };
    ok(await createJob(app, c.id, { inlinePayload: payload }));
    const [, validated] = await act(app, c.id, 'validate');
    expect(validated.state).toBe(c.blocking ? 'IMPORT_JOB_STATE_FAILED_VALIDATION' : 'IMPORT_JOB_STATE_READY');
    expect(validateOutput('ValidationReport', validated.validationReport)).toEqual([]);
    const engine = await validateImport(
      c.format,
      files.map((f) => ({ name: f.name, size: f.data.length, open: () => Readable.from([f.data]) })),
    );
    expect(validated.validationReport).toEqual(onTheWire(engine));
    const texts = issueTexts(validated.validationReport);
    for (const text of c.says) expect(texts.filter((t) => t.includes(text))).not.toHaveLength(0);
    for (const text of c.never ?? []) expect(texts.filter((t) => t.includes(text))).toEqual([]);
    if (c.blocking) return;

    const [, job] = await act(app, c.id, 'run');
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=500`));
    expect(page.assets ?? []).toHaveLength(c.machines ?? 0);
  });
});
