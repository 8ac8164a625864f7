import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, expectVisible, loginAndLand, UI_TIMEOUT_MS, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { addCode, deviceReady, openScanner, recentScans, scanItem, SYNC_TIMEOUT_MS, waitFor } from './support/scanner';
import { apiGet, apiLogin, DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';

// LD1 at the booth, in the browser: the scanner page writes every scan to the phone first and
// sends it when it can. Manual entry makes a lead, the same badge again makes none; a
// qualification given on the sheet reaches the lead; 50 scans made offline survive a reload and
// a browser restart and become exactly 50 leads; a server that stored a batch but whose answer
// was lost, then was down, doubles nothing; a revoked device keeps its scans; a 360 px phone has
// no sideways scroll.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 844 } });

let participationId: number;
let badges: Array<{ code: string; name: string; company: string }> = [];
/** Badges of the demo event the demo exhibitor has not scanned, handed out once each. */
const take = (n: number) => badges.splice(0, n);

beforeAll(async () => {
  participationId = await demoParticipationId(portal);
  const { event_id } = await portal.app.db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
  const rows = await portal.app.db
    .selectFrom('visitors')
    .select(['badge_code', 'name', 'company'])
    .where('event_id', '=', event_id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participationId))),
    )
    .orderBy('id', 'desc')
    .limit(150)
    .execute();
  badges = rows.map((row) => ({ code: row.badge_code, name: row.name, company: row.company }));
});

/** Leads of the demo exhibitor with these badge codes, as the database holds them. */
async function leadCount(codes: string[]): Promise<number> {
  const row = await portal.app.db
    .selectFrom('leads')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('participation_id', '=', participationId)
    .where('badge_code', 'in', codes)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const stateCount = (page: Page, key: string) =>
  recentScans(page)
    .getByText(en(`leads.scanner.state.${key}`), { exact: false })
    .count();

/** A browser profile kept on disk: the queue must survive a restart of the browser. */
function launchProfile(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 390, height: 844 },
    locale: 'en-GB',
  });
}

describe('scanner', () => {
  test('LD1: a badge typed in becomes a lead shown in Recent scans; the same badge again is "Already a lead" and no second lead', async () => {
    const { page } = session;
    const [badge] = take(1);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await addCode(page, badge!.code);
    await expectVisible(scanItem(page, badge!.code).getByText(en('leads.scanner.state.sent'), { exact: true }), 'the scan sent');
    await expectVisible(scanItem(page, badge!.code).getByText(badge!.name, { exact: false }), "the visitor's name");
    await expectVisible(page.getByText(en('leads.scanner.today', { count: 1 })), "the day's count");
    await addCode(page, badge!.code);
    await expectVisible(scanItem(page, badge!.code).getByText(en('leads.scanner.state.duplicate'), { exact: true }), 'Already a lead');
    expect(await scanItem(page, badge!.code).count()).toBe(2);
    expect(await leadCount([badge!.code])).toBe(1);
    // A badge of no visitor of this event (another show's): kept and counted, and said so.
    await addCode(page, 'OTHERSHOW2026-V0000001');
    await expectVisible(scanItem(page, 'OTHERSHOW2026-V0000001').getByText(en('leads.scanner.unknownBadge'), { exact: false }), 'the unknown badge message');
    // A read that is no badge: kept in the list, refused on the phone with the reason.
    await addCode(page, 'https://example.com/promo');
    await expectVisible(
      scanItem(page, 'https://example.com/promo').getByText(en('leads.scanner.state.refused', { reason: en('leads.scanner.problem.notABadge') })),
      'the refusal of a web address',
    );
  });

  test('LD3: the qualification given on the sheet reaches the lead detail', async () => {
    const { page } = session;
    const [badge] = take(1);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await addCode(page, badge!.code);
    await page.getByRole('button', { name: en('leads.scanner.qualify'), exact: true }).click();
    const sheet = page
      .getByRole('form', { name: en('leads.scanner.sheetTitle', { code: badge!.name }) })
      .or(page.getByRole('form', { name: en('leads.scanner.sheetTitle', { code: badge!.code }) }));
    await expectVisible(sheet, 'the qualification sheet');
    // Saving without the required choices says what is missing.
    await sheet.getByRole('button', { name: en('leads.scanner.sheet.save') }).click();
    await expectVisible(sheet.getByText(en('leads.required.leadType')), 'the lead type required message');
    await sheet.getByRole('button', { name: en('leads.temperature.hot') }).click();
    await sheet.getByRole('combobox', { name: en('leads.field.leadType') }).click();
    await page.getByRole('option', { name: en('leads.type.potentialCustomer') }).click();
    await sheet.getByRole('combobox', { name: en('leads.field.followUp') }).click();
    await page.getByRole('option', { name: en('leads.followUp.sendQuotation') }).click();
    await sheet.getByRole('textbox', { name: en('leads.field.notes') }).fill('Wants 200 kg of honey.');
    await sheet.getByRole('button', { name: en('leads.scanner.sheet.save') }).click();
    await waitFor('the qualification stored', async () => {
      const lead = await portal.app.db
        .selectFrom('leads')
        .select(['temperature'])
        .where('participation_id', '=', participationId)
        .where('badge_code', '=', badge!.code)
        .executeTakeFirst();
      return lead?.temperature === 'hot';
    });
    await scanItem(page, badge!.code).getByRole('link', { name: badge!.code }).click();
    await waitForPath(page, '/lead/lead-detail');
    const visitor = page.getByRole('group', { name: en('leads.detail.visitor') });
    await expectVisible(visitor.getByText(en('leads.temperature.hot'), { exact: true }), 'the temperature on the lead');
    await expectVisible(visitor.getByText('Wants 200 kg of honey.'), 'the notes on the lead');
    // On a phone the lead detail puts the qualification before the visitor's read-only fields.
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    const qualificationAt = headings.indexOf(en('leads.detail.qualification'));
    expect(qualificationAt).toBeGreaterThanOrEqual(0);
    expect(qualificationAt).toBeLessThan(headings.findIndex((heading) => heading.startsWith(en('leads.detail.visitor'))));
  });

  test('LD1 offline: 50 scans survive a reload and a browser restart, then become exactly 50 leads', { timeout: 120_000 }, async () => {
    const codes = take(50).map((badge) => badge.code);
    const dir = mkdtempSync(join(tmpdir(), 'scanner-profile-'));
    let context = await launchProfile(dir);
    try {
      let page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
      await openScanner(page, portal.url);
      await deviceReady(page);
      await context.setOffline(true);
      for (const code of codes) await addCode(page, code);
      await waitFor('50 scans waiting', async () => (await stateCount(page, 'waiting')) === 50, UI_TIMEOUT_MS);
      // The app shell itself comes from the network here (the service worker is another part):
      // from now on only the scan API stays unreachable while the page reloads and the browser restarts.
      const scanApi = `${portal.url}/oga/leads/scans`;
      await context.route(scanApi, (route) => route.abort('internetdisconnected'));
      await context.setOffline(false);
      await page.reload();
      await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.leadScanner') }), 'the scanner after the reload');
      await waitFor('50 scans waiting after the reload', async () => (await stateCount(page, 'waiting')) === 50, UI_TIMEOUT_MS);
      await context.close();

      context = await launchProfile(dir);
      await context.route(scanApi, (route) => route.abort('internetdisconnected'));
      page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      await openScanner(page, portal.url);
      await waitFor('50 scans waiting after the restart', async () => (await stateCount(page, 'waiting')) === 50, UI_TIMEOUT_MS);
      // No count of leads here: the scan API is blocked by routes set after the browser has started,
      // and once in a clean-clone run the server had stored the 50 scans while the page showed them
      // waiting (a send whose answer the page never saw). What the user relies on is below: every
      // scan kept through the restart, then exactly one lead each, all shown sent.

      await context.unroute(scanApi);
      await context.setOffline(true);
      await context.setOffline(false);
      await waitFor('50 scans sent', async () => (await stateCount(page, 'sent')) === 50);
      expect(await leadCount(codes)).toBe(50);
      await expectVisible(page.getByText(en('leads.scanner.status.allSent')), 'all scans sent');
    } finally {
      await context.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('LD1: a batch the server stored but whose answer was lost, then a server down: nothing lost or doubled', { timeout: 120_000 }, async () => {
    const { page, context } = session;
    const codes = take(5).map((badge) => badge.code);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await context.setOffline(true);
    for (const code of codes) await addCode(page, code);
    let calls = 0;
    await context.route(`${portal.url}/oga/leads/scans`, async (route) => {
      calls += 1;
      if (calls === 1) {
        // The server stores the batch, then the connection drops before the answer.
        await route.fetch();
        await route.abort('connectionreset');
      } else if (calls <= 3) await route.abort('connectionrefused');
      else await route.continue();
    });
    await context.setOffline(false);
    await waitFor('the batch stored once', async () => (await leadCount(codes)) === 5);
    await waitFor('5 scans sent', async () => (await stateCount(page, 'sent')) === 5);
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(await leadCount(codes)).toBe(5);
  });

  test('LD1: a revoked device stops scanning with a message, keeps its unsent scans and sends them once registered again', async () => {
    const { page, context } = session;
    const codes = take(3).map((badge) => badge.code);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    const token = await apiLogin(portal.url, 'demo');
    const devices = (await apiGet(portal.url, '/leads/devices', token)).data as Array<{ id: number }>;
    const newest = Math.max(...devices.map((device) => device.id));
    await context.setOffline(true);
    for (const code of codes) await addCode(page, code);
    await fetch(`${portal.url}/oga/leads/devices/${newest}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    await context.setOffline(false);
    await expectVisible(page.getByText(en('leads.scanner.signedOut', { count: 3 })), 'the revoked message', SYNC_TIMEOUT_MS);
    expect(await stateCount(page, 'waiting')).toBe(3);
    await expect(page.getByRole('button', { name: en('leads.scanner.add'), exact: true }).isDisabled()).resolves.toBe(true);
    expect(await leadCount(codes)).toBe(0);
    await page.getByRole('button', { name: en('leads.scanner.registerAgain') }).click();
    await waitFor('3 scans sent', async () => (await stateCount(page, 'sent')) === 3);
    expect(await leadCount(codes)).toBe(3);
  });

  test('a 360 px phone: no sideways scroll on the scanner', async () => {
    const context = await session.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const [badge] = take(1);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await addCode(page, badge!.code);
    await addCode(page, 'AFHE2027-V9999999-A-VERY-LONG-PAPER-BADGE-CODE-THAT-DOES-NOT-WRAP');
    await expectVisible(scanItem(page, badge!.code).getByText(en('leads.scanner.state.sent'), { exact: true }), 'the scan sent');
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });
});
