import { describe, expect, test } from 'vitest';
import { LOGOUT_REDIRECT_DELAY_MS } from '../../src/engine/constants';
import { expectHidden, expectVisible, loginAs, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { apiGet, apiLinkCode, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

const portal = usePortal();
const session = useBrowser();

const storedToken = () => session.page.evaluate(() => localStorage.getItem('oem_token'));

describe('logging in and out', () => {
  test('S1 H1: demo logs in and lands on /home with the welcome and the exhibition, exhibitor and booth in the header', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await expectVisible(page.getByRole('heading', { name: text('en', 'home.welcome', { name: 'Aisyah Rahman' }) }), 'the welcome "Welcome, Aisyah Rahman"');
    const header = page.getByRole('banner');
    await expectVisible(header.getByText('ASEAN Food & Hospitality Expo 2027', { exact: true }), 'the exhibition name in the header');
    await expectVisible(header.getByText('Borneo Botanica', { exact: true }), 'the exhibitor name in the header');
    await expectVisible(header.getByText('Hall 3 · B12'), 'the booth number in the header');
    await expectVisible(header.getByRole('img', { name: 'Borneo Botanica logo' }), 'the company logo in the header');
    expect(await storedToken()).toMatch(/\S{20,}/);
  });

  test('S1: a wrong password says so and stays on /login without a session', async () => {
    const { page } = session;
    await loginAs(page, portal.url, 'demo', 'Not-the-password-1');
    await expectVisible(page.getByRole('alert').filter({ hasText: 'Incorrect account ID or password.' }), 'the message "Incorrect account ID or password."');
    expect(pathOf(page)).toBe('/login');
    expect(await storedToken()).toBeNull();
    // Nothing moves on once the page has settled either.
    await page.waitForLoadState('networkidle');
    expect(pathOf(page)).toBe('/login');
  });

  test('S4: without a session every protected page sends the user to /login', async () => {
    const { page } = session;
    await page.goto(`${portal.url}/home`);
    await waitForPath(page, '/login');
    await page.goto(`${portal.url}/my-account`);
    await waitForPath(page, '/login');
    await expectVisible(page.getByRole('button', { name: 'Log in', exact: true }), 'the login form');
    // After logging in the user gets the page they asked for.
    await loginAs(page, portal.url, 'demo', DEMO_PASSWORD);
    await waitForPath(page, '/my-account');
  });

  test('S6 S4: logging out asks first; Cancel keeps the session, Confirm ends it, says so and goes to /login after about 1 s', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    const token = await storedToken();
    expect(token, 'a token after login').toBeTruthy();

    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log out' });
    await expectVisible(dialog, 'the logout confirmation dialog');
    await expectVisible(dialog.getByText('Are you sure you want to log out?'), 'the confirmation question');
    await expectVisible(dialog.getByRole('button', { name: 'Confirm', exact: true }), 'the Confirm button');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(dialog, 'the logout dialog after Cancel');
    expect(pathOf(page)).toBe('/home');
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page, still logged in');
    expect(await storedToken()).toBe(token);
    expect((await apiGet(portal.url, '/user/info', token!)).code, 'the session still works on the server after Cancel').toBe(200);

    // The page's clock is the test's from here, so the one-second pause is checked without the wall clock.
    await page.clock.install();
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    const confirm = dialog.getByRole('button', { name: 'Confirm', exact: true });
    await expectVisible(confirm, 'the Confirm button');
    await page.clock.pauseAt(Date.now() + 60_000);
    await confirm.click();
    await expectVisible(page.getByText('You have logged out.', { exact: true }), 'the message "You have logged out."');
    await page.clock.runFor(LOGOUT_REDIRECT_DELAY_MS - 100);
    expect(pathOf(page), 'the message shows for a moment before leaving the page').toBe('/home');
    await page.clock.runFor(200);
    await waitForPath(page, '/login', 5000);
    await page.clock.resume();
    await expectVisible(page.getByRole('button', { name: 'Log in', exact: true }), 'the login form');

    expect(await storedToken(), 'the token is gone from the browser').toBeNull();
    expect((await apiGet(portal.url, '/user/info', token!)).code, 'the server revoked the session').toBe(401);

    await page.goto(`${portal.url}/home`);
    await waitForPath(page, '/login');
    await page.waitForLoadState('networkidle');
    expect(pathOf(page)).toBe('/login');
  });

  test('S3: /home?token=<link code> logs the user in, takes the code out of the address bar and keeps a session of its own as oem_token', async () => {
    const token = await apiLinkCode(portal.url, await apiLogin(portal.url, 'demo', DEMO_PASSWORD));
    const context = await session.newContext();
    const page = await context.newPage();
    await page.goto(`${portal.url}/home?token=${encodeURIComponent(token)}`);
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page of the token’s user');
    const address = new URL(page.url());
    expect(address.pathname).toBe('/home');
    expect(address.searchParams.has('token'), `token still in the address bar: ${page.url()}`).toBe(false);
    expect(page.url()).not.toContain(token);
    // The code was traded for a session: what is stored is a session token, not the code.
    const stored = await page.evaluate(() => localStorage.getItem('oem_token'));
    expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toBe(token);
  });
});
