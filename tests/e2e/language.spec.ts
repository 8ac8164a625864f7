import { describe, expect, test } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { expectVisible, field, loginAs, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { firstTranslated, text, translated, type Lang } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

const portal = usePortal();
const session = useBrowser();

/** Header texts that show on every signed-in page, in the order a test tries them. */
const HEADER_KEYS = ['header.logout', 'header.account', 'header.language', 'menu.accountHome'];
/** Menu entries the demo exhibitor sees on /orderForms. */
const MENU_KEYS = ['menu.mandatoryForms', 'menu.eventSupport', 'menu.optionalManuals', 'menu.eventPlatform', 'screens.dashboard', 'screens.inviteClients'];

const storedLanguage = (page: Page) => page.evaluate(() => localStorage.getItem('oem_language'));
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** Records every API request the page makes from now on. */
function recordApiCalls(page: Page, { afterNavigation = false } = {}): Request[] {
  const calls: Request[] = [];
  // With afterNavigation, only the new page's calls count: one the old page sent just before
  // the switch (a revalidation when the window got focus, say) rightly still says the old language.
  let recording = !afterNavigation;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) recording = true;
  });
  page.on('request', (request) => {
    if (recording && new URL(request.url()).pathname.startsWith('/oga/')) calls.push(request);
  });
  return calls;
}

function expectLanguageHeader(calls: Request[], language: Lang) {
  expect(calls.length, 'API calls seen').toBeGreaterThan(0);
  for (const call of calls) expect(call.headers().language, `header "language" of ${call.method()} ${call.url()}`).toBe(language);
}

/** Logs in on /login?lang=<language> with that language's field labels. */
async function loginIn(page: Page, language: Lang, account = 'demo') {
  await page.goto(`${portal.url}/login?lang=${language}`);
  await loginAs(page, portal.url, account, DEMO_PASSWORD, {
    account: text(language, 'auth.account'),
    password: text(language, 'auth.password'),
    submit: text(language, 'auth.login'),
  });
  await waitForPath(page, '/home');
}

/** Checks that the signed-in header and the menu read in `language` (texts from locales/). */
async function expectHeaderAndMenuIn(page: Page, language: Lang) {
  const header = firstTranslated(language, HEADER_KEYS);
  await expectVisible(
    page
      .getByRole('banner')
      .getByText(header.text, { exact: true })
      .or(page.getByRole('banner').getByRole('button', { name: header.text, exact: true })),
    `the header's "${header.key}" in ${language}: "${header.text}"`,
  );
  if (pathOfPage(page) !== '/orderForms') await page.goto(`${portal.url}/orderForms`);
  const nav = page.getByRole('navigation', { name: text(language, 'menu.label') });
  const entry = firstTranslated(language, MENU_KEYS);
  await expectVisible(nav.getByRole('link', { name: entry.text, exact: true }), `the menu entry "${entry.key}" in ${language}: "${entry.text}"`);
}

const pathOfPage = (page: Page) => new URL(page.url()).pathname;

describe('languages', () => {
  test('L2: /login?lang=ja saves ja (oem_language) and shows the Japanese label of the account field', async () => {
    const { page } = session;
    await page.goto(`${portal.url}/login?lang=ja`);
    await expectVisible(page.getByRole('button', { name: text('ja', 'auth.login'), exact: true }), 'the login form');
    expect(await storedLanguage(page)).toBe('ja');
    expect(await htmlLang(page)).toBe('ja');
    const label = translated('ja', 'auth.account');
    await expectVisible(field(page, label), `the account field labelled "${label}"`);
    expect(await field(page, text('en', 'auth.account')).count(), 'the English label is gone').toBe(0);
  });

  test('L4: with ja chosen every /oga call carries the header `language: ja`, and the server answers in Japanese', async () => {
    const { page } = session;
    const calls = recordApiCalls(page);
    await loginIn(page, 'ja');
    // The home tips come from the server in the asked language (seeded content: はじめに = "Before you start").
    await expectVisible(page.getByRole('region', { name: text('ja', 'home.tips') }).getByText('はじめに', { exact: true }), 'the Japanese tip from the server');
    expect(calls.map((c) => new URL(c.url()).pathname)).toEqual(expect.arrayContaining(['/oga/auth/login', '/oga/user/info']));
    expectLanguageHeader(calls, 'ja');
    expect(
      calls.some((c) => c.headers().authorization?.startsWith('Bearer ')),
      'signed-in calls carry the bearer token',
    ).toBe(true);
  });

  test('L2: after logging in with ?lang=ja the header and menu show Japanese, and a reload keeps Japanese', async () => {
    const { page } = session;
    await loginIn(page, 'ja');
    await expectHeaderAndMenuIn(page, 'ja');
    const calls = recordApiCalls(page);
    await page.reload();
    await expectVisible(page.getByRole('navigation', { name: text('ja', 'menu.label') }), 'the menu after the reload');
    expect(await storedLanguage(page)).toBe('ja');
    expect(await htmlLang(page)).toBe('ja');
    expectLanguageHeader(calls, 'ja');
    await expectHeaderAndMenuIn(page, 'ja');
  });

  test('L2 L5: the header switcher ("Language") set to 中文 reloads the page in Chinese', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    await page.getByRole('button', { name: text('en', 'header.languageCurrent', { language: 'English' }), exact: true }).click();
    const options = page.getByRole('menuitem');
    expect(await options.allInnerTexts()).toEqual(['English', '中文', '日本語', 'Tiếng Việt']);
    const calls = recordApiCalls(page, { afterNavigation: true });
    const reloaded = page.waitForEvent('load');
    await page.getByRole('menuitem', { name: '中文', exact: true }).click();
    await reloaded;
    expect(pathOfPage(page)).toBe('/orderForms');
    await expectVisible(page.getByRole('navigation', { name: text('cn', 'menu.label') }), 'the menu after switching');
    expect(await storedLanguage(page)).toBe('cn');
    expect(await htmlLang(page)).toBe('zh-CN');
    expectLanguageHeader(calls, 'cn');
    await expectHeaderAndMenuIn(page, 'cn');
  });
});
