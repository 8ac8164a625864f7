import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, loginAs, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { addCode, deviceReady, openScanner, scanItem, SYNC_TIMEOUT_MS, waitFor } from './support/scanner';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';

// The scanner on a phone with no network and at sign-out. After one visit online, a reload with
// the server unreachable still opens the signed-in frame (from the last user info of this
// session) and the scanner keeps scans; an answer of the server that the session is over still
// signs out. Signing out says how many scans are not sent yet and offers to send them first;
// signing out anyway removes them from the phone.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 844 } });

let participationId: number;
let badges: string[] = [];
const take = (n: number) => badges.splice(0, n);

beforeAll(async () => {
  participationId = await demoParticipationId(portal);
  const { event_id } = await portal.app.db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
  const rows = await portal.app.db
    .selectFrom('visitors')
    .select('badge_code')
    .where('event_id', '=', event_id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participationId))),
    )
    .orderBy('id', 'asc')
    .limit(20)
    .execute();
  badges = rows.map((row) => row.badge_code);
});

async function leadCount(codes: string[]): Promise<number> {
  const row = await portal.app.db
    .selectFrom('leads')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('participation_id', '=', participationId)
    .where('badge_code', 'in', codes)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** On a phone the header keeps "Log out" in the account menu. */
async function signOutFromPhoneHeader(page: Page): Promise<void> {
  await page.getByRole('button', { name: en('header.account') }).click();
  await page.getByRole('menuitem', { name: en('header.logout') }).click();
}

/** Signs in again from the login page the sign-out left (which may go back to the scanner). */
async function signInAgain(page: Page) {
  await loginAs(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** The API cannot be reached at all, as on a phone with no network (the page itself still loads). */
async function apiUnreachable(page: Page) {
  await page.route('**/oga/**', (route) => route.abort('internetdisconnected'));
}

describe('scanner offline start and sign-out', () => {
  test('S4 offline: after one visit, a reload with no network opens the scanner and keeps a typed scan; a 401 still signs out', async () => {
    const { page } = session;
    const [badge] = take(1);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await apiUnreachable(page);
    await page.reload();
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.leadScanner') }), 'the Scanner heading offline');
    await addCode(page, badge!);
    await expectVisible(scanItem(page, badge!).getByText(en('leads.scanner.state.waiting'), { exact: true }), 'the scan waiting to send');
    expect(await leadCount([badge!])).toBe(0);
    // The network is back: the scan is sent.
    await page.unroute('**/oga/**');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expectVisible(scanItem(page, badge!).getByText(en('leads.scanner.state.sent'), { exact: true }), 'the scan sent', SYNC_TIMEOUT_MS);
    expect(await leadCount([badge!])).toBe(1);
    // The server says the session is over: the last known user info does not keep it open.
    await page.route('**/oga/user/info', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 401, msg: 'Login required', error: 'invalidSession', data: null }) }),
    );
    await page.reload();
    await waitForPath(page, '/login');
    await page.unroute('**/oga/user/info');
    // No token: with no network, the scanner address still goes to /login.
    await apiUnreachable(page);
    await page.goto(`${portal.url}/digital-tools/scanner`);
    await waitForPath(page, '/login');
  });

  test('S6 + LD1: sign-out says how many scans are not sent and sends them first; signing out anyway removes them from the phone', async () => {
    const { page } = session;
    const [first, second, lost] = take(3);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    // Scans cannot reach the server.
    await page.route('**/oga/leads/scans', (route) => route.abort('internetdisconnected'));
    await addCode(page, first!);
    await addCode(page, second!);
    await expectVisible(scanItem(page, second!).getByText(en('leads.scanner.state.waiting'), { exact: true }), 'the scans waiting');
    await signOutFromPhoneHeader(page);
    const dialog = page.getByRole('dialog', { name: en('auth.logoutConfirmTitle') });
    await expectVisible(dialog.getByText(en('auth.logoutUnsentScans', { count: 2 })), 'the unsent scans warning');
    // Send first: once sent, the ordinary confirmation.
    await page.unroute('**/oga/leads/scans');
    await dialog.getByRole('button', { name: en('auth.logoutSendFirst') }).click();
    await expectVisible(dialog.getByText(en('auth.logoutConfirmText')), 'the ordinary confirmation', SYNC_TIMEOUT_MS);
    await waitFor('two leads', async () => (await leadCount([first!, second!])) === 2);
    await dialog.getByRole('button', { name: en('auth.confirm') }).click();
    await waitForPath(page, '/login');

    // Again, a scan that cannot be sent, and signing out anyway: it leaves the phone, no lead.
    await signInAgain(page);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await page.route('**/oga/leads/scans', (route) => route.abort('internetdisconnected'));
    await addCode(page, lost!);
    await expectVisible(scanItem(page, lost!).getByText(en('leads.scanner.state.waiting'), { exact: true }), 'the scan waiting');
    await signOutFromPhoneHeader(page);
    await expectVisible(dialog.getByText(en('auth.logoutUnsentScans', { count: 1 })), 'the unsent scan warning');
    await dialog.getByRole('button', { name: en('auth.logoutAnyway') }).click();
    await waitForPath(page, '/login');
    await page.unroute('**/oga/leads/scans');
    await signInAgain(page);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await expectVisible(page.getByText(en('leads.scanner.status.allSent')), 'nothing waiting');
    expect(await scanItem(page, lost!).count()).toBe(0);
    expect(await scanItem(page, first!).count()).toBe(0);
    expect(await leadCount([lost!])).toBe(0);
  });
});
