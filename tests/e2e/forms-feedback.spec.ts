import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { usePortal, DEMO_PASSWORD, demoParticipationId } from './support/portal';
import { setParticipationDeadline } from '../support/settings';
import { clearDemoEntries, submitButton } from './support/form-page';

// F9: what a form tells the user where the user is. A draft that did not save says so beside the
// button (and in a toast), and keeps saying so until a save succeeds; "Save draft" cannot send
// twice; a refused submit moves focus to its problems; a full-width e-mail gets one message.

const portal = usePortal();
const session = useBrowser();

const S01 = '/myParticipation/promotionProfile';
const S04 = '/myParticipation/exhibitorBadges';

const DAY = 24 * 60 * 60 * 1000;

// The demo seed's profile deadline has passed: S01 (the long form here) is opened a month ahead.
beforeEach(async () => {
  await clearDemoEntries(portal);
  await setParticipationDeadline(portal.app.db, await demoParticipationId(portal), 'profile', new Date(Date.now() + 30 * DAY));
});

const saveDraftButton = (page: Page) => page.getByRole('button', { name: en('formRuntime.saveDraft'), exact: true });

async function openForm(page: Page, path: string) {
  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}${path}`);
  await expectVisible(submitButton(page), `the form of ${path}`);
}

/** True when the element is shown inside the window (not scrolled out of view; a pixel's rounding allowed). */
async function inView(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize()!;
  return box !== null && box.y >= -1 && box.y + box.height <= viewport.height + 1 && box.x >= -1 && box.x + box.width <= viewport.width + 1;
}

describe('F9: feedback where the user is', () => {
  test('a draft that fails to save on a lost connection says so where the user is, and stays "not saved" until a save succeeds', async () => {
    const { page } = session;
    await openForm(page, S01);
    await field(page, en('forms.s01.companyName')).fill('Borneo Botanica Sdn. Bhd.');
    await page.route('**/oga/forms/s01/draft', (route) => route.abort('internetdisconnected'));
    const save = saveDraftButton(page);
    await save.scrollIntoViewIfNeeded();
    await save.click();

    // The long form's top is out of view: the failure is told in view (a toast, and beside the button).
    const notSaved = page.getByRole('alert').filter({ hasText: en('formRuntime.notSaved', { reason: en('errors.network') }) });
    await expectVisible(notSaved.first(), 'the "not saved" message');
    const shown = await Promise.all((await page.getByText(en('errors.network'), { exact: false }).all()).map(inView));
    expect(shown.some(Boolean), '"Connection failed" shown in view').toBe(true);
    const beside = page
      .locator('form')
      .getByRole('alert')
      .filter({ hasText: en('formRuntime.notSaved', { reason: en('errors.network') }) });
    await expectVisible(beside, 'the unsaved state beside "Save draft"');
    expect(await inView(beside), 'the unsaved state beside "Save draft", in view').toBe(true);
    expect(await page.getByText(en('success.saved'), { exact: true }).count(), 'never "Saved"').toBe(0);

    // Back online, a save clears it.
    await page.unroute('**/oga/forms/s01/draft');
    await save.click();
    await expectVisible(page.getByText(en('success.saved'), { exact: true }), '"Saved"');
    await expectHidden(notSaved, 'the "not saved" message, gone once saved');
  });

  test('"Save draft" is disabled while it saves: a double click sends one save', async () => {
    const { page } = session;
    await openForm(page, S01);
    await field(page, en('forms.s01.companyName')).fill('Borneo Botanica Sdn. Bhd.');
    let sent = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/oga/forms/s01/draft', async (route) => {
      sent += 1;
      await held;
      await route.continue();
    });
    await saveDraftButton(page).dblclick();
    await expectVisible(page.getByRole('button', { name: en('formRuntime.saveDraft'), exact: true, disabled: true }), '"Save draft" disabled while saving');
    release();
    await expectVisible(page.getByText(en('success.saved'), { exact: true }), '"Saved"');
    await expectVisible(page.getByRole('button', { name: en('formRuntime.saveDraft'), exact: true, disabled: false }), '"Save draft" enabled again');
    expect(sent, 'one save sent').toBe(1);
  });

  test('a refused submit moves focus to the list of problems; a full-width e-mail gets one message', async () => {
    const { page } = session;
    await openForm(page, S04);
    await page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }).click();
    const badge = page.locator('.rjsf-field-array .rjsf-field-object').first();
    await field(badge, en('forms.s04.firstName')).fill('Aisyah');
    await field(badge, en('forms.s04.lastName')).fill('Rahman');
    await field(badge, en('forms.s04.email')).fill('ａｉｓｙａｈ@borneo-botanica.example');
    await submitButton(page).click();

    const summary = page.getByRole('alert').filter({ hasText: en('formRuntime.problems.title', { count: 1 }) });
    await expectVisible(summary, 'one problem to fix');
    await page.waitForFunction(() => document.activeElement?.closest('[role="alert"]')?.textContent?.includes('Problems to fix') === true, undefined, { timeout: 10_000 });
    const messages = summary.getByRole('link');
    expect(await messages.count(), 'one message for the e-mail').toBe(1);
    expect(await messages.first().textContent()).toBe(`${en('forms.s04.email')}: ${en('validation.noFullWidth')}`);
    expect(await badge.getByText(en('validation.email'), { exact: true }).count(), 'no second "valid e-mail" message at the field').toBe(0);
  });
});
