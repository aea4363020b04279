/**
 * Debian's Chromium driven by playwright-core, for the console's browser tests: one launch, one
 * page that records its errors, and waits that poll from Node (the test code has no DOM types, and
 * the console's content security policy forbids the string evaluation `waitForFunction` would need).
 */
import * as fs from 'fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserPage {
  browser: Browser;
  page: Page;
  /** Script errors, console errors and failed requests the page reported. */
  errors: string[];
}

/** Launches Chromium with one page; fails (never skips) when Chromium is not installed. */
export async function openBrowserPage(viewport: { width: number; height: number }): Promise<BrowserPage> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the console's browser tests drive Debian's chromium through playwright-core. ` +
        'Install it with `apt-get update && apt-get install -y chromium` (CI installs it from .ci/apt-packages).',
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  return { browser, page, errors };
}

/** A console browser test file's emulator and browser (see consoleInBrowser). */
export interface ConsoleInBrowser extends BrowserPage {
  emulator: RunningEmulator;
}

/**
 * The set-up every console browser test file shares, registered as its hooks: before all, an
 * in-memory emulator on a free port and Chromium with one page (openBrowserPage: it fails, never
 * skips, without Chromium); after each test, the page logged no errors (a test run alone still
 * checks its own steps); after all, both closed. The fields are set by the beforeAll: read them
 * in hooks and tests.
 */
export function consoleInBrowser(viewport = { width: 1280, height: 900 }): ConsoleInBrowser {
  const session = { errors: [] as string[] } as ConsoleInBrowser;
  beforeAll(async () => {
    session.emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
    Object.assign(session, await openBrowserPage(viewport));
  }, 120_000);
  afterEach(() => {
    expect(session.errors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.emulator?.close();
  });
  return session;
}

async function waitFor(read: () => Promise<string | null>, pattern: RegExp, what: string, timeout: number): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const last = (await read()) ?? '';
    if (pattern.test(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what} never matched ${pattern}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the first element's text matches, and returns it. */
export function waitText(page: Page, selector: string, pattern: RegExp, timeout = 30_000): Promise<string> {
  return waitFor(() => page.locator(selector).first().textContent({ timeout }), pattern, `${selector} text`, timeout);
}

/** Waits until the first element's attribute matches, and returns it. */
export function waitAttribute(page: Page, selector: string, name: string, pattern: RegExp, timeout = 30_000): Promise<string> {
  return waitFor(() => page.locator(selector).first().getAttribute(name, { timeout }), pattern, `${selector}[${name}]`, timeout);
}
