import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en, translated } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// F11 O1: the organiser's form gallery. The organiser opens it from the menu, picks S04
// and the demo event whose patch changes it (HALAL2026: badges without a last name), reads the
// difference from the base form, switches the form to Japanese, and tries submitting it empty
// and with sample data: the exhibitor's own messages, in Japanese.

const portal = usePortal();
const session = useBrowser();

const ja = (key: string, params: Record<string, string | number> = {}) => translated('ja', key, params);

/** Chooses `option` in the gallery's picker labelled `label` (MUI select: a combobox and a listbox). */
async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expectHidden(page.getByRole('listbox'), `the ${label} list closing`);
}

/** The difference's line for a field of the badge list, in a language's words. */
const badgeChange = (t: typeof en, kind: string, field: string) =>
  t(`formGallery.change.${kind}`, { field: t('formGallery.inList', { field: t(field), list: t('forms.s04.badges') }) });

describe('form gallery', () => {
  test("the organiser sees S04 as HALAL2026's exhibitors do, the patch's difference, in Japanese, and the messages of a submit attempt", async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.getByRole('link', { name: en('screens.organiserFormGallery'), exact: true }).click();
    await waitForPath(page, '/organiser/forms/gallery');

    await pick(page, en('formGallery.event'), 'Halal Ingredients Week 2026');
    // The form list marks the forms this event changes.
    await pick(page, en('formGallery.form'), en('formGallery.changedForEvent', { form: en('forms.s04.title') }));

    const difference = page.getByRole('list').filter({ hasText: badgeChange(en, 'removed', 'forms.s04.lastName') });
    await expectVisible(difference, 'the difference of HALAL2026 from the base S04');
    const lines = await difference.getByRole('listitem').allTextContents();
    expect(lines).toEqual(
      expect.arrayContaining([
        badgeChange(en, 'removed', 'forms.s04.lastName'),
        badgeChange(en, 'nowRequired', 'forms.s04.companyOnBadge'),
        en('formGallery.change.relabelled', {
          from: en('formGallery.inList', { field: en('forms.s04.firstName'), list: en('forms.s04.badges') }),
          to: en('forms.s04.fullName'),
        }),
      ]),
    );
    // The form as the exhibitor sees it, filled with sample data: the relabelled field, no last name.
    await expectVisible(field(page, en('forms.s04.fullName')), 'the Full name field of the patched form');
    expect(await field(page, en('forms.s04.lastName')).count()).toBe(0);
    expect(await field(page, en('forms.s04.fullName')).inputValue()).not.toBe('');
    // The choice is in the address: a link shows the same.
    const address = new URL(page.url());
    expect([address.searchParams.get('form'), address.searchParams.get('event')]).toEqual(['s04', 'HALAL2026']);

    // In Japanese: the labels and the difference in Japanese.
    await pick(page, en('formGallery.language'), '日本語');
    await expectVisible(field(page, ja('forms.s04.fullName')), 'the Japanese Full name label');
    await expectVisible(page.getByText(badgeChange(ja, 'removed', 'forms.s04.lastName'), { exact: true }), 'the difference in Japanese');
    expect(await page.locator('[lang="ja"]').count()).toBeGreaterThan(0);

    // Sample data passes the event's validator.
    await page.getByRole('button', { name: ja('formGallery.trySubmit'), exact: true }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: ja('formGallery.accepted') }), 'the sample data accepted');

    // An empty form: the list's own message (an empty badge list), as the exhibitor would read it.
    await pick(page, en('formGallery.data'), en('formGallery.dataEmpty'));
    await page.getByRole('button', { name: ja('formGallery.trySubmit'), exact: true }).click();
    const problems = page.getByRole('alert').filter({ hasText: ja('formRuntime.problems.title', { count: 1 }) });
    await expectVisible(problems, 'the problems of an empty S04 submission');
    expect(await problems.getByRole('listitem').allTextContents()).toEqual([ja('validation.atLeastOneBadge')]);

    // Another form, empty, a link away: every required field of S01 is listed.
    const shared = new URL(page.url());
    shared.searchParams.set('form', 's01');
    await page.goto(shared.toString());
    await page.getByRole('button', { name: ja('formGallery.trySubmit'), exact: true }).click();
    const required = page
      .getByRole('alert')
      .getByRole('listitem')
      .filter({ hasText: ja('validation.required') });
    await expectVisible(required, 'the required-field messages of an empty S01');
    expect(await required.count()).toBeGreaterThan(1);
    // Still Japanese, still the chosen event: the address held the choice.
    expect(await page.getByRole('combobox', { name: en('formGallery.event'), exact: true }).textContent()).toContain('Halal Ingredients Week 2026');
  });
});
