/**
 * A 100,000-row-error report served by the console page by page (`npm test` runs it; `test:quick`
 * leaves the soak files out): each page small, the filters' counts and the last page right. The
 * same routes at a dozen rows are in console.routes.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import { BIG_FILES, CONSOLE, MC_PARENT, SOURCE_SEED, bigJobSeed, call, expectedCount, newApp, ok } from '../../support/console';

const jobName = (id: string) => `${MC_PARENT}/importJobs/${id}`;
const jobUrl = (id: string) => `${CONSOLE}/${jobName(id)}`;

// A soak file's limit (CONTRIBUTING.md): 100,000 rows seeded and read on a loaded 2-core machine.
jest.setTimeout(300_000);

let app: FastifyInstance;
afterEach(() => app.close());

describe('100,000 row errors', () => {
  test('each page is small; filters and the last page are right', async () => {
    app = newApp();
    ok(await call(app, 'POST', '/emulator/v1/seed', { sources: [SOURCE_SEED], importJobs: [bigJobSeed('huge')] }));
    const total = 100_000;
    // Sizes, not durations: a page's bytes do not depend on the machine's load.
    const getPage = async (url: string) => {
      const res = await call(app, 'GET', url);
      return { body: ok(res), bytes: res.raw.length };
    };
    const first = await getPage(`${jobUrl('huge')}/rowErrors`);
    expect(first.body.totalSize).toBe(total);
    expect(first.body.rowErrors).toHaveLength(50);
    expect(first.bytes).toBeLessThan(20_000);

    const lastOffset = total - 50;
    const last = await getPage(`${jobUrl('huge')}/rowErrors?offset=${lastOffset}`);
    expect(last.body.rowErrors.map((r: any) => r.vmName)[49]).toBe(`vm-${total - 1}`);
    expect(last.body.nextOffset).toBeUndefined();

    const biggest = await getPage(`${jobUrl('huge')}/rowErrors?pageSize=500&offset=1000`);
    expect(biggest.body.rowErrors).toHaveLength(500);
    expect(biggest.bytes).toBeLessThan(150_000);

    for (const [file, severity] of [
      ['perfInfo.csv', 'ERROR'],
      ['vmInfo.csv', 'INFO'],
      [undefined, 'WARNING'],
      ['perfInfo.csv', undefined],
    ] as Array<[string | undefined, string | undefined]>) {
      const q = [file ? `file=${file}` : '', severity ? `severity=${severity}` : ''].filter(Boolean).join('&');
      const page = await getPage(`${jobUrl('huge')}/rowErrors?${q}`);
      expect(page.body.totalSize).toBe(expectedCount(BIG_FILES, file, severity));
      expect(page.body.rowErrors.every((r: any) => (!file || r.fileName === file) && (!severity || r.severity === severity))).toBe(true);
    }

    const list = await getPage(`${CONSOLE}/importJobs`);
    expect(list.body.importJobs[0].validation).toMatchObject({ rowErrors: total, bySeverity: { ERROR: 33_334, WARNING: 33_333, INFO: 33_333 } });
    expect(list.bytes).toBeLessThan(5_000);
    const detail = await getPage(jobUrl('huge'));
    expect(detail.bytes).toBeLessThan(5_000);
    expect(detail.body.validationReport.files.map((f: any) => f.rowErrors)).toEqual([60_000, 40_000]);
  });
});
