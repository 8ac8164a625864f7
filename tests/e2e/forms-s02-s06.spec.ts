import { readFileSync } from 'node:fs';
import { pdfText } from '../support/pdf-text';
import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { jpegJfif, png } from '../support/fixtures';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal, demoParticipationId } from './support/portal';
import { confirmSubmit, submitButton } from './support/form-page';

// The product highlights S02 (F3 copy from the previous event, V3 product image dpi, F9 submit)
// and the visa invitation S06 with its PDF letter (F7), as the demo exhibitor uses them. Every
// test starts from no saved entries of the demo participation; the previous event's S02 entry
// that F3 copies from stays.

const portal = usePortal();
const session = useBrowser();

const S02 = '/myParticipation/productHighlights';
const S06 = '/myParticipation/visaInvitation';
const VISA_LETTERS = '/orderForms/visaInvitationDetail';

/** The demo exhibitor's participation in the demo event. */
const demoParticipation = () => demoParticipationId(portal);

beforeEach(async () => {
  await portal.app.db
    .deleteFrom('form_entries')
    .where('participation_id', '=', await demoParticipation())
    .execute();
});

/** S02 needs S01 submitted, and S01 is past its deadline for demo: S01 is marked submitted in the database. */
async function markS01Submitted() {
  await portal.app.db
    .insertInto('form_entries')
    .values({ participation_id: await demoParticipation(), form_id: 's01', data: '{}', submitted_data: '{}', status: 'submitted', submitted_at: new Date() })
    .execute();
}

/** Opens a form screen and waits until its form is there (the Submit button). */
async function openForm(page: Page, path: string) {
  await page.goto(`${portal.url}${path}`);
  await expectVisible(submitButton(page), `the form of ${path} with its Submit button`);
}

/** The list's add button says what it adds (a screen reader hears more than "Add"). */
const addProductButton = (page: Page) => page.getByRole('button', { name: en('forms.s02.addProduct'), exact: true });
const submittedNotice = (page: Page) => page.getByText(en('formRuntime.submitted'), { exact: true });

/** The status chip of the open form ("Not started", "Draft", "Submitted", "Closed"). */
const statusChip = (page: Page, status: string) =>
  page
    .getByRole('main')
    .locator('.MuiChip-root')
    .filter({ hasText: new RegExp(`^${status}$`) });

/** The items of the form's list, one block per item: the objects holding `label`'s text field. */
const listItems = (page: Page, label: string) => page.locator('.rjsf-field-array .rjsf-field-object').filter({ has: field(page, label) });
const products = (page: Page) => listItems(page, en('forms.s02.productName'));

/** Chooses a file for the upload field of `scope` as a user does: its button, then the file chooser. */
async function upload(scope: Locator, name: string, mimeType: string, bytes: Uint8Array) {
  const [chooser] = await Promise.all([scope.page().waitForEvent('filechooser'), scope.getByRole('button', { name: en('formRuntime.upload.choose'), exact: true }).click()]);
  await chooser.setFiles({ name, mimeType, buffer: Buffer.from(bytes) });
}

/** The product names as shown, in order. */
async function productNames(page: Page): Promise<string[]> {
  return Promise.all((await products(page).all()).map((item) => field(item, en('forms.s02.productName')).inputValue()));
}

/** Picks `option` in the MUI select labelled `label` inside `scope`. */
async function choose(scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
  await expectVisible(scope.getByRole('combobox', { name: label }).filter({ hasText: option }), `"${option}" chosen as ${label}`);
}

describe('S02 product highlights and S06 visa invitation', () => {
  test('F3 V3 F9: a product with a 300 dpi image is submitted and kept after a reload; a 72 dpi image is refused', async () => {
    const { page } = session;
    await markS01Submitted();
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S02);
    await expectVisible(statusChip(page, en('formRuntime.status.notStarted')), 'the status "Not started"');
    expect(await submitButton(page).isEnabled(), 'Submit is enabled once S01 is submitted').toBe(true);
    await expectHidden(page.getByText(en('errors.submitFormsFirst')), 'no "submit S01 first" warning');

    // The list needs at least one product: it starts empty (no blank entry nobody added), says so, and the user adds one (F9).
    await expectVisible(page.getByText(new RegExp(en('formRuntime.quota.needs', { count: 1 }))), '"at least 1 needed"');
    expect(await products(page).count(), 'no blank product').toBe(0);
    await addProductButton(page).click();
    const first = products(page).nth(0);
    await expectVisible(field(first, en('forms.s02.productName')), 'product 1 with its product name field');
    expect(await productNames(page)).toEqual(['']);
    await field(first, en('forms.s02.productName')).fill('Kelulut Stingless Bee Honey');
    await choose(first, en('forms.s02.category'), en('forms.s02.enum.category.healthOrganic'));
    await upload(first, 'kelulut-honey.jpg', 'image/jpeg', jpegJfif(300));
    const imageLink = first.getByRole('link', { name: 'kelulut-honey.jpg', exact: true });
    await expectVisible(imageLink, 'the product image "kelulut-honey.jpg" as a link');
    expect(await imageLink.getAttribute('href')).toMatch(/^\/oga\/uploads\/[^/]+$/);

    await addProductButton(page).click();
    const second = products(page).nth(1);
    await expectVisible(field(second, en('forms.s02.productName')), 'product 2 with its product name field');
    await field(second, en('forms.s02.productName')).fill('Sarawak Pepper');
    await upload(second, 'pepper-72dpi.jpg', 'image/jpeg', jpegJfif(72));
    const dpi = en('validation.file.dpi', { limit: 300, dpi: 72 });
    expect(dpi).toBe('The image must be at least 300 dpi (it has 72).');
    await expectVisible(second.getByText(dpi, { exact: true }), `the message "${dpi}" at product 2's image`);
    expect(await page.getByRole('link', { name: 'pepper-72dpi.jpg' }).count(), 'the 72 dpi image is not taken').toBe(0);

    expect(await productNames(page)).toEqual(['Kelulut Stingless Bee Honey', 'Sarawak Pepper']);
    await page.getByRole('button', { name: en('forms.s02.removeProduct', { number: 2 }), exact: true }).click();
    await expectHidden(page.getByText(dpi, { exact: true }), 'the dpi message, removed with its product');
    expect(await productNames(page)).toEqual(['Kelulut Stingless Bee Honey']);

    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(submittedNotice(page), `the notice "${en('formRuntime.submitted')}"`);
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');

    await page.reload();
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted" after a reload');
    await expectVisible(products(page).first(), 'the product after a reload');
    expect(await productNames(page)).toEqual(['Kelulut Stingless Bee Honey']);
    await expectVisible(
      products(page)
        .first()
        .getByRole('combobox', { name: en('forms.s02.category') })
        .filter({ hasText: en('forms.s02.enum.category.healthOrganic') }),
      'the category after a reload',
    );
    await expectVisible(products(page).first().getByRole('link', { name: 'kelulut-honey.jpg', exact: true }), 'the product image link after a reload');
  });

  test('F3: "Copy from my previous event" fills a fresh S02 with last year\'s two products', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S02);
    await expectVisible(statusChip(page, en('formRuntime.status.notStarted')), 'the status "Not started"');
    await expectVisible(addProductButton(page), 'the Add button of a fresh S02');
    expect(await productNames(page), 'a fresh S02 holds no product yet').toEqual([]);

    await page.getByRole('button', { name: en('formRuntime.inherit'), exact: true }).click();
    const inherited = en('success.inheritedProduct');
    expect(inherited).toBe('Inherited product successfully');
    await expectVisible(page.getByText(inherited, { exact: true }), `the message "${inherited}"`);
    await expectVisible(products(page).nth(1), 'two products');
    expect(await productNames(page)).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
  });

  test('F7: a submitted S06 applicant is listed under the visa letters and the letter downloads as a PDF', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S06);
    // The list needs at least one applicant: the user adds one (F9: no blank entry nobody added).
    await page.getByRole('button', { name: en('forms.s06.addApplicant'), exact: true }).click();
    const applicant = listItems(page, en('forms.s06.fullName')).first();
    await expectVisible(field(applicant, en('forms.s06.fullName')), 'applicant 1 with its full name field');
    expect(await listItems(page, en('forms.s06.fullName')).count(), 'one applicant').toBe(1);

    const fill = (key: string, value: string) => field(applicant, en(`forms.s06.${key}`)).fill(value);
    const date = (key: string, value: string) => applicant.getByLabel(en(`forms.s06.${key}`)).fill(value);
    await fill('fullName', 'Tan Wei Ming');
    await applicant.getByRole('radio', { name: en('forms.s06.enum.gender.male'), exact: true }).check();
    // L1: countries are chosen from the list (typing part of the name), stored as ISO codes.
    const country = async (key: string, typed: string, name: string) => {
      await applicant.getByRole('combobox', { name: en(`forms.s06.${key}`), exact: true }).fill(typed);
      await page.getByRole('option', { name, exact: true }).click();
    };
    await country('nationality', 'Chin', 'China');
    await date('dateOfBirth', '1985-04-12');
    await fill('placeOfBirth', 'Guangzhou');
    await fill('passportNumber', 'E12345678');
    await fill('passportPlaceOfIssue', 'Guangdong');
    await date('passportDateOfIssue', '2021-06-01');
    await date('passportDateOfExpiry', '2031-05-31');
    await date('dateOfArrival', '2027-03-15');
    await date('dateOfDeparture', '2027-03-22');
    await applicant.getByRole('spinbutton', { name: en('forms.s06.durationOfStay'), exact: true }).fill('7');
    await upload(applicant, 'passport.png', 'image/png', png());
    await expectVisible(applicant.getByRole('link', { name: 'passport.png', exact: true }), 'the passport photo "passport.png" as a link');
    await country('embassyCountry', 'china', 'China');
    await fill('embassyCity', 'Guangzhou');
    await fill('email', 'weiming.tan@example.com');
    await page.getByRole('checkbox', { name: en('forms.s06.confirmTruth') }).check();

    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(submittedNotice(page), `the notice "${en('formRuntime.submitted')}"`);
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');

    await page.goto(`${portal.url}${VISA_LETTERS}`);
    const row = page.getByRole('row').filter({ has: page.getByText('Tan Wei Ming', { exact: true }) });
    await expectVisible(row, 'the applicant "Tan Wei Ming" in the visa letters');
    await expectVisible(row.getByRole('cell', { name: 'E12345678', exact: true }), 'the passport number beside the name');

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: new RegExp(`^${en('documents.download')}`) }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('visa-invitation-Tan-Wei-Ming.pdf');
    const text = await pdfText(readFileSync(await download.path()));
    expect(text, 'the saved letter').toContain(en('forms.s06.letter.greeting'));
    expect(text).toContain('E12345678');

    // The same letter in Japanese, for a Japanese consulate: chosen on the page.
    await page.getByRole('combobox', { name: en('documents.language') }).click();
    await page.getByRole('option', { name: '日本語' }).click();
    const downloadingJapanese = page.waitForEvent('download');
    await row.getByRole('button', { name: new RegExp(`^${en('documents.download')}`) }).click();
    const japanese = await pdfText(readFileSync(await (await downloadingJapanese).path()));
    expect(japanese, 'the letter in Japanese').toContain('拝啓');
    expect(japanese).toContain('Tan Wei Ming');
    // L1: the nationality (stored as CN) is named in the letter's language.
    expect(japanese.replace(/\s+/g, '')).toContain('中国');
  });
});
