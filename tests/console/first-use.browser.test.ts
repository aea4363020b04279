/**
 * The console as a new user meets it, in Debian's Chromium: an empty emulator (empty forms, an
 * empty state, no counts), then one holding data in a project that is not "p1" (the views open
 * on it), a job that never ran sharing its source with one that ran (it produced nothing), an
 * asset's labels, the OS family in words, the sort options named for what they sort by, the
 * performance chart's axis labels inside the chart; the header at 1280 and 1024 px, one line per item.
 */
import type { Browser, Page } from 'playwright-core';
import type { RunningEmulator } from '../../backend-emulator';
import { consoleInBrowser, waitText } from '../support/browser';
import { csv, inlinePayload, VM_HEADER, vmRow } from '../support/manual-csv';
import { operationDone, restApi } from '../support/rest-api';

jest.setTimeout(180_000);

const PARENT = 'projects/acme/locations/europe-west1';
const SOURCE = `${PARENT}/sources/crm`;

const session = consoleInBrowser();
let emulator: RunningEmulator;
let browser: Browser;
let page: Page;

const api = restApi(() => emulator.url);

/** A fresh tab: nothing kept in sessionStorage (the last project used) from another test. */
async function freshPage(): Promise<Page> {
  await page.close();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (err) => session.errors.push(`pageerror: ${err.message}`));
  return page;
}

beforeAll(() => {
  ({ emulator, browser, page } = session);
});

describe('an empty emulator', () => {
  it('the inventory and the summary: empty project and location, an empty state, no counts', async () => {
    await freshPage();
    await page.goto(`${emulator.url}/#view=inventory`);
    await waitText(page, '#inventory tbody', /^The emulator holds no assets or import jobs yet: import an inventory \(Import\)/);
    expect([await page.inputValue('#inv-project'), await page.inputValue('#inv-location'), await page.locator('#inv-range').textContent()]).toEqual([
      '',
      '',
      '',
    ]);
    await page.click('header.top nav a[data-view="summary"]');
    await waitText(page, '#summary-charts', /^The emulator holds no assets or import jobs yet/);
    expect([await page.inputValue('#sum-project'), await page.inputValue('#sum-location'), await page.locator('#summary-totals').textContent()]).toEqual([
      '',
      '',
      '',
    ]);
  });

  it('the import page: no made-up project, only a new source to choose', async () => {
    await freshPage();
    await page.goto(`${emulator.url}/#view=import`);
    await page.locator('#imp-source option').last().waitFor({ state: 'attached' });
    expect(await page.locator('#imp-source option').allTextContents()).toEqual(['New source…']);
    expect([await page.inputValue('#imp-project'), await page.inputValue('#imp-location')]).toEqual(['', '']);
  });
});

describe('an emulator holding data in projects/acme/locations/europe-west1', () => {
  beforeAll(async () => {
    await api('POST', '/emulator/v1/seed', { sources: [{ name: SOURCE }] });
    const files = {
      'vmInfo.csv': csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { OsType: 'Windows', OsName: 'Windows Server', OsVersion: '2019' })),
      'tagInfo.csv': csv('MachineId,Key,Value', 'm-1,env,prod', 'm-1,team,web'),
    };
    await api('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=ran`, { assetSource: SOURCE, inlinePayload: inlinePayload(files) });
    await operationDone(api, await api('POST', `/v1alpha1/${PARENT}/importJobs/ran:validate`, {}));
    await operationDone(api, await api('POST', `/v1alpha1/${PARENT}/importJobs/ran:run`, {}));
    // The same source, validated but never run.
    await api('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=never-ran`, { assetSource: SOURCE, inlinePayload: inlinePayload(files) });
    await operationDone(api, await api('POST', `/v1alpha1/${PARENT}/importJobs/never-ran:validate`, {}));
  });

  it('the inventory opens on that project and location; the OS family in words; the sort options say what they sort by', async () => {
    await freshPage();
    await page.goto(`${emulator.url}/#view=inventory`);
    await page.waitForURL(/parent=projects%2Facme%2Flocations%2Feurope-west1/);
    await waitText(page, '#inv-range', /^Page 1 · 2 assets$/);
    expect([await page.inputValue('#inv-project'), await page.inputValue('#inv-location')]).toEqual(['acme', 'europe-west1']);
    expect((await page.locator('#inventory td.os').allTextContents()).sort()).toEqual(['Linux', 'Windows']);
    expect(await page.locator('#inv-os option').allTextContents()).toEqual(['Any OS family', 'Windows', 'Linux', 'Unix', 'Unknown']);
    expect(await page.locator('#inv-order option').allTextContents()).toEqual([
      'Asset id',
      'VM name',
      'Cores, most first',
      'Memory, most first',
      'Newest first',
    ]);
  });

  it('the summary opens on it too, also from the header link after another view', async () => {
    await freshPage();
    await page.goto(`${emulator.url}/#view=summary`);
    await waitText(page, '#summary-totals', /^2 assets · 4 cores · 16 GiB of memory$/);
    expect(await page.locator('#chart-os g.bar').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-label')))).toEqual(['Linux', 'Windows']);
    await page.click('header.top nav a[data-view="overview"]');
    await page.click('header.top nav a[data-view="summary"]');
    await page.waitForURL(/view=summary&parent=projects%2Facme/);
    await waitText(page, '#summary-totals', /^2 assets · /);
    await page.locator('#chart-os').waitFor();
  });

  it('the import page starts on that project and lists its source', async () => {
    await freshPage();
    await page.goto(`${emulator.url}/#view=import`);
    await waitText(page, '#imp-source', /crm/);
    expect([await page.inputValue('#imp-project'), await page.inputValue('#imp-location')]).toEqual(['acme', 'europe-west1']);
  });

  it('a job that never ran lists no assets, though its source has the other job’s', async () => {
    await page.goto(`${emulator.url}/#${new URLSearchParams({ job: `${PARENT}/importJobs/never-ran` })}`);
    await waitText(page, '#job-title', /never-ran/);
    await waitText(page, '#assets tbody', /^This import has not run: it produced no assets\.$/);
    expect(await page.locator('#assets tbody tr.asset').count()).toBe(0);
    await page.goto(`${emulator.url}/#${new URLSearchParams({ job: `${PARENT}/importJobs/ran` })}`);
    await waitText(page, '#assets tbody', /web-1/);
    expect((await page.locator('#assets .asset-title').allTextContents()).sort()).toEqual(['db-1', 'web-1']);
  });

  it("an asset's labels; its performance chart's axis labels inside the chart", async () => {
    await page.goto(`${emulator.url}/#${new URLSearchParams({ view: 'inventory', parent: PARENT, name: 'web-1' })}`);
    await waitText(page, '#inv-range', /^Page 1 · 1 asset$/);
    await page.getByRole('link', { name: 'web-1', exact: true }).click();
    await waitText(page, '#asset-title', /^Asset web-1$/);
    await page.locator('#asset-labels').waitFor();
    expect(await page.locator('#asset-labels dt').allTextContents()).toEqual(['env', 'team']);
    expect(await page.locator('#asset-labels dd').allTextContents()).toEqual(['prod', 'web']);
    expect(await page.locator('#asset-body').textContent()).toContain('OSLinux · Ubuntu · 22.04');
    // Every axis label's box within the svg's own box (a clipped "100%" started left of it).
    const boxes = await page.locator('#asset-body svg.lines').evaluate((svg) => {
      const frame = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text.axis')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, inside: r.left >= frame.left && r.top >= frame.top && r.right <= frame.right && r.bottom <= frame.bottom };
      });
    });
    expect(boxes).toEqual([
      { text: '0%', inside: true },
      { text: '50%', inside: true },
      { text: '100%', inside: true },
    ]);
  });

  it('the header at 1280 and 1024 px: each item on one line, the page never wider than the window', async () => {
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${emulator.url}/#view=reports`);
      await waitText(page, '#summary', /assets?$/);
      // Lines of text per header item: its text's boxes, top to bottom, a new line where a box
      // starts below the line so far (the counts once squeezed into a six-line column and pushed
      // Refresh out of the window at 1280 px).
      const lines = await page.locator('header.top h1, header.top nav, #summary, header.top label.token').evaluateAll((items) =>
        items.map((item) => {
          const range = item.ownerDocument.createRange();
          range.selectNodeContents(item);
          const boxes = [...range.getClientRects()].filter((box) => box.width > 0).sort((a, b) => a.top - b.top);
          let count = 0;
          let lineBottom = -Infinity;
          for (const box of boxes) {
            if (box.top >= lineBottom) count += 1;
            lineBottom = box.top >= lineBottom ? box.bottom : Math.max(lineBottom, box.bottom);
          }
          return count;
        }),
      );
      expect({ width, lines }).toEqual({ width, lines: [1, 1, 1, 1] });
      const widths = await page.locator('html').evaluate((html) => [html.scrollWidth, html.clientWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
