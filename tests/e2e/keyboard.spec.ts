import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectVisible, field, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// Keyboard only (WCAG 2.1.1, 2.4.3, 3.3.1): the whole path login → open a form → fill it → submit,
// with the keyboard alone: no click, every control reached with Tab in the page's own order.
// A refused submit puts focus on the summary of its problems, whose links take focus to the field.

const portal = usePortal();
const session = useBrowser();

/** More Tab presses than any page here has stops: a control not reached by then is not reachable. */
const MAX_TABS = 200;

beforeEach(async () => {
  const user = await portal.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow();
  await portal.app.db.deleteFrom('form_entries').where('participation_id', '=', user.participation_id!).execute();
});

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement).catch(() => false);

/** Presses Tab until `target` has the focus, as a keyboard user would; fails naming it if it never does. */
async function tabTo(page: Page, target: Locator, what: string) {
  await expectVisible(target, what);
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${what} was never reached with Tab (${MAX_TABS} presses)`);
}

/** Waits until focus is inside `container` (e.g. after a refused submit), with a readable failure. */
async function expectFocusWithin(container: Locator, what: string) {
  try {
    await container.evaluate(
      (element) =>
        new Promise<void>((done, fail) => {
          const started = Date.now();
          const check = () => (element.contains(document.activeElement) ? done() : Date.now() - started > 5000 ? fail(new Error('timeout')) : requestAnimationFrame(check));
          check();
        }),
    );
  } catch {
    throw new Error(`Expected the focus on ${what}`);
  }
}

describe('keyboard only', () => {
  test('log in, open S04, add a badge, fix what a refused submit names and submit, all with the keyboard', async () => {
    const { page } = session;
    await page.goto(`${portal.url}/login`);

    // Log in: Tab to the fields, type, Enter.
    await tabTo(page, field(page, 'Account ID'), 'the Account ID field');
    await page.keyboard.type('demo');
    await page.keyboard.press('Tab');
    expect(await isFocused(field(page, 'Password')), 'Tab goes from Account ID to Password').toBe(true);
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await waitForPath(page, '/home');

    // Home's "Due next" list links to the badge form.
    await tabTo(page, page.getByRole('link', { name: en('forms.s04.title'), exact: true }), 'the S04 link under "Due next"');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/myParticipation/exhibitorBadges');

    // The list's button says what it adds; Enter adds a badge.
    await tabTo(page, page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }), 'the "Add a badge" button');
    await page.keyboard.press('Enter');
    await expectVisible(page.getByRole('button', { name: en('forms.s04.removeBadge', { number: 1 }), exact: true }), 'the "Remove badge 1" button of the new badge');
    const badge = page.locator('.rjsf-field-array .rjsf-field-object').first();
    await tabTo(page, field(badge, en('forms.s04.firstName')), 'the first name of badge 1');
    await page.keyboard.type('Aisyah');

    // Submitted without a last name and an e-mail: refused, and the focus goes to the problems.
    const submit = page.getByRole('button', { name: en('formRuntime.submit'), exact: true });
    await tabTo(page, submit, 'the Submit button');
    await page.keyboard.press('Enter');
    const summary = page.getByRole('alert').filter({ has: page.getByRole('link') });
    await expectVisible(summary, 'the summary of the problems');
    await expectFocusWithin(summary, 'the summary of the problems after the refused submit');

    // Its first link takes the focus to the field it names.
    const lastNameProblem = summary.getByRole('link', { name: new RegExp(`^${en('forms.s04.lastName')}:`) });
    await tabTo(page, lastNameProblem, 'the link to the last name problem');
    await page.keyboard.press('Enter');
    const lastName = field(badge, en('forms.s04.lastName'));
    await page.waitForFunction((id) => document.activeElement?.id === id, await lastName.getAttribute('id'));
    await page.keyboard.type('Rahman');
    await tabTo(page, field(badge, en('forms.s04.email')), 'the e-mail of badge 1');
    await page.keyboard.type('aisyah@borneo-botanica.example');

    // Submit, confirm in the dialog, and the form is submitted.
    await tabTo(page, submit, 'the Submit button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await tabTo(page, dialog.getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true }), "the dialog's Submit button");
    await page.keyboard.press('Enter');
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the "Submitted" notice');
    const entry = (await apiGet(portal.url, '/forms/s04', await apiLogin(portal.url, 'demo'))).data as { status: string };
    expect(entry.status).toBe('submitted');
  });
});
