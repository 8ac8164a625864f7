import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

const portal = usePortal();
const session = useBrowser();

const menu = (page: Page) => page.getByRole('navigation', { name: text('en', 'menu.label') });

/** The names of the menu's top-level entries, in the order shown. */
async function topLevelEntries(page: Page): Promise<string[]> {
  const nav = menu(page);
  await expectVisible(nav, 'the left menu "Main menu"');
  const items = nav.getByRole('list').first().locator(':scope > li');
  const names: string[] = [];
  for (const item of await items.all()) names.push((await item.getByRole('link').first().innerText()).trim());
  return names;
}

/** Every entry of the menu, nested ones included (the event-site logo link aside). */
async function allEntries(page: Page): Promise<string[]> {
  const links = menu(page).getByRole('list').first().getByRole('link');
  return (await links.allInnerTexts()).map((name) => name.trim());
}

describe('menu and permissions', () => {
  test('P3: the demo exhibitor (all modules) sees every permitted top-level menu entry, in order, and no hidden screen', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await expectHidden(menu(page), 'the left menu on /home (Y3: Home shows tips instead)');
    await page.goto(`${portal.url}/orderForms`);
    const expected = [
      text('en', 'screens.dashboard'),
      text('en', 'menu.eventPlatform'),
      text('en', 'menu.mandatoryForms'),
      text('en', 'menu.optionalManuals'),
      text('en', 'menu.leadGrab'),
      text('en', 'menu.eventSupport'),
      text('en', 'screens.inviteClients'),
    ];
    expect(expected).toEqual(['Dashboard', 'Event Platform', 'Mandatory Forms', 'Optional Manuals', 'LeadGrab', 'Event Support', 'Invite your clients']);
    expect(await topLevelEntries(page)).toEqual(expected);
    const all = await allEntries(page);
    for (const hidden of ['menu.accountHome', 'screens.search', 'screens.myAccount', 'screens.promotionProfile', 'screens.manualDetail', 'screens.downloadPoster']) {
      expect(all, `hidden screen "${text('en', hidden)}" in the menu`).not.toContain(text('en', hidden));
    }
    // The entry opens its screen.
    await menu(page)
      .getByRole('link', { name: text('en', 'menu.optionalManuals'), exact: true })
      .click();
    await waitForPath(page, '/manuals');
    await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.manuals') }), 'the Manuals title');
  });

  test('P3: the limited exhibitor (Forms and Support) sees exactly Mandatory Forms and Event Support', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'limited', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    expect(await topLevelEntries(page)).toEqual([text('en', 'menu.mandatoryForms'), text('en', 'menu.eventSupport')]);
    // Event Support's own child (FAQ, module Support) is the only nested entry.
    expect(await allEntries(page)).toEqual([text('en', 'menu.mandatoryForms'), text('en', 'menu.eventSupport'), text('en', 'screens.faq')]);
  });

  test('P2: the limited exhibitor opening /dashboard ends on /401 "No access"; R1: an unknown path ends on /404 "Page not found"; / goes to /home', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'limited', DEMO_PASSWORD);

    await page.goto(`${portal.url}/dashboard`);
    await waitForPath(page, '/401');
    await expectVisible(page.getByRole('heading', { name: text('en', 'screens.unauthorized') }), 'the heading "No access"');
    await page.goto(`${portal.url}/digital-tools/custom-tag`);
    await waitForPath(page, '/401');

    await page.goto(`${portal.url}/some/unknown/path`);
    await waitForPath(page, '/404');
    await expectVisible(page.getByRole('heading', { name: text('en', 'screens.notFound') }), 'the heading "Page not found"');

    await page.goto(`${portal.url}/`);
    await waitForPath(page, '/home');
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Budi Santoso' }), 'the limited user’s home page');

    // A permitted screen opens normally (the guard is not simply refusing everything).
    await page.goto(`${portal.url}/support`);
    await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.support') }), 'the Event support title');
    expect(pathOf(page)).toBe('/support');
  });

  test('Y4: the header search box shows for both exhibitors (both have Forms); Enter goes to /search?keyword=', async () => {
    const { page } = session;
    const searchLabel = text('en', 'header.search');
    expect(searchLabel).toBe('Search manuals and forms');

    await loginAndLand(page, portal.url, 'limited', DEMO_PASSWORD);
    await expectVisible(page.getByRole('searchbox', { name: searchLabel }), 'the search box for the limited exhibitor');

    const other = await (await session.newContext()).newPage();
    await loginAndLand(other, portal.url, 'demo', DEMO_PASSWORD);
    const box = other.getByRole('searchbox', { name: searchLabel });
    await expectVisible(box, 'the search box for the demo exhibitor');
    await box.fill('badges');
    await box.press('Enter');
    await waitForPath(other, '/search');
    expect(new URL(other.url()).searchParams.get('keyword')).toBe('badges');
    await expectVisible(other.getByText(text('en', 'search.resultsFor', { keyword: 'badges' })), 'the results title for “badges”');
  });

  test('Y3: the collapse button hides the menu; going to /home and back shows it again', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    await expectVisible(menu(page), 'the left menu');

    await page.getByRole('button', { name: text('en', 'menu.collapse') }).click();
    await expectHidden(menu(page), 'the left menu after "Collapse menu"');
    await expectVisible(page.getByRole('button', { name: text('en', 'menu.expand') }), 'the "Expand menu" button');

    await page
      .getByRole('banner')
      .getByRole('link', { name: text('en', 'menu.accountHome') })
      .click();
    await waitForPath(page, '/home');
    // The address changes before React draws Home (navigation is a transition) and the collapsed
    // menu is already hidden: going back before Home is drawn means the user never arrived there,
    // and the menu rightly stays collapsed. Wait for Home's title first.
    await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.home'), exact: true }), 'the Home title');
    await expectHidden(menu(page), 'the left menu on /home');

    await page.goBack();
    await waitForPath(page, '/orderForms');
    await expectVisible(menu(page), 'the left menu again after visiting /home');
    await expectVisible(page.getByRole('button', { name: text('en', 'menu.collapse') }), 'the "Collapse menu" button');
  });
});
