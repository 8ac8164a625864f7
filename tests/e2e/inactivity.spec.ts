import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { apiGet, DEMO_PASSWORD, usePortal } from './support/portal';

// Short session rules so the idle path runs in seconds: warned after 8 s idle, out after 16 s. The
// steps below wait for what the user sees, never for a time; the margins only need the browser to
// act within 8 s of seeing the warning, even on a loaded machine.
const IDLE_SECONDS = 16;
const WARNING_SECONDS = 8;
const TEST_TIMEOUT_MS = 150_000;

const portal = usePortal({ session: { idleSeconds: IDLE_SECONDS, absoluteSeconds: 3600, warningSeconds: WARNING_SECONDS } });
const session = useBrowser();

describe('inactivity', () => {
  // Nothing below moves the mouse or types while waiting: the only input is the one click on
  // "Stay signed in", as a user coming back to the screen would do.
  test(
    'S5: an idle user is warned ("Are you still there?"), "Stay signed in" keeps the session, and staying idle ends it with the inactivity message on /login',
    async () => {
      const { page } = session;
      await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
      await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page');
      const token = await page.evaluate(() => localStorage.getItem('oem_token'));

      const dialog = page.getByRole('dialog', { name: text('en', 'auth.inactivityTitle') });
      await expectVisible(dialog, 'the "Are you still there?" dialog', (IDLE_SECONDS + 5) * 1000);
      expect(pathOf(page)).toBe('/home');

      await dialog.getByRole('button', { name: text('en', 'auth.staySignedIn') }).click();
      await expectHidden(dialog, 'the dialog after "Stay signed in"');
      await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page, still signed in');
      // The warning comes back (idle − warning) seconds after "Stay signed in", which itself came at
      // least that long after the login: by then the session would have ended had the click not
      // reached the server. The next thing the user does must find it alive.
      await expectVisible(dialog, 'the warning a second time', (IDLE_SECONDS + 5) * 1000);
      expect(await page.evaluate(() => localStorage.getItem('oem_token'))).toBe(token);
      await page.reload();
      await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page after a reload, still signed in').catch((error: Error) => {
        throw new Error(
          `${error.message}: after "Stay signed in" the page went to ${page.url()} (the server ended the session at its own idle time, as if the keepalive had not counted)`,
        );
      });
      expect(pathOf(page)).toBe('/home');

      // Idle again: warned again, then out.
      await expectVisible(dialog, 'the warning a third time', (IDLE_SECONDS + 5) * 1000);
      await waitForPath(page, '/login', (IDLE_SECONDS + 5) * 1000);
      await expectVisible(
        page.getByText(text('en', 'errors.sessionInactive'), { exact: true }),
        'the message "Due to inactivity, your session has ended. Please log in again to continue."',
      );
      expect(await page.evaluate(() => localStorage.getItem('oem_token')), 'the token is gone from the browser').toBeNull();
      expect((await apiGet(portal.url, '/user/info', token!)).code, 'the session is over on the server too').toBe(401);
    },
    TEST_TIMEOUT_MS,
  );
});
