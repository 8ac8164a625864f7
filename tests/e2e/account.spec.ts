import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectVisible, field, loginAs, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formListOf } from '../../src/engine/forms/form-list';

const portal = usePortal();
const session = useBrowser();

/** Opens My account the way a user does: the header's Account menu. */
async function openMyAccount(page: Page) {
  await page
    .getByRole('banner')
    .getByRole('button', { name: text('en', 'header.account'), exact: true })
    .click();
  await page.getByRole('menuitem', { name: text('en', 'header.myAccount') }).click();
  await waitForPath(page, '/my-account');
  await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.myAccount') }), 'the title "My account"');
}

/** The value cell next to a row heading of the account details. */
const valueOf = (page: Page, label: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
    .getByRole('cell');

describe('my account', () => {
  test('H2: My account shows booth number, exhibition name, exhibition ID and the deadlines in UTC+08:00 form', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openMyAccount(page);
    await expectVisible(valueOf(page, 'Exhibition ID'), 'the Exhibition ID row');
    expect(await valueOf(page, text('en', 'account.boothNumber')).innerText()).toBe('Hall 3 · B12');
    expect(await valueOf(page, text('en', 'account.exhibitionName')).innerText()).toBe('ASEAN Food & Hospitality Expo 2027');
    expect(await valueOf(page, text('en', 'account.exhibitionId')).innerText()).toBe('AFHE2027');
    await expectVisible(page.getByRole('img', { name: text('en', 'account.companyLogo') }), 'the company logo');
    for (const key of ['account.badgesDeadline', 'account.boothDeadline', 'account.productDeadline', 'account.profileDeadline']) {
      const shown = await valueOf(page, text('en', key)).innerText();
      // L1: written as English writes dates (month/day/year), on K2's 24-hour clock with the offset.
      expect(shown, `deadline "${text('en', key)}"`).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(UTC\+08:00\)$/);
    }
    // The seed puts every deadline at 15:00 UTC, which is 23:00 at the event (UTC+08:00).
    expect(await valueOf(page, text('en', 'account.badgesDeadline')).innerText()).toMatch(/ 23:00 \(UTC\+08:00\)$/);
  });

  test("H2: Home lists the deadlines forms.yaml declares, in its order, labelled in the reader's language", async () => {
    const { page } = session;
    const declared = Object.values(formListOf(readFileSync(join(import.meta.dirname, '../../schemas/forms/forms.yaml'), 'utf8')).deadlines).map((deadline) => deadline.title);
    await page.goto(`${portal.url}/login?lang=vi`);
    await loginAs(page, portal.url, 'demo', DEMO_PASSWORD, { account: text('vi', 'auth.account'), password: text('vi', 'auth.password'), submit: text('vi', 'auth.login') });
    await waitForPath(page, '/home');
    const deadlines = page.getByRole('region', { name: text('vi', 'home.deadlines') });
    await expectVisible(deadlines, 'the deadlines of Home');
    const items = deadlines.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(declared.length);
    for (const [index, title] of declared.entries()) expect(await items.nth(index).innerText(), title).toContain(text('vi', title));
  });

  test('H3: changing the password refuses a wrong old password and a mismatched confirmation, then succeeds; the new password logs in, the old one no longer does', async () => {
    const { page } = session;
    const newPassword = 'Rattan-weave-2027';
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openMyAccount(page);
    const form = page.getByRole('form', { name: text('en', 'account.changePassword') });
    const save = form.getByRole('button', { name: text('en', 'account.save') });

    await field(form, 'Old password').fill('Not-my-old-pass-1');
    await field(form, 'New password').fill(newPassword);
    await field(form, 'Confirm new password').fill(newPassword);
    await save.click();
    await expectVisible(form.getByText('The old password is not correct.'), 'the message "The old password is not correct." at the old-password field');
    expect(await field(form, 'Old password').getAttribute('aria-invalid'), 'the old-password field is marked invalid').toBe('true');

    await field(form, 'Old password').fill(DEMO_PASSWORD);
    await field(form, 'Confirm new password').fill(`${newPassword}!`);
    await save.click();
    await expectVisible(form.getByText('The two password inputs are inconsistent.'), 'the message "The two password inputs are inconsistent."');
    expect(await field(form, 'Confirm new password').getAttribute('aria-invalid'), 'the confirmation field is marked invalid').toBe('true');
    await expect(form.getByText('The old password is not correct.').count(), 'the old-password message is gone').resolves.toBe(0);

    await field(form, 'Confirm new password').fill(newPassword);
    await save.click();
    await expectVisible(page.getByText('Your password has been changed.', { exact: true }), 'the message "Your password has been changed."');
    expect(await field(form, 'Old password').inputValue(), 'the form is emptied').toBe('');
    expect(pathOf(page)).toBe('/my-account');

    const other = await (await session.newContext()).newPage();
    await loginAs(other, portal.url, 'demo', DEMO_PASSWORD);
    await expectVisible(other.getByText('Incorrect account ID or password.'), 'the old password being refused');
    await loginAs(other, portal.url, 'demo', newPassword);
    await waitForPath(other, '/home');
    await expectVisible(other.getByRole('heading', { name: 'Welcome, Aisyah Rahman' }), 'the home page after logging in with the new password');
  });
});
