import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { REPO_ROOT } from './portal';

// Debian's Chromium driven by playwright-core: one browser per test worker (a spec file that
// needs flags of its own, e.g. a fake camera, starts its own), a fresh context (cookies, storage)
// per test, and a screenshot in .tmp/ when a test fails.

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
/** How long a single wait for something the user should see may take. */
export const UI_TIMEOUT_MS = 10_000;
export const SCREENSHOT_DIR = join(REPO_ROOT, '.tmp');

/** Debian's Chromium with the usual flags and any `extraArgs` (e.g. a fake camera) after them. */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Chromium flags that give it a camera showing `y4mFile` (looped) and answer camera prompts
 * itself; the context still needs the `camera` permission.
 */
export function fakeCameraArgs(y4mFile: string): string[] {
  return ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${y4mFile}`];
}

/**
 * The browser the spec files of this test worker share (the worker keeps its modules between
 * files): starting Chromium took about a second of every file. Contexts keep the files apart; a
 * browser that crashed or was closed is started afresh.
 */
let workerBrowser: Promise<Browser> | undefined;
async function sharedBrowser(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerBrowser = launchBrowser();
  return workerBrowser;
}

export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', ...options });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(UI_TIMEOUT_MS);
  return context;
}

export interface BrowserSession {
  readonly browser: Browser;
  /** The test's own context and page, fresh for every test. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** Another fresh context (another browser profile) in the same test; closed after it. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A page kept for the whole spec file under `key`, opened by `open` the first time (e.g. one
   * signed-in login in one language). The catalogue walks visit one screen per test: reusing the
   * page spares a context, a login page and a full app load per screen. Closed after the file;
   * a failing test that used it gets its screenshot too.
   */
  filePage(key: string, open: (page: Page) => Promise<void>, options?: BrowserContextOptions): Promise<Page>;
}

function safeName(text: string): string {
  return text
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

/**
 * Registers the hooks of a spec file: the browser for the file, a fresh context and page per
 * test (unless `pagePerTest` is false), and on failure a screenshot of every open page to .tmp/e2e-<spec>-<test>[-n].png.
 */
export function useBrowser(
  contextOptions: BrowserContextOptions = {},
  {
    pagePerTest = true,
    launchArgs,
  }: {
    pagePerTest?: boolean;
    /** More Chromium flags, asked for when the browser starts (after the spec's earlier beforeAll hooks, e.g. its portal). */
    launchArgs?: () => readonly string[] | Promise<readonly string[]>;
  } = {},
): BrowserSession {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let extra: BrowserContext[] = [];
  const filePages = new Map<string, Promise<Page>>();
  /** The file pages the current test used (screenshotted when it fails). */
  let usedFilePages: Page[] = [];

  beforeAll(async () => {
    browser = launchArgs ? await launchBrowser(await launchArgs()) : await sharedBrowser();
  });
  afterAll(async () => {
    if (launchArgs) await browser?.close();
    // The shared browser stays for the worker's next file, without this file's contexts (its
    // file pages, and any the spec opened on the browser itself).
    else await Promise.all((browser?.contexts() ?? []).map((open) => open.close().catch(() => undefined)));
  });
  beforeEach(async () => {
    // Tests that use only file pages (pagePerTest: false) skip the fresh context.
    if (!pagePerTest) return;
    context = await newContext(browser!, contextOptions);
    page = await context.newPage();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const spec = basename(task.file?.name ?? 'spec').replace(/\.spec\.ts$/, '');
      const pages = [...[context, ...extra].flatMap((c) => c?.pages() ?? []), ...usedFilePages];
      let n = 0;
      for (const open of pages) {
        const file = join(SCREENSHOT_DIR, `e2e-${safeName(`${spec}-${task.name}`)}${n ? `-${n}` : ''}.png`);
        n += 1;
        await open
          .screenshot({ path: file, fullPage: true, timeout: 5000 })
          .then(() => console.error(`Screenshot of ${open.url()}: ${file}`))
          .catch(() => undefined);
      }
    }
    await Promise.all([context, ...extra].map((c) => c?.close().catch(() => undefined)));
    context = undefined;
    page = undefined;
    extra = [];
    usedFilePages = [];
  });

  return {
    get browser() {
      if (!browser) throw new Error('The browser starts in beforeAll');
      return browser;
    },
    get context() {
      if (!context) throw new Error('The context exists only inside a test');
      return context;
    },
    get page() {
      if (!page) throw new Error('The page exists only inside a test');
      return page;
    },
    async newContext(options = {}) {
      const created = await newContext(browser!, { ...contextOptions, ...options });
      extra.push(created);
      return created;
    },
    async filePage(key, open, options = {}) {
      let opening = filePages.get(key);
      if (!opening) {
        opening = (async () => {
          const created = await (await newContext(browser!, { ...contextOptions, ...options })).newPage();
          await open(created);
          return created;
        })();
        filePages.set(key, opening);
        // A page that failed to open is opened afresh by the next test that asks.
        opening.catch(() => filePages.delete(key));
      }
      const shared = await opening;
      usedFilePages.push(shared);
      return shared;
    },
  };
}

export interface LoginLabels {
  account: string;
  password: string;
  submit: string;
}

export const ENGLISH_LOGIN_LABELS: LoginLabels = { account: 'Account ID', password: 'Password', submit: 'Log in' };

/**
 * The text field a user finds by its label. By accessible name, which is the label without the
 * required-field asterisk MUI adds (aria-hidden): getByLabel(exact) would need "Account ID *".
 */
export function field(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('textbox', { name: label, exact: true });
}

/** Logs in as a user would: the login page, the two labelled fields, the button. */
export async function loginAs(page: Page, url: string, account: string, password: string, labels: LoginLabels = ENGLISH_LOGIN_LABELS) {
  // Stays on a login page already open (e.g. /login?lang=ja); otherwise opens it.
  if (!page.url().startsWith(`${url}/login`)) await page.goto(`${url}/login`);
  await field(page, labels.account).fill(account);
  await field(page, labels.password).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

/** Logs in and waits until the app has left /login for `landing`. */
export async function loginAndLand(page: Page, url: string, account: string, password: string, landing = '/home') {
  await loginAs(page, url, account, password);
  await waitForPath(page, landing);
}

/** The path of the page's address, e.g. "/home". */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the address bar shows `path` (and optionally a query), with a readable failure. */
export async function waitForPath(page: Page, path: string, timeout = UI_TIMEOUT_MS) {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout });
  } catch {
    throw new Error(`Expected to be on ${path} within ${timeout} ms, but the address is ${page.url()}`);
  }
}

/** Waits until the user can see `locator`, with a readable failure. */
export async function expectVisible(locator: Locator, what = String(locator), timeout = UI_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`Expected to see ${what} within ${timeout} ms`);
  }
}

/** Waits until `locator` is gone (hidden or detached). */
export async function expectHidden(locator: Locator, what = String(locator), timeout = UI_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'hidden', timeout });
  } catch {
    throw new Error(`Expected ${what} to disappear within ${timeout} ms`);
  }
}
