import { beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal, demoParticipationId } from './support/portal';
import { submitButton } from './support/form-page';

// S03 is shared by the exhibitor and its booth contractor (P1 F4): the contractor
// submits its part, the exhibitor still submits its booth (the demo's S03 is submit-once, and the
// contractor's submission no longer locks the exhibitor out); the list shows each part's status.
// An empty S04 is no submission: it says how many badges it needs (F9). Errors show only after a
// first submit, clear as fields are fixed and show for a new problem when the user leaves the field.

const portal = usePortal();
const session = useBrowser();

const S03 = '/myParticipation/boothInfo';
const S04 = '/myParticipation/exhibitorBadges';

/** The demo exhibitor's participation in the demo event. */
const demoParticipation = () => demoParticipationId(portal);

const entryOf = async (formId: string) =>
  portal.app.db
    .selectFrom('form_entries')
    .selectAll()
    .where('participation_id', '=', await demoParticipation())
    .where('form_id', '=', formId)
    .executeTakeFirst();

beforeEach(async () => {
  await portal.app.db
    .deleteFrom('form_entries')
    .where('participation_id', '=', await demoParticipation())
    .execute();
});

async function submitAndConfirm(page: Page) {
  await submitButton(page).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true }).click();
  await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted"');
}

/** The status chip of one part of S03 as a list shows it ("Booth contractor's part: Submitted"). */
const partStatus = (page: Page, part: string, status: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByText(`${en(`forms.parts.${part}`)}:`, { exact: true }) })
    .getByText(en(`formRuntime.status.${status}`), { exact: true });

describe('shared S03 and the empty S04', () => {
  test('P1 F4: the contractor submits its part of S03, and the exhibitor still submits its booth; each part shows its own status', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo/builder', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S03}`);
    await expectVisible(submitButton(page), "the contractor's S03");
    await field(page, en('forms.s03.company')).fill('Rimba Stand Builders Sdn. Bhd.');
    await field(page, en('forms.s03.email')).fill('hafiz@rimba-stands.example');
    await field(page, en('forms.s03.contactPerson')).fill('Hafiz Ismail');
    await page.getByRole('radio', { name: en('forms.s03.enum.contractorType.contractor') }).check();
    await submitAndConfirm(page);
    await expectVisible(page.getByText(en('errors.submitOnce'), { exact: true }), "the contractor's part, closed by submit-once");
    expect((await entryOf('s03'))?.submitted_data).toMatchObject({ contractorType: 'contractor' });

    // The exhibitor: its booth part is open, the contractor's part shown as submitted and read-only.
    const exhibitor = await (await session.newContext()).newPage();
    await loginAndLand(exhibitor, portal.url, 'demo', DEMO_PASSWORD);
    await exhibitor.goto(`${portal.url}${S03}`);
    await expectVisible(submitButton(exhibitor), "the exhibitor's S03");
    await expectVisible(partStatus(exhibitor, 'contractor', 'submitted'), "the contractor's part: Submitted");
    await expectVisible(partStatus(exhibitor, 'exhibitor', 'notStarted'), "the exhibitor's part: Not started");
    await expectVisible(exhibitor.getByText(en('formRuntime.partLocked', { part: en('forms.parts.contractor') }), { exact: true }), "why the contractor's part cannot change");
    expect(await submitButton(exhibitor).isEnabled(), 'Submit open for the exhibitor').toBe(true);
    expect(await field(exhibitor, en('forms.s03.company')).isEditable(), "the contractor's company, read-only").toBe(false);
    const height = exhibitor.getByRole('spinbutton', { name: en('forms.s03.boothHeight') });
    await height.fill('2.3');
    await submitAndConfirm(exhibitor);
    const entry = await entryOf('s03');
    expect(entry?.submitted_data).toMatchObject({ contractorType: 'contractor', boothHeight: 2.3 });

    // The list shows both parts submitted.
    await exhibitor.goto(`${portal.url}/orderForms`);
    await waitForPath(exhibitor, '/orderForms');
    await expectVisible(partStatus(exhibitor, 'exhibitor', 'submitted'), "the exhibitor's part: Submitted in the list");
    await expectVisible(partStatus(exhibitor, 'contractor', 'submitted'), "the contractor's part: Submitted in the list");
  });

  test('F9: an empty S04 starts without a blank badge, says how many it needs, and is not submitted', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}`);
    await expectVisible(submitButton(page), 'the S04 form');
    expect(await field(page, en('forms.s04.firstName')).count(), 'no blank badge').toBe(0);
    await expectVisible(page.getByText(new RegExp(en('formRuntime.quota.needs', { count: 1 }))), '"at least 1 needed"');
    await submitButton(page).click();
    await expectVisible(page.getByRole('alert').getByText(en('validation.atLeastOneBadge'), { exact: false }), 'the problem: at least one badge');
    expect(await page.getByRole('dialog').count(), 'no confirmation').toBe(0);
    expect((await entryOf('s04'))?.status ?? null).not.toBe('submitted');
  });

  test('F9: errors show only after a first submit; then each clears as its field is fixed, and a new one shows when the user leaves its field', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}`);
    await expectVisible(submitButton(page), 'the S04 form');
    await page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }).click();
    const badge = page.locator('.rjsf-field-array .rjsf-field-object').first();
    const firstName = field(badge, en('forms.s04.firstName'));
    const lastName = field(badge, en('forms.s04.lastName'));
    const email = field(badge, en('forms.s04.email'));
    const emailError = badge.getByText(en('validation.email'), { exact: true });
    const required = badge.getByText(en('validation.required'), { exact: true });

    // Before any submit: a bad e-mail and fields left empty say nothing, even once left.
    await email.fill('not-an-email');
    await firstName.click();
    await lastName.click();
    await firstName.click();
    expect(await emailError.count(), 'no e-mail error before the first submit').toBe(0);
    expect(await required.count(), 'no "required" before the first submit').toBe(0);

    // The first submit shows them all: the e-mail, the first and the last name.
    await submitButton(page).click();
    await expectVisible(emailError, 'the e-mail error after the submit');
    await expectVisible(required.nth(1), 'both names required after the submit');

    // Fixed, an error clears while the user is still in the field.
    await email.fill('aisyah@borneo-botanica.example');
    await expectHidden(emailError, 'the e-mail error, gone once fixed');
    await lastName.fill('Rahman');
    await expectHidden(required.nth(1), 'the last name error, gone once fixed');
    await firstName.fill('Aisyah');
    await expectHidden(required, 'the first name error, gone once fixed');

    // A new problem shows when the user leaves the field, not while typing.
    await email.fill('aisyah@');
    expect(await emailError.count(), 'no error while still typing').toBe(0);
    await firstName.click();
    await expectVisible(emailError, 'the e-mail error once the field is left');
  });
});
