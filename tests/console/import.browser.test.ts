/**
 * The console as a local Migration Center, in Debian's Chromium (playwright-core): the import page
 * walks a manual CSV import and an RVTools workbook import from the file picker to COMPLETED
 * (every step through the public REST API, uploads through the signed URLs), a row error is
 * opened, the inventory is filtered and sorted, an asset is opened, and the summary draws its
 * charts from assets:aggregateValues. Screenshots go to a temp folder and are copied to
 * docs/console/ for docs/console.md when UPDATE_CONSOLE_SCREENSHOTS=1; the test asserts what they show (counts, names).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { FIXTURES } from '../support/import-formats';
import { openBrowserPage, waitAttribute as waitAttributeIn, waitText as waitTextIn } from '../support/browser';

jest.setTimeout(180_000);

const PARENT = 'projects/p1/locations/us-central1';
const DOCS_SHOTS = path.join(__dirname, '..', '..', 'docs', 'console');
const MANUAL = path.join(FIXTURES, 'manual-csv', 'valid', 'basic');
const WORKBOOK = path.join(FIXTURES, 'rvtools', 'BillSampleNextRvtoolsFinal.xlsx');
/** The public RVTools sample: 131 VMs, 2 of them templates (formats-rest.test.ts). */
const WORKBOOK_MACHINES = 129;

let emulator: RunningEmulator;
let browser: Browser;
let page: Page;
let shots: string;
const written: string[] = [];
let pageErrors: string[] = [];

/** Assets per source name, counted through the public REST list (every page). */
async function assetsBySource(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let pageToken = '';
  do {
    const res = await fetch(`${emulator.url}/v1alpha1/${PARENT}/assets?pageSize=500&pageToken=${encodeURIComponent(pageToken)}`);
    const body = (await res.json()) as { assets?: { sources?: string[] }[]; nextPageToken?: string };
    for (const a of body.assets ?? []) for (const s of a.sources ?? []) counts.set(s, (counts.get(s) ?? 0) + 1);
    pageToken = body.nextPageToken ?? '';
  } while (pageToken);
  return counts;
}

/** The fixture's vmInfo.csv plus one machine whose used disk exceeds its allocated disk (a WARNING). */
function vmInfoWithWarning(): Buffer {
  const text = fs.readFileSync(path.join(MANUAL, 'vmInfo.csv'), 'utf8').replace(/\r?\n$/, '');
  const header = text.split(/\r?\n/)[0].split(',');
  const values: Record<string, string> = {
    MachineId: 'vm-009',
    MachineName: 'warn-01',
    AllocatedProcessorCoreCount: '2',
    MemoryGiB: '4',
    TotalDiskAllocatedGiB: '10',
    TotalDiskUsedGiB: '20',
    OsType: 'Linux',
  };
  return Buffer.from(text + '\n' + header.map((c) => values[c] ?? '').join(',') + '\n');
}

function waitText(selector: string, pattern: RegExp, timeout?: number): Promise<string> {
  return waitTextIn(page, selector, pattern, timeout);
}

function waitAttribute(selector: string, name: string, pattern: RegExp): Promise<string> {
  return waitAttributeIn(page, selector, name, pattern);
}

async function screenshot(name: string): Promise<void> {
  const file = path.join(shots, name);
  // The viewport only: small PNGs for the docs (a page of 50 assets is long).
  await page.screenshot({ path: file });
  written.push(file);
}

/** Fills the import form: a new source, a job id, a format (or the one the files suggest). */
async function importFiles(sourceId: string, jobId: string, files: Parameters<Page['setInputFiles']>[1], format?: string): Promise<void> {
  await page.goto(`${emulator.url}/#view=import`);
  await page.locator('#imp-source option').last().waitFor({ state: 'attached' });
  // An empty emulator leaves the project and location to the user (first-use.browser.test.ts).
  if (!(await page.inputValue('#imp-project'))) {
    await page.fill('#imp-project', 'p1');
    await page.fill('#imp-location', 'us-central1');
  }
  await page.selectOption('#imp-source', '__new__');
  await page.fill('#imp-new-source', sourceId);
  await page.fill('#imp-job-id', jobId);
  await page.setInputFiles('#imp-files', files);
  if (format) await page.selectOption('#imp-format', format);
  await page.click('#imp-start');
}

// Every test that used the page checks it logged no errors (scripts, content security policy,
// failed requests): run alone, a test still checks the errors of its own steps.
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  shots = fs.mkdtempSync(path.join(os.tmpdir(), 'google-native-local-console-import-'));
  ({ browser, page, errors: pageErrors } = await openBrowserPage({ width: 1280, height: 900 }));
});

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  if (shots) {
    // The reviewed set, small PNGs next to docs/console.md: refreshed on request only
    // (UPDATE_CONSOLE_SCREENSHOTS=1), so that a test run leaves the work tree as it was.
    if (process.env.UPDATE_CONSOLE_SCREENSHOTS === '1') {
      fs.mkdirSync(DOCS_SHOTS, { recursive: true });
      for (const file of written) fs.copyFileSync(file, path.join(DOCS_SHOTS, path.basename(file)));
    }
    const where = process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? ` (copied to ${DOCS_SHOTS})` : " (in the run's temp folder: KEEP_TEST_TMP=1 keeps it)";
    console.log(`console screenshots: ${shots}${where}`);
  }
});

test('a manual CSV import from the file picker: uploads with progress, validated READY, run to COMPLETED', async () => {
  const names = ['diskInfo.csv', 'perfInfo.csv', 'tagInfo.csv'];
  await importFiles(
    'manual',
    'manual-csv',
    [
      { name: 'vmInfo.csv', mimeType: 'text/csv', buffer: vmInfoWithWarning() },
      ...names.map((n) => ({ name: n, mimeType: 'text/csv', buffer: fs.readFileSync(path.join(MANUAL, n)) })),
    ],
    'IMPORT_JOB_FORMAT_MANUAL_CSV',
  );
  await waitText('#imp-state', /^READY$/);
  expect(await page.locator('#imp-job-name').textContent()).toBe(`${PARENT}/importJobs/manual-csv`);
  // Every file went through its own data file and signed URL: each bar is full.
  expect(await page.locator('#imp-file-list .upload-state').allTextContents()).toEqual(['uploaded', 'uploaded', 'uploaded', 'uploaded']);
  for (const bar of await page.locator('#imp-file-list progress').all()) {
    expect(await bar.evaluate((el) => [(el as unknown as { value: number }).value, (el as unknown as { max: number }).max])).toEqual([
      expect.any(Number),
      expect.any(Number),
    ]);
    const [value, max] = await bar.evaluate((el) => [(el as unknown as { value: number }).value, (el as unknown as { max: number }).max]);
    expect(value).toBe(max);
  }
  await waitText('#imp-report-files', /vmInfo\.csv/);
  expect(await page.locator('#imp-report-files tr[data-file="vmInfo.csv"]').textContent()).toMatch(/^vmInfo\.csv11 warning/);
  await screenshot('import-validated.png');

  await page.click('#imp-run');
  await waitText('#imp-state', /^COMPLETED$/);
  await waitText('#imp-frames', /frames reported · \d+ rows read/);
  // The header's counts follow the import without a Refresh: the job and its assets.
  const imported = [...(await assetsBySource()).values()].reduce((a, b) => a + b, 0);
  expect(imported).toBeGreaterThan(0);
  await waitText('#summary', new RegExp(`· 1 import job · ${imported} assets$`));
  await screenshot('import-completed.png');
});

test("the row error opened: file, row, machine, details and the row's cells, the bad one marked", async () => {
  await page.goto(`${emulator.url}/#${new URLSearchParams({ job: `${PARENT}/importJobs/manual-csv`, report: 'validation' })}`);
  await waitText('#row-range', /of 1\b/);
  await page.locator('#row-errors tbody tr.row-error').first().click();
  await waitText('#row-detail-title', /^vmInfo\.csv · row 5$/);
  expect(await page.locator('#row-detail .row-detail-vm-name').textContent()).toBe('warn-01');
  expect(await page.locator('#row-detail .row-detail-severity').textContent()).toBe('WARNING');
  expect(await page.locator('#row-detail .row-detail-details').textContent()).toMatch(/TotalDiskUsedGiB/);
  // The row's cells, read back from the uploaded vmInfo.csv: the cell the error names is marked.
  await page.locator('#row-detail table.row-cells').waitFor();
  expect(await page.locator('#row-detail tr[data-column="MachineName"] .cell-value').textContent()).toBe('warn-01');
  const marked = await page.locator('#row-detail tr.bad-cell').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-column')));
  expect(marked).toContain('TotalDiskUsedGiB');
  expect(marked).not.toContain('MachineName');
  expect(await page.locator('#row-detail tr[data-column="TotalDiskUsedGiB"] .cell-value').textContent()).toBe('20');
  await page.locator('#row-detail tr.bad-cell').last().scrollIntoViewIfNeeded();
  await screenshot('row-error.png');
});

test('an RVTools workbook from the file picker: its format suggested, validated, run to COMPLETED', async () => {
  await importFiles('vcenter', 'rvtools', WORKBOOK);
  expect(await page.locator('#imp-format').inputValue()).toBe('IMPORT_JOB_FORMAT_RVTOOLS_XLSX');
  await waitText('#imp-state', /^READY$/, 60_000);
  await page.click('#imp-run');
  await waitText('#imp-state', /^COMPLETED$/, 60_000);
  await waitText('#imp-frames', /frames reported/);
  expect(await page.locator('#imp-open-inventory').getAttribute('href')).toContain('view=inventory');
  // Back on the overview, its job list has the two jobs imported in the other view.
  await page.click('header.top nav a[data-view="overview"]');
  await waitText('#summary', /· 2 import jobs · /);
  await waitText('#jobs tbody', /manual-csv[\s\S]*rvtools|rvtools[\s\S]*manual-csv/);
});

test('the inventory: server pages, filtered by name and OS family, sorted by cores; an asset opened', async () => {
  await page.goto(`${emulator.url}/#${new URLSearchParams({ view: 'inventory', parent: PARENT })}`);
  await waitText('#inv-range', /^Page 1 · 50 assets · more on the next pages$/);
  expect(await page.locator('#inventory tbody tr').count()).toBe(50);
  await page.click('#inv-next');
  await waitText('#inv-range', /^Page 2 · 50 assets/);
  await page.click('#inv-next');
  const bySource = await assetsBySource();
  expect(bySource.get(`${PARENT}/sources/vcenter`)).toBe(WORKBOOK_MACHINES);
  const total = [...bySource.values()].reduce((a, b) => a + b, 0);
  await waitText('#inv-range', new RegExp(`^Page 3 · ${total - 100} assets$`));

  await page.fill('#inv-name', '-01');
  await page.press('#inv-name', 'Enter');
  await waitText('#inv-range', /^Page 1 · \d+ assets?$/);
  const named = await page.locator('#inventory .asset-link').allTextContents();
  expect(named.length).toBeGreaterThan(0);
  for (const n of named) expect(n).toContain('-01');
  expect(named).toEqual(expect.arrayContaining(['web-01', 'db-01']));

  await page.fill('#inv-name', '');
  await page.selectOption('#inv-os', 'OS_FAMILY_WINDOWS');
  await page.selectOption('#inv-order', 'virtualMachineDetails.coreCount desc');
  await page.waitForURL(/coreCount/);
  // The hash changes before the list is fetched: wait for the page that answers this filter and
  // order (the table says which query its rows answer), not for whatever page is on screen.
  await waitAttribute('#inventory', 'data-query', /OS_FAMILY_WINDOWS.*\nvirtualMachineDetails\.coreCount desc$/s);
  await waitText('#inv-range', /^Page 1 · \d+ assets?/);
  expect(new Set(await page.locator('#inventory td.os').allTextContents())).toEqual(new Set(['Windows']));
  const cores = (await page.locator('#inventory td.cores').allTextContents()).map((c) => Number(c.replace(/,/g, '') || 0));
  expect(cores).toEqual([...cores].sort((a, b) => b - a));
  await screenshot('inventory.png');

  await page.goto(`${emulator.url}/#${new URLSearchParams({ view: 'inventory', parent: PARENT, name: 'web-01' })}`);
  await waitText('#inv-range', /^Page 1 · 1 asset$/);
  await page.getByRole('link', { name: 'web-01', exact: true }).click();
  await waitText('#asset-title', /^Asset web-01$/);
  const body = (await page.locator('#asset-body').textContent()) ?? '';
  expect(body).toContain('Cores4');
  expect(body).toContain('16,384 MB');
  expect(body).toContain('10.0.0.11');
  expect(await page.locator('#asset-disks tbody tr').count()).toBeGreaterThan(0);
  // The performance samples as a chart: one line per series, one dot per day.
  expect(await page.locator('#asset-body svg.lines path.series').count()).toBe(2);
  expect(await page.locator('#asset-body figcaption').textContent()).toMatch(/Daily average utilisation \(\d+ days?\)/);
  await screenshot('asset.png');
});

test('the summary: totals and charts from assets:aggregateValues, counts by source', async () => {
  await page.goto(`${emulator.url}/#${new URLSearchParams({ view: 'summary', parent: PARENT })}`);
  const bySource = await assetsBySource();
  const total = [...bySource.values()].reduce((a, b) => a + b, 0);
  await waitText('#summary-totals', new RegExp(`^${total} assets · `));
  await page.locator('#chart-sources').waitFor();
  const bars = async (id: string) =>
    page.locator(`#${id} g.bar`).evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]));
  expect(await bars('chart-sources')).toEqual(
    expect.arrayContaining([
      ['manual', bySource.get(`${PARENT}/sources/manual`)],
      ['vcenter', WORKBOOK_MACHINES],
    ]),
  );
  const sum = (pairs: unknown[][]) => pairs.reduce((n, p) => n + (p[1] as number), 0);
  expect(sum(await bars('chart-os'))).toBe(total);
  expect(sum(await bars('chart-cores'))).toBe(total);
  expect(sum(await bars('chart-memory'))).toBe(total);
  expect((await bars('chart-os')).map((p) => p[0])).toEqual(expect.arrayContaining(['Linux', 'Windows']));
  /** The total disk capacity of every asset that has one, in bytes, read through the public REST list. */
  async function diskCapacities(): Promise<number[]> {
    const out: number[] = [];
    let pageToken = '';
    do {
      const res = await fetch(`${emulator.url}/v1alpha1/${PARENT}/assets?pageSize=500&pageToken=${encodeURIComponent(pageToken)}`);
      const body = (await res.json()) as { assets?: { virtualMachineDetails?: { vmDisks?: { hddTotalCapacityBytes?: string } } }[]; nextPageToken?: string };
      for (const a of body.assets ?? []) {
        const bytes = a.virtualMachineDetails?.vmDisks?.hddTotalCapacityBytes;
        if (bytes !== undefined) out.push(Number(bytes));
      }
      pageToken = body.nextPageToken ?? '';
    } while (pageToken);
    return out;
  }
  // Disk per machine: the assets' total disk capacity (an int64 string on the wire) in GiB
  // buckets, counted here from the assets list; a machine without a capacity is in no bucket.
  const GiB = 1024 ** 3;
  const bounds = [32, 64, 128, 256, 512, 1024, 2048];
  const counts = new Array<number>(bounds.length + 1).fill(0);
  const capacities = await diskCapacities();
  for (const bytes of capacities) counts[bounds.filter((b) => bytes >= b * GiB).length]++;
  const labels = ['< 32 GiB', '32–64 GiB', '64–128 GiB', '128–256 GiB', '256–512 GiB', '512–1,024 GiB', '1,024–2,048 GiB', '≥ 2,048 GiB'];
  expect(await bars('chart-disk')).toEqual(labels.map((label, i) => [label, counts[i]]));
  expect(counts.filter((n) => n > 0).length).toBeGreaterThan(1);
  expect(capacities.length).toBeGreaterThan(total / 2);
  await screenshot('summary.png');
});
