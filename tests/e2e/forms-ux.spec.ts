import { beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, newContext, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { apiLinkCode, apiLogin, DEMO_PASSWORD, usePortal, demoParticipationId } from './support/portal';
import { clearDemoEntries, submitButton } from './support/form-page';

// Forms as an exhibitor meets them: a refused submit lists its problems (links that move
// focus) and never says "Saved", errors clear as fields are fixed (F9); a declaration starts
// unticked; a closed prerequisite says whom to ask (F10); editing a submitted S06 keeps its
// letters (F7 F9); the back arrow of a page opened with ?token= (Y2); Home cards (R5).

const portal = usePortal();
const session = useBrowser();

const S02 = '/myParticipation/productHighlights';
const S04 = '/myParticipation/exhibitorBadges';
const S06 = '/myParticipation/visaInvitation';
const VISA_LETTERS = '/orderForms/visaInvitationDetail';

/** The demo exhibitor's participation in the demo event. */
const demoParticipation = () => demoParticipationId(portal);

beforeEach(() => clearDemoEntries(portal));

async function openForm(page: Page, path: string) {
  await page.goto(`${portal.url}${path}`);
  await expectVisible(submitButton(page), `the form of ${path} with its Submit button`);
}

/** Waits until the demo's entry of `formId` in the database passes `check` (an autosave landed). */
async function waitForEntry(formId: string, check: (data: Record<string, unknown>) => boolean) {
  const participationId = await demoParticipation();
  for (;;) {
    const entry = await portal.app.db.selectFrom('form_entries').select('data').where('participation_id', '=', participationId).where('form_id', '=', formId).executeTakeFirst();
    if (entry && check(entry.data)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const APPLICANT = {
  fullName: 'Tan Wei Ming',
  gender: 'male',
  nationality: 'CN',
  dateOfBirth: '1985-04-12',
  placeOfBirth: 'Guangzhou',
  passportNumber: 'E12345678',
  passportPlaceOfIssue: 'Guangdong',
  passportDateOfIssue: '2021-06-01',
  passportDateOfExpiry: '2031-05-31',
  dateOfArrival: '2027-03-15',
  dateOfDeparture: '2027-03-22',
  durationOfStay: 7,
  embassyCountry: 'CN',
  embassyCity: 'Guangzhou',
  email: 'weiming.tan@example.com',
};

describe('forms without dead ends', () => {
  test('F9: a refused submit lists its problems with links to the fields, never says "Saved", and errors clear as fields are fixed', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S04);
    await page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }).click();
    const badge = page.locator('.rjsf-field-array .rjsf-field-object').first();
    await field(badge, en('forms.s04.firstName')).fill('Aisyah');
    await submitButton(page).click();

    const summary = page.getByRole('alert').filter({ hasText: /The form was not submitted\. Problems to fix: \d+/ });
    await expectVisible(summary, 'the summary of the problems');
    const lastNameProblem = summary.getByRole('link', { name: new RegExp(`^${en('forms.s04.lastName')}:`) });
    await expectVisible(lastNameProblem, 'a link to the last name problem');
    const problemsBefore = await summary.getByRole('link').count();

    // The autosave of the refused data lands in the database; the page still says what is wrong, not "Saved".
    await waitForEntry('s04', (data) => Array.isArray(data.badges) && data.badges.length === 1);
    await expectVisible(summary, 'the summary, still there after the autosave');
    expect(await page.getByText(en('success.saved'), { exact: true }).count(), 'no "Saved" after a refused submit').toBe(0);

    await lastNameProblem.click();
    const lastName = field(badge, en('forms.s04.lastName'));
    await page.waitForFunction((id) => document.activeElement?.id === id, await lastName.getAttribute('id'));

    // Fixed, the last name's problem goes at once: no new submit needed.
    await lastName.fill('Rahman');
    await expectHidden(lastNameProblem, 'the last name problem, gone once fixed');
    expect(await summary.getByRole('link').count()).toBe(problemsBefore - 1);
    await page.screenshot({ path: '.tmp/forms-ux-summary.png', fullPage: true });
  });

  test('F5 F9: S04 shows the quota in use, points to "Extra badge" over it, and the confirmation sums up entries and fees', async () => {
    const { page } = session;
    const badges = ['Aisyah', 'Wei Ling', 'Ravi', 'Siti', 'Daniel', 'Mei'].map((first, index) => ({
      firstName: first,
      lastName: 'Tan',
      email: `badge${index}@borneo-botanica.example`,
      extra: false,
    }));
    await portal.app.db
      .insertInto('form_entries')
      .values({ participation_id: await demoParticipation(), form_id: 's04', data: JSON.stringify({ badges }), status: 'draft' })
      .execute();
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S04);
    const list = en('forms.s04.badges');
    const flag = en('forms.s04.extra');
    await expectVisible(page.getByText(en('formRuntime.quota.inUse', { list, count: 6, limit: 5 }), { exact: true }), '"6 of 5 used"');
    await expectVisible(page.getByText(en('formRuntime.quota.overWithFlag', { over: 1, limit: 5, flag }), { exact: true }), 'the way out: tick "Extra badge"');

    await page.getByRole('checkbox', { name: flag }).last().check();
    await expectVisible(page.getByText(en('formRuntime.quota.inUse', { list, count: 5, limit: 5 }), { exact: true }), '"5 of 5 used"');
    const fee = en('formRuntime.quota.fee', { flag, count: 1, total: 'MYR10.00' });
    await expectVisible(page.getByText(fee, { exact: true }), 'the fee of the extra badge');
    await expectHidden(page.getByText(en('formRuntime.quota.overWithFlag', { over: 1, limit: 5, flag }), { exact: true }), 'no more over-quota warning');

    await submitButton(page).click();
    const dialog = page.getByRole('dialog', { name: en('formRuntime.confirm.title', { form: en('forms.s04.title') }) });
    await expectVisible(dialog, 'the confirmation');
    await expectVisible(dialog.getByText(en('formRuntime.confirm.entries', { list, count: 6 }), { exact: true }), '"Badges: 6 entries"');
    await expectVisible(dialog.getByText(fee, { exact: true }), 'the fee total in the confirmation');
    // Back to the form: nothing is submitted.
    await dialog.getByRole('button', { name: en('formRuntime.confirm.cancel'), exact: true }).click();
    await expectHidden(dialog, 'the confirmation, closed');
    const participationId = await demoParticipation();
    const entry = () =>
      portal.app.db
        .selectFrom('form_entries')
        .select(['status', 'approval_status'])
        .where('participation_id', '=', participationId)
        .where('form_id', '=', 's04')
        .executeTakeFirstOrThrow();
    expect((await entry()).status).toBe('draft');

    await submitButton(page).click();
    await dialog.getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true }).click();
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted"');
    expect(await entry()).toEqual({ status: 'submitted', approval_status: 'pending' });
  });

  test('F10: the submitted copy without ?form= leads back to the forms list', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms/detail`);
    await waitForPath(page, '/orderForms');
  });

  test('F9: the declaration of S06 starts unticked', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S06);
    const declaration = page.getByRole('checkbox', { name: en('forms.s06.confirmTruth') });
    await expectVisible(declaration, 'the declaration');
    expect(await declaration.isChecked(), 'the declaration is not ticked for the user').toBe(false);
  });

  test('F10: a prerequisite closed by its deadline says so on the form and whom to ask', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S02);
    await expectVisible(
      page.getByText(en('formRuntime.prerequisiteClosed', { forms: 'S01', supportEmail: 'exhibitor-support@afhe-expo.example' }), { exact: true }),
      'S01 closed, with the organiser to ask',
    );
    expect(await submitButton(page).isDisabled()).toBe(true);
  });

  test('F7 F9: editing a submitted S06 keeps its letters and says the changes are not submitted yet', async () => {
    const { page } = session;
    const data = JSON.stringify({ applicants: [APPLICANT], confirmTruth: true });
    await portal.app.db
      .insertInto('form_entries')
      .values({ participation_id: await demoParticipation(), form_id: 's06', data, submitted_data: data, status: 'submitted', submitted_at: new Date() })
      .execute();
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S06);
    await field(page, en('forms.s06.fullName')).fill('Tan Wei Ming Junior');
    await waitForEntry('s06', (saved) => (saved.applicants as Array<{ fullName: string }>)[0]?.fullName === 'Tan Wei Ming Junior');
    await expectVisible(page.getByText(en('formRuntime.changesNotSubmitted'), { exact: true }), '"changes not submitted yet"');
    await expectVisible(
      page
        .getByRole('main')
        .locator('.MuiChip-root')
        .filter({ hasText: new RegExp(`^${en('formRuntime.status.submitted')}$`) }),
      'the status, still "Submitted"',
    );

    await page.goto(`${portal.url}${VISA_LETTERS}`);
    await expectVisible(page.getByRole('row').filter({ has: page.getByText('Tan Wei Ming', { exact: true }) }), 'the letter of the submitted applicant');
  });

  test('Y2: a page opened with ?token= goes back to the forms list, not out of the portal', async () => {
    const token = await apiLinkCode(portal.url, await apiLogin(portal.url, 'demo'));
    const context = await newContext(session.browser);
    try {
      const page = await context.newPage();
      await page.goto(`${portal.url}${VISA_LETTERS}?token=${encodeURIComponent(token)}`);
      await waitForPath(page, VISA_LETTERS);
      expect(new URL(page.url()).searchParams.has('token'), 'the token left the address bar').toBe(false);
      await page.getByRole('button', { name: en('layout.back'), exact: true }).click();
      await waitForPath(page, '/orderForms');
    } finally {
      await context.close();
    }
  });

  test('R5: Home cards open the lead list and the sections of the promotion profile', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.getByRole('link', { name: new RegExp(`^${en('home.section.leads')}`) }).click();
    await waitForPath(page, '/digital-tools/leads');

    await page.goto(`${portal.url}/home`);
    await page.getByRole('link', { name: new RegExp(`^${en('home.section.goals')}`) }).click();
    await waitForPath(page, '/myParticipation/promotionProfile');
    const goals = page.getByText(en('forms.s01.goalsSection'), { exact: true });
    await expectVisible(goals, 'the Goals section');
    await page.waitForFunction(() => window.scrollY > 0);
    const box = await goals.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box && box.y >= 0 && box.y < viewport.height, 'the Goals section is in view').toBe(true);
  });
});
