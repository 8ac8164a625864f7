import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { apiLinkCode, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// S3: a sign-in link (?token=<one-time code>) opened while someone else is signed in
// asks before switching; nothing changes until the user chooses.

const portal = usePortal();
const session = useBrowser();

const storedToken = () => session.page.evaluate(() => localStorage.getItem('oem_token'));
const inspect = async (code: string) =>
  (
    (await (
      await fetch(`${portal.url}/oga/auth/link-codes/inspect`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    ).json()) as { code: number }
  ).code;

describe('sign-in links while someone is signed in', () => {
  test("S3: demo opens limited's link, is asked, stays; opens another and switches", async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    const demoToken = await storedToken();
    const limitedSession = await apiLogin(portal.url, 'limited', DEMO_PASSWORD);

    const first = await apiLinkCode(portal.url, limitedSession);
    await page.goto(`${portal.url}/home?token=${first}`);
    const dialog = page.getByRole('dialog', { name: text('en', 'auth.linkSwitchTitle') });
    await expectVisible(dialog, 'the "Switch account?" prompt');
    await expectVisible(dialog.getByText(text('en', 'auth.linkSwitchText', { current: 'demo', other: 'limited' })), 'who is signed in and whose link it is');
    expect(new URL(page.url()).searchParams.has('token'), 'the code left the address bar').toBe(false);
    // Nothing changed while the question is open.
    expect(await storedToken()).toBe(demoToken);

    await dialog.getByRole('button', { name: text('en', 'auth.linkSwitchStay', { current: 'demo', other: 'limited' }) }).click();
    await expectHidden(dialog, 'the prompt after "Stay"');
    await expectVisible(page.getByRole('heading', { name: text('en', 'home.welcome', { name: 'Aisyah Rahman' }) }), "demo's home page");
    expect(await storedToken()).toBe(demoToken);
    expect(await inspect(first), 'the refused link was not used up').toBe(200);

    const second = await apiLinkCode(portal.url, limitedSession);
    await page.goto(`${portal.url}/home?token=${second}`);
    await expectVisible(dialog, 'the prompt for the second link');
    await dialog.getByRole('button', { name: text('en', 'auth.linkSwitchConfirm', { current: 'demo', other: 'limited' }) }).click();
    await expectVisible(page.getByRole('heading', { name: text('en', 'home.welcome', { name: 'Budi Santoso' }) }), "limited's home page after switching");
    const switched = await storedToken();
    expect(switched).not.toBe(demoToken);
    expect(switched).not.toBe(second);
    expect(await inspect(second), 'the link works once').toBe(601);
  });

  test('S3: a session token in the address is no sign-in link: refused, nobody is signed in', async () => {
    const { page } = session;
    const sessionToken = await apiLogin(portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/home?token=${sessionToken}`);
    await waitForPath(page, '/login');
    await expectVisible(page.getByText(text('en', 'errors.linkCodeInvalid')), 'the message that the link is invalid');
    expect(await storedToken()).toBeNull();
    expect(pathOf(page)).toBe('/login');
  });
});
