import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { apiGet, DEMO_PASSWORD, usePortal } from './support/portal';

// Short session rules so the idle path runs in seconds: warned after 4 s idle, out after 8 s.
const IDLE_SECONDS = 8;
const WARNING_SECONDS = 4;

const portal = usePortal({ session: { idleSeconds: IDLE_SECONDS, absoluteSeconds: 3600, warningSeconds: WARNING_SECONDS } });
const session = useBrowser();

describe('inactivity', () => {
  // Nothing below moves the mouse or types while waiting: the only input is the one click on
  // "Stay signed in", as a user coming back to the screen would do.
  test('S5: an idle user is warned ("Are you still there?"), "Stay signed in" keeps the session, and staying idle ends it with the inactivity message on /login', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page');
    const token = await page.evaluate(() => localStorage.getItem('oem_token'));
    const loggedInAt = Date.now();

    const dialog = page.getByRole('dialog', { name: text('en', 'auth.inactivityTitle') });
    await expectVisible(dialog, 'the "Are you still there?" dialog', (IDLE_SECONDS + 2) * 1000);
    const warnedAfter = Date.now() - loggedInAt;
    expect(warnedAfter, 'the warning waits for the idle time minus the warning time').toBeGreaterThanOrEqual((IDLE_SECONDS - WARNING_SECONDS - 1) * 1000);
    expect(pathOf(page)).toBe('/home');

    await dialog.getByRole('button', { name: text('en', 'auth.staySignedIn') }).click();
    await expectHidden(dialog, 'the dialog after "Stay signed in"');
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page, still signed in');
    // Past the moment the session would have ended without "Stay signed in": still signed in,
    // in the browser and on the server (the warning may be showing again by then).
    await page.waitForTimeout(Math.max(0, loggedInAt + (IDLE_SECONDS + 1) * 1000 - Date.now()));
    expect(pathOf(page)).toBe('/home');
    expect(await page.evaluate(() => localStorage.getItem('oem_token'))).toBe(token);
    // The next thing the user does that reaches the server must not find the session ended.
    const reloadedAt = Date.now();
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page after a reload, still signed in', 5000).catch((error: Error) => {
      throw new Error(
        `${error.message}: after "Stay signed in" the page went to ${page.url()} (the server ended the session at its own idle time, as if the keepalive had not counted)`,
      );
    });
    expect(pathOf(page)).toBe('/home');

    // Idle again: warned again, then out.
    await expectVisible(dialog, 'the warning a second time', (IDLE_SECONDS + 2) * 1000);
    await waitForPath(page, '/login', (IDLE_SECONDS + 4) * 1000);
    expect(Date.now() - reloadedAt, 'the session ends about the idle time after the last activity').toBeGreaterThanOrEqual((IDLE_SECONDS - 1) * 1000);
    await expectVisible(
      page.getByText(text('en', 'errors.sessionInactive'), { exact: true }),
      'the message "Due to inactivity, your session has ended. Please log in again to continue."',
    );
    expect(await page.evaluate(() => localStorage.getItem('oem_token')), 'the token is gone from the browser').toBeNull();
    expect((await apiGet(portal.url, '/user/info', token!)).code, 'the session is over on the server too').toBe(401);
  });
});
