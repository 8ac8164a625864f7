import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { firstLink } from '../support/smtp-sink';
import { expectVisible, field, loginAs, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { DEMO_PASSWORD, usePortal } from './support/portal';

const portal = usePortal();
const session = useBrowser();

const DEMO_EMAIL = 'demo@borneo-botanica.example';
const NEW_PASSWORD = 'Orchid-garden-2027';

async function askForResetLink(page: Page, email: string) {
  await page.goto(`${portal.url}/login`);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await field(page, 'E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expectVisible(page.getByText(/within 5 minutes/), 'the message that the e-mail arrives within 5 minutes');
}

describe('forgot password', () => {
  test('S2: an unknown e-mail gets the same answer and no e-mail goes out', async () => {
    const before = portal.sink.messages.length;
    await askForResetLink(session.page, 'nobody@unknown.example');
    // The answer is on the page, so the server has finished with the request: every e-mail goes
    // through the mail queue, and nothing was queued (or sent) for that address.
    expect(await portal.app.db.selectFrom('mail_outbox').select('id').where('to_address', '=', 'nobody@unknown.example').execute()).toEqual([]);
    expect(portal.sink.messages.slice(before).flatMap((m) => m.to)).not.toContain('nobody@unknown.example');
  });

  test('S2: the reset e-mail arrives, its link sets a new password once; the new password works and the old one no longer does', async () => {
    const { page } = session;
    const since = portal.sink.messages.length;
    await askForResetLink(page, DEMO_EMAIL);

    const mail = await portal.sink.waitFor(DEMO_EMAIL, { since, timeoutMs: 10_000 });
    expect(mail.subject).toBe('Reset your Exhibitor Portal password');
    const link = firstLink(mail.text);
    expect(link.startsWith(`${portal.url}/reset-password?token=`), `link in the e-mail: ${link}`).toBe(true);

    await page.goto(link);
    await expectVisible(page.getByRole('heading', { name: 'Set a new password', exact: true }), 'the page "Set a new password"');
    await expectVisible(page.getByText('Set a new password for account demo.'), 'which account the link is for');

    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'Confirm new password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectVisible(page.getByText('The two password inputs are inconsistent.'), 'the mismatch message');

    await field(page, 'Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectVisible(page.getByText('Your password has been set. You can log in now.'), 'the success message');

    await page.getByRole('link', { name: 'Back to log in' }).click();
    await waitForPath(page, '/login');
    await loginAndLand(page, portal.url, 'demo', NEW_PASSWORD);
    await expectVisible(page.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page after logging in with the new password');

    const other = await (await session.newContext()).newPage();
    await loginAs(other, portal.url, 'demo', DEMO_PASSWORD);
    await expectVisible(other.getByText('Incorrect account ID or password.'), 'the old password being refused');
    expect(new URL(other.url()).pathname).toBe('/login');

    await other.goto(link);
    await expectVisible(other.getByText('This reset link is invalid, already used or expired. Please ask for a new one.'), 'the used link being refused');
    await expect(field(other, 'New password').count()).resolves.toBe(0);
  });
});
