/**
 * The console's groups, preference sets and reports views in Debian's Chromium, against a
 * listening emulator holding five hand-made machines (tests/support/mc-inventory.ts) imported
 * through the REST API, a preference set that is the location's default, a group of three of
 * them, and a report of that group. Asserts what the pages show (counts, names, words for enum
 * values, chart values, findings); the figures are worked out by hand from the machines' table.
 * Screenshots go to a temp folder and are copied to docs/console/ when UPDATE_CONSOLE_SCREENSHOTS=1.
 *
 * Needs /usr/bin/chromium, as every browser test of the console: without it the test fails saying
 * to install it (tests/support/browser.ts), it does not skip.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Page } from 'playwright-core';
import type { RunningEmulator } from '../../backend-emulator';
import { consoleInBrowser, waitAttribute, waitText } from '../support/browser';
import { seedPlanningInventory } from '../support/mc-inventory';
import { operationDone, restApi } from '../support/rest-api';

jest.setTimeout(180_000);

const PARENT = 'projects/planning/locations/us-central1';
const WEB = `${PARENT}/groups/web`;
const MODERATE = `${PARENT}/preferenceSets/moderate`;
const REPORT = `${PARENT}/reportConfigs/tco/reports/first`;
const DOCS_SHOTS = path.join(__dirname, '..', '..', 'docs', 'console');

const session = consoleInBrowser();
let emulator: RunningEmulator;
let page: Page;
let shots: string;
const written: string[] = [];

const api = restApi(() => emulator.url);

async function screenshot(name: string): Promise<void> {
  const file = path.join(shots, name);
  await page.screenshot({ path: file, fullPage: true });
  written.push(file);
}

/** The [label, value] of every bar of a chart (the data-* attributes charts.js writes). */
async function bars(chart: string): Promise<Array<[string | null, string | null]>> {
  const g = page.locator(`#${chart} g.bar`);
  const out: Array<[string | null, string | null]> = [];
  for (let i = 0; i < (await g.count()); i++) out.push([await g.nth(i).getAttribute('data-label'), await g.nth(i).getAttribute('data-value')]);
  return out;
}

beforeAll(async () => {
  ({ emulator, page } = session);
  shots = fs.mkdtempSync(path.join(os.tmpdir(), 'google-native-local-console-planning-'));
  await seedPlanningInventory(api, PARENT);
  await api('POST', `/v1alpha1/${PARENT}/preferenceSets?preferenceSetId=plain`, { displayName: 'Plain' });
  await api('POST', `/v1alpha1/${PARENT}/groups?groupId=empty`, { displayName: 'Empty' });
  await api('POST', `/v1alpha1/${PARENT}/reportConfigs?reportConfigId=tco`, {
    displayName: 'TCO',
    groupPreferencesetAssignments: [{ group: WEB, preferenceSet: MODERATE }],
  });
  await operationDone(api, await api('POST', `/v1alpha1/${PARENT}/reportConfigs/tco/reports?reportId=first`, { displayName: 'First' }));
}, 120_000);

afterAll(() => {
  if (shots) {
    if (process.env.UPDATE_CONSOLE_SCREENSHOTS === '1') for (const file of written) fs.copyFileSync(file, path.join(DOCS_SHOTS, path.basename(file)));
    console.log(`console screenshots: ${shots}`);
  }
});

test('groups: the list with member counts, then a group with its assets', async () => {
  await page.goto(`${emulator.url}/#view=groups&parent=${PARENT}`);
  await waitText(page, '#groups tr[data-name$="/groups/web"] .members', /^3$/);
  await waitText(page, '#groups tr[data-name$="/groups/empty"] .members', /^0$/);
  expect(await page.locator('#groups tr.group .group-link').allTextContents()).toEqual(['Empty', 'Web tier']);
  expect(await page.locator('#grp-range').textContent()).toBe('Page 1 · 2 groups');
  expect(await page.locator('header.top nav a[aria-current="page"]').textContent()).toBe('Groups');
  await page.getByRole('link', { name: 'Web tier', exact: true }).click();
  await waitText(page, '#group-count', /^3 assets$/);
  expect(await page.locator('#group-title').textContent()).toBe('Group Web tier');
  expect(await page.locator('#group-assets tr.asset .asset-link').allTextContents()).toEqual(['web-1', 'web-2', 'tool-1']);
  expect(await page.locator('#group-assets tr.asset td:nth-child(3)').allTextContents()).toEqual(['2', '4', '1']);
  await screenshot('group.png');
});

test('preference sets: the default marked, enum values in words; one set with its virtual-machine preferences', async () => {
  await page.goto(`${emulator.url}/#view=preferenceSets&parent=${PARENT}`);
  await waitText(page, '#preference-sets tr[data-name$="/moderate"]', /Moderate/);
  const row = page.locator('#preference-sets tr[data-name$="/moderate"] td');
  expect(await row.allTextContents()).toEqual([
    'Moderatedefaultmoderate',
    'Compute engine',
    'Moderate',
    'One year',
    'europe-west1',
    expect.stringMatching(/UTC$/),
  ]);
  expect(await page.locator('#preference-sets .badge.default').count()).toBe(1);
  await page.getByRole('link', { name: 'Moderate', exact: true }).click();
  await waitText(page, '#vm-preferences', /Target product/);
  const terms = await page.locator('#vm-preferences dt').allTextContents();
  const values = await page.locator('#vm-preferences dd').allTextContents();
  expect(terms.map((t, i) => [t, values[i]])).toEqual([
    ['Target product', 'Compute engine'],
    ['Commitment plan', 'One year'],
    ['Sizing optimization strategy', 'Moderate'],
    ['Compute engine preferences › Machine preferences › Allowed machine series', 'N2, E2'],
  ]);
  await screenshot('preference-set.png');
});

test('reports: configs with their reports; a report with its totals, charts and findings, no costs', async () => {
  await page.goto(`${emulator.url}/#view=reports&parent=${PARENT}`);
  await waitText(page, `.report-config[data-name$="/reportConfigs/tco"] .assignments`, /web sized with moderate/);
  expect(await page.locator('.report-config tr.report td.state').allTextContents()).toEqual(['SUCCEEDED']);
  await page.getByRole('link', { name: 'First', exact: true }).click();
  // m-1, m-2, m-5: 2+4+1 cores, 8+16+2 GiB of memory, 100+200+20 GiB of disk (40+50+10 used).
  await waitText(page, '#report-totals', /^3 assets · 7 cores · 26 GiB of memory · 320 GiB of storage$/);
  expect(await page.locator('#report-state').textContent()).toBe('SUCCEEDED');
  await waitAttribute(page, '#report-chart-os g.bar', 'data-label', /Linux/);
  expect(await bars('report-chart-os')).toEqual([['Linux', '3']]);
  expect((await bars('report-chart-cores')).slice(0, 4)).toEqual([
    ['< 2', '1'],
    ['2–4', '1'],
    ['4–8', '1'],
    ['8–16', '0'],
  ]);
  expect(await bars('report-chart-storage-use')).toEqual([
    ['Used', '100'],
    ['Free', '220'],
  ]);
  expect(await page.locator('#report-chart-storage-use .bar-value').allTextContents()).toEqual(['100 GiB (31%)', '220 GiB (69%)']);
  expect(await page.locator('#report-findings tr.finding td').allTextContents()).toEqual(['Web tier', 'Moderate', 'europe-west1', '3 of 3 assets', 'N2 3']);
  expect(await page.locator('#report-body').textContent()).toContain('Cost fields are absent');
  expect(page.url()).toContain(`name=${encodeURIComponent(REPORT)}`);
  await screenshot('report.png');
});

test('an empty emulator location: each list says it holds nothing', async () => {
  await page.goto(`${emulator.url}/#view=reports&parent=projects/planning/locations/europe-west1`);
  await waitText(page, '#rep-list', /^No report configs in this location\.$/);
  await page.goto(`${emulator.url}/#view=groups&parent=projects/planning/locations/europe-west1`);
  await waitText(page, '#groups tbody', /^No groups in this location\.$/);
});
