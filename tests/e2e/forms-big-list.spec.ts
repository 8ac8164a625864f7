import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';
import { submitButton } from './support/form-page';

// F5 F9: S04 as a big show's exhibitor has it, 200 badges (the quota raised to 200). The list is
// laid out only near the screen and typing reaches the form data when the user pauses: what is
// typed into badge 150 shows there and is validated beside its field in the user's language, adding
// and removing badges still work, and the submission carries every badge.

const portal = usePortal();
const session = useBrowser();

const S04 = '/myParticipation/exhibitorBadges';
const COUNT = 200;
/** What a step on 200 badges (a validation of all of them, adding one) may take on a busy CI machine. */
const SLOW_MS = 30_000;
const TEST_MS = 240_000;
const badgeItems = (page: Page) => page.locator('.rjsf-field-array .rjsf-field-object');

const FIRST_NAMES = ['Aisyah', 'Wei Ling', 'Ravi', 'Siti', 'Daniel', 'Mei', 'Haruto', 'Priya', 'Farid', 'Nguyen'];
const LAST_NAMES = [
  'Rahman',
  'Tan',
  'Kumar',
  'Nurhaliza',
  "O'Brien",
  'Chen',
  'Tran',
  'Sato',
  'Lim',
  'Ismail',
  'Wong',
  'Lee',
  'Abdullah',
  'Ng',
  'Pillai',
  'Goh',
  'Yusof',
  'Ong',
  'Teo',
  'Razak',
];

/** 200 valid badges (real names, no digits), e-mails unique. */
const BADGES = Array.from({ length: COUNT }, (_, i) => ({
  firstName: FIRST_NAMES[i % 10]!,
  lastName: LAST_NAMES[Math.floor(i / 10)]!,
  email: `guest${i + 1}@borneo-botanica.example`,
  extra: false,
}));

let participationId = 0;
let quotaBefore: number | undefined;

beforeAll(async () => {
  participationId = await demoParticipationId(portal);
  const quota = await portal.app.db.selectFrom('quotas').select('value').where('participation_id', '=', participationId).where('name', '=', 'badges').executeTakeFirst();
  quotaBefore = quota?.value;
  if (quota) await portal.app.db.updateTable('quotas').set({ value: COUNT }).where('participation_id', '=', participationId).where('name', '=', 'badges').execute();
  else {
    const { event_id } = await portal.app.db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
    await portal.app.db.insertInto('quotas').values({ event_id, participation_id: participationId, name: 'badges', value: COUNT }).execute();
  }
});

afterAll(async () => {
  const quotas = portal.app.db.deleteFrom('quotas').where('participation_id', '=', participationId).where('name', '=', 'badges');
  if (quotaBefore === undefined) await quotas.execute();
  else await portal.app.db.updateTable('quotas').set({ value: quotaBefore }).where('participation_id', '=', participationId).where('name', '=', 'badges').execute();
});

beforeEach(async () => {
  await portal.app.db.deleteFrom('form_entries').where('participation_id', '=', participationId).execute();
  await portal.app.db
    .insertInto('form_entries')
    .values({ participation_id: participationId, form_id: 's04', data: JSON.stringify({ badges: BADGES }), status: 'draft' })
    .execute();
});

/** Opens S04 and waits until all its badges are there. */
async function openBadges(page: Page) {
  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}${S04}`);
  // 200 badges take a while to render on a busy CI machine.
  await expectVisible(submitButton(page), 'the S04 form', SLOW_MS).catch(async (error: Error) => {
    throw new Error(`${error.message}; the page shows: ${(await page.locator('body').innerText()).slice(0, 300)}`);
  });
  await expect.poll(() => badgeItems(page).count(), { timeout: SLOW_MS }).toBe(COUNT);
}

describe('S04 with 200 badges', () => {
  test(
    'typing into badge 150 shows what was typed and its message beside the field; the submission carries all 200 badges',
    async () => {
      const { page } = session;
      await openBadges(page);
      const badge = badgeItems(page).nth(149);
      const firstName = field(badge, en('forms.s04.firstName'));
      const lastName = field(badge, en('forms.s04.lastName'));
      expect(await firstName.inputValue()).toBe(BADGES[149]!.firstName);

      // Key by key, as a user types (each key goes through the input's buffer, not one fill).
      await firstName.click();
      await firstName.press('End');
      await firstName.pressSequentially(' Van');
      expect(await firstName.inputValue()).toBe(`${BADGES[149]!.firstName} Van`);
      await lastName.fill('');

      await submitButton(page).click({ timeout: SLOW_MS });
      const required = badge.getByText(en('validation.required'), { exact: true });
      await expectVisible(required, 'the message "This field is required." at badge 150', SLOW_MS);
      expect(await lastName.getAttribute('aria-invalid')).toBe('true');
      // Only badge 150 is wrong.
      expect(
        await page
          .getByRole('alert')
          .filter({ hasText: en('formRuntime.problems.title', { count: 1 }) })
          .count(),
      ).toBe(1);

      // Fixed key by key: the message leaves once the user pauses, without leaving the field.
      await lastName.pressSequentially('Nurhaliza');
      await expectHidden(required, 'the message at badge 150', SLOW_MS);
      expect(await lastName.inputValue()).toBe('Nurhaliza');

      const submitted = page.waitForRequest((request) => request.url().endsWith('/oga/forms/s04/submit') && request.method() === 'POST', { timeout: SLOW_MS * 2 });
      // Validating 200 badges and showing the result takes seconds on a busy CI machine.
      await submitButton(page).click({ timeout: SLOW_MS });
      await page
        .getByRole('dialog')
        .getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true })
        .click({ timeout: SLOW_MS });
      const sent = (await submitted).postDataJSON() as { data: { badges: Array<Record<string, unknown>> } };
      expect(sent.data.badges).toHaveLength(COUNT);
      expect(sent.data.badges[149]).toMatchObject({ firstName: `${BADGES[149]!.firstName} Van`, lastName: 'Nurhaliza', email: 'guest150@borneo-botanica.example' });
      expect(sent.data.badges.map((item) => item.email)).toEqual(BADGES.map((item) => item.email));
      await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted. Thank you!"', SLOW_MS);
      const entry = await portal.app.db
        .selectFrom('form_entries')
        .select(['status', 'submitted_data'])
        .where('participation_id', '=', participationId)
        .where('form_id', '=', 's04')
        .executeTakeFirstOrThrow();
      expect(entry.status).toBe('submitted');
      const stored = (typeof entry.submitted_data === 'string' ? JSON.parse(entry.submitted_data) : entry.submitted_data) as { badges: unknown[] };
      expect(stored.badges).toHaveLength(COUNT);
    },
    TEST_MS,
  );

  test(
    'a badge is added at the end of 200 and filled in, and badge 150 is removed: the list and the saved draft follow',
    async () => {
      const { page } = session;
      await openBadges(page);
      await page.getByRole('button', { name: 'Add a badge', exact: true }).click({ timeout: SLOW_MS });
      await expect.poll(() => badgeItems(page).count(), { timeout: SLOW_MS }).toBe(COUNT + 1);
      const added = badgeItems(page).nth(COUNT);
      await field(added, en('forms.s04.firstName')).fill('Mei');
      await field(added, en('forms.s04.lastName')).fill('Chen');
      await field(added, en('forms.s04.email')).fill('mei@borneo-botanica.example');
      expect(await field(added, en('forms.s04.firstName')).inputValue()).toBe('Mei');

      await page.getByRole('button', { name: 'Remove badge 150', exact: true }).click({ timeout: SLOW_MS });
      await expect.poll(() => badgeItems(page).count(), { timeout: SLOW_MS }).toBe(COUNT);
      // What was badge 151 is badge 150 now.
      expect(await field(badgeItems(page).nth(149), en('forms.s04.email')).inputValue()).toBe(BADGES[150]!.email);
      expect(await field(badgeItems(page).nth(COUNT - 1), en('forms.s04.firstName')).inputValue()).toBe('Mei');

      const saved = page.waitForRequest((request) => request.url().endsWith('/oga/forms/s04/draft') && request.method() === 'PUT', { timeout: SLOW_MS * 2 });
      await page.getByRole('button', { name: en('formRuntime.saveDraft'), exact: true }).click({ timeout: SLOW_MS });
      const draft = (await saved).postDataJSON() as { data: { badges: Array<Record<string, unknown>> } };
      expect(draft.data.badges).toHaveLength(COUNT);
      expect(draft.data.badges.map((item) => item.email)).toEqual([...BADGES.filter((_, i) => i !== 149).map((item) => item.email), 'mei@borneo-botanica.example']);
    },
    TEST_MS,
  );
});
