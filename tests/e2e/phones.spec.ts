import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectVisible, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// Y8, LD2, LD5 and L1 on a phone: every list keeps its row's name (which opens it) and its
// actions on the screen, and the header is one compact row with the search behind an icon.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 800 } });

/** Fails unless the whole of `locator` lies inside the page's width at `width` px. */
async function expectInsideWidth(locator: Locator, width: number, what: string) {
  await expectVisible(locator, what);
  const box = await locator.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${what} inside the ${width} px screen (box ${JSON.stringify(box)})`).toBe(true);
}

async function atWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 });
}

describe('on a phone', () => {
  for (const width of [390, 360]) {
    test(`F1 at ${width} px: each form's name is a link inside the screen and opens the form`, async () => {
      const { page } = session;
      await atWidth(page, width);
      await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
      await page.goto(`${portal.url}/orderForms`);
      const list = page.getByLabel(en('menu.mandatoryForms'), { exact: true }).first();
      const first = list.getByRole('link').first();
      await expectInsideWidth(first, width, "the first mandatory form's name link");
      const name = (await first.textContent())?.trim() ?? '';
      expect(name.length > 0, 'the link reads the form name').toBe(true);
      await first.click();
      await expectVisible(page.getByRole('heading', { level: 1 }).filter({ hasText: name.split(' ')[0] ?? '' }), `the form "${name}" opened`);
    });

    test(`LD5 at ${width} px: a team user's quota, status and actions are inside the screen`, async () => {
      const { page } = session;
      await atWidth(page, width);
      await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
      await page.goto(`${portal.url}/digital-tools/team-user`);
      await expectInsideWidth(page.getByRole('button', { name: `${en('members.actions.edit')} demo/scanner`, exact: true }), width, 'the Edit button of demo/scanner');
      await expectInsideWidth(page.getByText(en('members.status.active'), { exact: true }).first(), width, 'the status "Active"');
    });

    test(`LD2 at ${width} px: a lead's name opens it and lies inside the screen`, async () => {
      const { page } = session;
      await atWidth(page, width);
      await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
      await page.goto(`${portal.url}/digital-tools/leads`);
      const open = page.locator('a[href*="lead-detail"]').first();
      await expectInsideWidth(open, width, "the first lead's name link");
      // The scan time is the list's last column: on a phone it shows with the lead, not scrolled away.
      await expectInsideWidth(page.getByRole('main').locator('time').first(), width, "the first lead's scan time");
      await open.click();
      await waitForPath(page, '/lead/lead-detail');
    });
  }

  test('L1 at 390 px: the header is one compact row; the search opens from an icon, labelled, and searches', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    const banner = page.getByRole('banner');
    const box = await banner.boundingBox();
    expect(box && box.height <= 72, `the header at 390 px is one row (is ${box?.height} px tall)`).toBe(true);
    await expectInsideWidth(banner.getByTestId('exhibition-name'), 390, 'the event name');
    await banner.getByRole('button', { name: en('header.search'), exact: true }).click();
    const search = page.getByRole('searchbox', { name: en('header.search') });
    await expectVisible(search, 'the search box after pressing the search icon');
    await expect.poll(() => search.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('badge');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/search');
  });
});

describe('event time on the devices page', () => {
  test("K2: a new device's times are written in event time (the demo show is at UTC+08:00), as everywhere else", async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/devices`);
    await page.getByRole('textbox', { name: en('leads.devices.name') }).fill('Booth phone K2');
    await page.getByRole('button', { name: en('leads.devices.add') }).click();
    await expectVisible(page.getByRole('textbox', { name: en('leads.devices.token') }), 'the new token');
    const list = page.getByLabel(en('leads.devices.list'), { exact: true });
    await expectVisible(list.getByText('Booth phone K2'), 'the device listed');
    await expectVisible(list.locator('time').filter({ hasText: '(UTC+08:00)' }).first(), 'the time it was added, in event time (UTC+08:00)');
  });
});
