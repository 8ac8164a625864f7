import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { empty, pdf } from '../support/fixtures';
import { expectHidden, expectVisible, field, loginAndLand, pathOf, useBrowser, waitForPath } from './support/browser';
import { en, text } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';
import { confirmSubmit, submitButton } from './support/form-page';

// The participation forms as an exhibitor uses them: the forms list (F1), the badge form S04
// (add/remove items, quota V7, unique and half-width e-mails V1, drafts and submission F9), the
// closed S01 and the booth design upload of S03 (V3). Every test starts from no saved entries.

const portal = usePortal();
const session = useBrowser();

beforeEach(async () => {
  await portal.app.db.deleteFrom('form_entries').execute();
});

const S01 = '/myParticipation/promotionProfile';
const S03 = '/myParticipation/boothInfo';
const S04 = '/myParticipation/exhibitorBadges';

/** Opens a form screen and waits until its form is there (the Submit button). */
async function openForm(page: Page, path: string) {
  await page.goto(`${portal.url}${path}`);
  await expectVisible(submitButton(page), `the form of ${path} with its Submit button`);
}

/** The status chip of the open form ("Not started", "Draft", "Submitted", "Closed"). */
const statusChip = (page: Page, status: string) =>
  page
    .getByRole('main')
    .locator('.MuiChip-root')
    .filter({ hasText: new RegExp(`^${status}$`) });

/** The badges of S04 as shown: one block per item of the badge list. */
const badgeItems = (page: Page) => page.locator('.rjsf-field-array .rjsf-field-object');

interface Badge {
  first: string;
  last: string;
  email: string;
}

/** Adds a badge with the "+" (Add a badge) button and fills its fields, found by label inside the new item. */
async function addBadge(page: Page, badge: Partial<Badge>): Promise<Locator> {
  const before = await badgeItems(page).count();
  await page.getByRole('button', { name: 'Add a badge', exact: true }).click();
  const item = badgeItems(page).nth(before);
  await expectVisible(field(item, en('forms.s04.firstName')), `badge ${before + 1} with its First name field`);
  if (badge.first !== undefined) await field(item, en('forms.s04.firstName')).fill(badge.first);
  if (badge.last !== undefined) await field(item, en('forms.s04.lastName')).fill(badge.last);
  if (badge.email !== undefined) await field(item, en('forms.s04.email')).fill(badge.email);
  return item;
}

async function badgeValues(page: Page): Promise<Badge[]> {
  const values: Badge[] = [];
  for (const item of await badgeItems(page).all()) {
    values.push({
      first: await field(item, en('forms.s04.firstName')).inputValue(),
      last: await field(item, en('forms.s04.lastName')).inputValue(),
      email: await field(item, en('forms.s04.email')).inputValue(),
    });
  }
  return values;
}

const BADGES: Badge[] = [
  { first: 'Aisyah', last: 'Rahman', email: 'aisyah@borneo-botanica.example' },
  { first: 'Wei Ling', last: 'Tan', email: 'weiling@borneo-botanica.example' },
  { first: 'Ravi', last: 'Kumar', email: 'ravi@borneo-botanica.example' },
  { first: 'Siti', last: 'Nurhaliza', email: 'siti@borneo-botanica.example' },
  { first: 'Daniel', last: "O'Brien", email: 'daniel@borneo-botanica.example' },
  { first: 'Mei', last: 'Chen', email: 'mei@borneo-botanica.example' },
];

/** The forms-list row of a form, by its title. */
const listRow = (table: Locator, title: string) => table.getByRole('row').filter({ has: table.page().getByText(title, { exact: true }) });

describe('participation forms', () => {
  test('F1: /orderForms lists Mandatory and Optional Forms, S01 closed, S02 waiting for S01; every Open link leads to its form with its title', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    const mandatory = page.getByRole('table', { name: en('menu.mandatoryForms'), exact: true });
    const optional = page.getByRole('table', { name: en('formRuntime.list.optional'), exact: true });
    await expectVisible(mandatory, 'the "Mandatory Forms" table');
    await expectVisible(optional, 'the "Optional Forms" table');
    await expectVisible(page.getByRole('heading', { level: 2, name: 'Mandatory Forms', exact: true }), 'the heading "Mandatory Forms"');
    await expectVisible(page.getByRole('heading', { level: 2, name: 'Optional Forms', exact: true }), 'the heading "Optional Forms"');

    const s01 = listRow(mandatory, en('forms.s01.title'));
    expect(await s01.count(), 'S01 is listed once under Mandatory Forms').toBe(1);
    expect((await s01.getByRole('cell').nth(2).innerText()).trim(), 'S01 status').toBe(en('formRuntime.status.closed'));
    expect(await s01.getByRole('link', { name: en('formRuntime.list.open'), exact: true }).count(), 'a closed form has no Open link').toBe(0);

    const s02 = listRow(mandatory, en('forms.s02.title'));
    // F10: S01 closed before it was submitted: S02 says so and whom to ask, not just "submit S01 first".
    const closedPrerequisite = en('formRuntime.prerequisiteClosed', { forms: 'S01', supportEmail: 'exhibitor-support@afhe-expo.example' });
    expect(await s02.getByRole('cell').first().innerText()).toContain(closedPrerequisite);
    expect(closedPrerequisite).toBe(
      'S01 closed at its deadline before it was submitted, and this form needs it first. Ask the organiser (exhibitor-support@afhe-expo.example) to reopen it.',
    );

    for (const id of ['s03', 's04']) {
      expect(await listRow(mandatory, en(`forms.${id}.title`)).count(), `${id} under Mandatory Forms`).toBe(1);
      expect(await listRow(optional, en(`forms.${id}.title`)).count(), `${id} not under Optional Forms`).toBe(0);
    }
    expect(await listRow(optional, en('forms.s06.title')).count(), 'S06 under Optional Forms').toBe(1);

    // Every open form: its Open link leads to its screen, titled with the form's name.
    const openForms: Array<{ title: string; href: string }> = [];
    for (const row of await page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: en('formRuntime.list.open'), exact: true }) })
      .all()) {
      openForms.push({
        title: (await row.getByRole('cell').first().getByRole('link').first().innerText()).trim(),
        href: (await row.getByRole('link', { name: en('formRuntime.list.open'), exact: true }).getAttribute('href')) ?? '',
      });
    }
    expect(openForms.map((form) => form.title)).toEqual(['s02', 's03', 's04', 's05', 's06', 's07', 's08', 'vip'].map((id) => en(`forms.${id}.title`)));
    for (const form of openForms) {
      const row = page.getByRole('row').filter({ has: page.getByText(form.title, { exact: true }) });
      await row.getByRole('link', { name: en('formRuntime.list.open'), exact: true }).click();
      await waitForPath(page, new URL(form.href, portal.url).pathname);
      expect(pathOf(page)).toMatch(/^\/myParticipation\//);
      await expectVisible(page.getByRole('heading', { level: 1, name: form.title, exact: true }), `the title bar "${form.title}"`);
      await expectVisible(submitButton(page), `the form "${form.title}"`);
      await page.goBack();
      await expectVisible(mandatory, 'the forms list again');
    }
  });

  test('F5/V7/F9: six badges exceed the quota of 5 and are not submitted; with five the form is submitted, kept after a reload and listed as Submitted', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S04);
    await expectVisible(statusChip(page, en('formRuntime.status.notStarted')), 'the status "Not started"');
    for (const badge of BADGES) await addBadge(page, badge);
    expect(await badgeItems(page).count()).toBe(6);

    await submitButton(page).click();
    await expectVisible(page.getByText(en('validation.quota'), { exact: true }), 'the quota message');
    expect(en('validation.quota')).toBe('You have already reached your quota limit.');
    await expectHidden(page.getByText(en('formRuntime.submitted')), 'no "Submitted" notice');
    const token = await apiLogin(portal.url, 'demo');
    const refused = (await apiGet(portal.url, '/forms/s04', token)).data as { status: string };
    expect(refused.status, 'S04 is not submitted with six badges').not.toBe('submitted');

    await page.getByRole('button', { name: 'Remove badge 6', exact: true }).click();
    expect(await badgeItems(page).count()).toBe(5);
    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted. Thank you!"');
    expect(en('formRuntime.submitted')).toBe('Submitted. Thank you!');
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');
    await expectHidden(page.getByText(en('validation.quota'), { exact: true }), 'the quota message');

    await page.reload();
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted" after a reload');
    expect(await badgeValues(page)).toEqual(BADGES.slice(0, 5));

    await page.goto(`${portal.url}/orderForms`);
    const s04 = listRow(page.getByRole('table', { name: en('menu.mandatoryForms'), exact: true }), en('forms.s04.title'));
    await expectVisible(s04, 'the S04 row');
    expect((await s04.getByRole('cell').nth(2).innerText()).trim()).toBe(en('formRuntime.status.submitted'));
  });

  test('V1: the same e-mail on two badges and a full-width e-mail are refused beside the field', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S04);
    const first = await addBadge(page, BADGES[0]!);
    const second = await addBadge(page, { ...BADGES[1]!, email: BADGES[0]!.email });

    await submitButton(page).click();
    const unique = en('validation.uniqueItemProperty', { value: BADGES[0]!.email });
    expect(unique).toBe(`Emails in this list must be unique: ${BADGES[0]!.email} appears more than once.`);
    await expectVisible(page.getByText(unique, { exact: true }), `the message "${unique}"`);
    // Both entries that share the e-mail are marked, not only the second one.
    const shared = en('validation.duplicateEntry', { value: BADGES[0]!.email });
    for (const [which, badge] of [
      ['first', first],
      ['second', second],
    ] as const) {
      await expectVisible(badge.getByText(shared, { exact: true }), `"${shared}" at the ${which} badge`);
      expect(await field(badge, en('forms.s04.email')).getAttribute('aria-invalid'), `the ${which} e-mail is marked invalid`).toBe('true');
    }
    await expectHidden(page.getByText(en('formRuntime.submitted')), 'no "Submitted" notice');

    // F9: fixed, the mark leaves both entries at once, before any new submit.
    await field(second, en('forms.s04.email')).fill('another.person@borneo-botanica.example');
    await field(second, en('forms.s04.email')).blur();
    for (const [which, badge] of [
      ['first', first],
      ['second', second],
    ] as const) {
      await expectHidden(badge.getByText(shared, { exact: true }), `"${shared}" at the ${which} badge once the e-mails differ`);
    }

    await field(second, en('forms.s04.email')).fill('ａ@example.com');
    await submitButton(page).click();
    const fullWidth = en('validation.noFullWidth');
    expect(fullWidth).toBe('Full-width characters are not allowed.');
    await expectVisible(second.getByText(fullWidth, { exact: true }), `the message "${fullWidth}" at the second badge's e-mail`);
    expect(await field(second, en('forms.s04.email')).getAttribute('aria-invalid'), 'the e-mail field is marked invalid').toBe('true');
    await expectHidden(page.getByText(unique, { exact: true }), 'the uniqueness message');
    await expectHidden(page.getByText(en('formRuntime.submitted')), 'no "Submitted" notice');
    const token = await apiLogin(portal.url, 'demo');
    expect(((await apiGet(portal.url, '/forms/s04', token)).data as { status: string }).status).not.toBe('submitted');
  });

  test('F9: what the user types is saved as a draft by itself and is there after a reload', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S04);
    await addBadge(page, { first: 'Nurul' });
    // Autosave runs 1.5 s after the last change; nothing is clicked. Its "Saved" notice comes
    // with the server's answer, so the reload cannot overtake the save.
    await expectVisible(page.getByRole('status').getByText(en('success.saved'), { exact: true }), `the autosave notice "${en('success.saved')}"`, 5000);
    await page.reload();
    await expectVisible(statusChip(page, en('formRuntime.status.draft')), 'the status "Draft" after a reload');
    expect(await badgeItems(page).count()).toBe(1);
    expect(await field(badgeItems(page).first(), en('forms.s04.firstName')).inputValue()).toBe('Nurul');
  });

  test('F9: Submit pressed while an autosave is still on its way submits, without a false "someone else saved" conflict', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    // A slow network: the server saves the draft at once, its answer reaches the browser 1 s later.
    await page.route('**/oga/forms/s04/draft', async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ response });
    });
    await openForm(page, S04);
    const autosave = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith('/oga/forms/s04/draft'), { timeout: 5000 });
    await addBadge(page, BADGES[2]!);
    await autosave;
    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted. Thank you!"');
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');
    expect(await page.getByText(en('errors.staleVersion')).count(), 'no "someone else saved" message').toBe(0);
    expect(await submitButton(page).isEnabled(), 'the form stays usable').toBe(true);
  });

  test('F9: S01, past its deadline, says the submission is closed and cannot be submitted', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S01);
    const closed = en('errors.deadlinePassed');
    expect(closed).toBe('The submission is now closed as the deadline has passed.');
    await expectVisible(page.getByText(closed, { exact: true }), `the message "${closed}"`);
    await expectVisible(statusChip(page, en('formRuntime.status.closed')), 'the status "Closed"');
    expect(await submitButton(page).isDisabled(), 'Submit is disabled').toBe(true);
    expect(await page.getByRole('button', { name: en('formRuntime.saveDraft'), exact: true }).isDisabled(), 'Save draft is disabled').toBe(true);
    expect(await field(page, en('forms.s01.companyName')).isDisabled(), 'the fields are disabled').toBe(true);
  });

  test('V3: the booth design upload refuses an empty file and takes a real PDF, shown as a link', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S03);
    await expectVisible(page.getByText(en('forms.s03.boothDesign'), { exact: true }), 'the label "Booth design"');
    const choose = async (name: string, bytes: Uint8Array) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: new RegExp(`^(${en('formRuntime.upload.choose')}|${en('formRuntime.upload.replace')})$`) }).click();
      await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
    };

    await choose('design.pdf', empty());
    const emptyFile = en('validation.file.empty');
    expect(emptyFile).toBe('Cannot upload empty file!');
    await expectVisible(page.getByText(emptyFile, { exact: true }), `the message "${emptyFile}"`);
    expect(await page.getByRole('link', { name: 'design.pdf' }).count(), 'no file is taken').toBe(0);

    await choose('design.pdf', pdf());
    const link = page.getByRole('link', { name: 'design.pdf', exact: true });
    await expectVisible(link, 'the uploaded file "design.pdf" as a link');
    expect(await link.getAttribute('href')).toMatch(/^\/oga\/uploads\/[^/]+$/);
    // C3: opening the link gives the file itself (fetched with the session), not "Invalid session.".
    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('design.pdf');
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString('latin1'),
      'the downloaded file is the PDF',
    ).toBe('%PDF-');
    await expectHidden(page.getByText(emptyFile, { exact: true }), 'the empty-file message');
    await expectVisible(page.getByRole('button', { name: en('formRuntime.upload.replace'), exact: true }), 'the button "Replace file"');
  });

  test("F11: the demo event's overlay adds its own question to S01, with the rest of the form unchanged", async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'limited', DEMO_PASSWORD);
    await openForm(page, S01);
    await expectVisible(page.getByRole('checkbox', { name: en('forms.s01.halalCertified') }), `the overlay's question "${en('forms.s01.halalCertified')}"`);
    await expectVisible(field(page, en('forms.s01.companyName')), "the base form's company name");
  });

  test('L1 V6: in Japanese the form, its buttons and its error messages are Japanese', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}?lang=ja`);
    const submit = page.getByRole('button', { name: text('ja', 'formRuntime.submit'), exact: true });
    await expectVisible(submit, `the Japanese Submit button "${text('ja', 'formRuntime.submit')}"`);
    await expectVisible(page.getByText(text('ja', 'forms.s04.title'), { exact: true }).first(), 'the Japanese form title');
    await page.getByRole('button', { name: text('ja', 'forms.s04.addBadge'), exact: true }).click();
    await submit.click();
    const required = text('ja', 'validation.required');
    expect(required).not.toBe(en('validation.required'));
    await expectVisible(page.getByText(required, { exact: true }).first(), `the Japanese required message "${required}"`);
  });
});
