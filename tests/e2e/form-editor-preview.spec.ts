import { describe, expect, test } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// F11: the editor's preview follows typing. While the draft's save is held back on its way to the
// server, a question's new title typed in the editor shows in the preview at once (what was entered
// in the preview stays); once the save goes through and the server's preview answers, the preview
// keeps the new title.

const portal = usePortal();
const session = useBrowser();

const TITLE_KEY = 'forms.s04.byEvent.AFHE2027.badges_firstName.title';

/** The width of the gap in an outlined field's border that its label sits in (MUI sizes it from the label's text). */
const notchWidth = (input: Locator) => input.evaluate((element) => element.closest('.MuiOutlinedInput-root')?.querySelector('legend')?.getBoundingClientRect().width ?? 0);

/** Holds back every draft save from now on; `release` lets the held ones (and later ones) through. */
async function holdDraftSaves(page: Page) {
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/oga\/organiser\/form-editor\/\d+\/s04\/draft$/, (route) => {
    if (holding && route.request().method() === 'PUT') held.push(route);
    else void route.continue();
  });
  return {
    held,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

describe('F11 the preview follows typing', () => {
  test("a question's new title typed in the editor shows in the preview before the draft's save answers, and stays after", async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/forms/editor?event=AFHE2027&form=s04`);

    // The badges' first name gets a title of this event's own (saved as the draft).
    await page.getByRole('button', { name: en('formEditor.editTextsOf', { question: en('forms.s04.firstName') }), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('formEditor.textsTitle', { question: 'firstName' }) });
    await field(dialog, en('formEditor.inLanguage', { what: en('formEditor.questionTitle'), language: 'English' })).fill('Given name');
    // The changed title is a change of the schema: the preview waits for the server's, with its validator.
    const validator = page.waitForResponse((response) => response.url().includes('/oga/forms/validators/'));
    await dialog.getByRole('button', { name: en('formEditor.apply'), exact: true }).click();
    await expectHidden(dialog, 'the texts dialog closing');
    await validator;
    await expectVisible(page.getByText(en('formEditor.draftSaved'), { exact: true }), 'the draft saved');

    // A badge in the preview, its first name entered.
    const preview = page.getByRole('region', { name: en('formEditor.preview') });
    await preview.getByRole('button', { name: en('forms.s04.addBadge') }).click();
    await field(preview, 'Given name').fill('Aisyah');
    // The gap opens with a short transition once the label has moved up: measured when it is open.
    let notchBefore = 0;
    await expect
      .poll(
        async () => {
          const now = await notchWidth(field(preview, 'Given name'));
          const open = now > 0 && now === notchBefore;
          notchBefore = now;
          return open;
        },
        { message: 'the notch open around the label' },
      )
      .toBe(true);

    // The title changed again in the translations while the save cannot reach the server.
    const saves = await holdDraftSaves(page);
    await page.getByRole('tab', { name: en('formEditor.translations') }).click();
    await page.getByRole('textbox', { name: en('formEditor.textIn', { key: TITLE_KEY, language: 'English' }), exact: true }).fill('Name on badge');
    await expectVisible(field(preview, 'Name on badge'), 'the new title in the preview at once');
    expect(await field(preview, 'Name on badge').inputValue()).toBe('Aisyah');
    expect(await field(preview, 'Given name').count()).toBe(0);
    // The border's gap follows the longer label (the label is a text of its own, in the gap too).
    await expect.poll(() => notchWidth(field(preview, 'Name on badge')), { message: 'the notch sized to the new label' }).toBeGreaterThan(notchBefore);
    await expect.poll(() => saves.held.length, { message: 'the save held back' }).toBeGreaterThan(0);
    expect(await page.getByText(en('formEditor.saving'), { exact: true }).count()).toBe(1);

    // The save goes through: the server's preview holds the same title, and what was entered stays.
    const answered = page.waitForResponse((response) => /\/s04\/draft$/.test(response.url()) && response.request().method() === 'PUT');
    await saves.release();
    await answered;
    await expectVisible(page.getByText(en('formEditor.draftSaved'), { exact: true }), 'the draft saved');
    await expectVisible(field(preview, 'Name on badge'), 'the new title after the save');
    expect(await field(preview, 'Name on badge').inputValue()).toBe('Aisyah');
    expect(await field(preview, 'Given name').count()).toBe(0);
  });
});
