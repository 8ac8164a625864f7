import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// F5: S04's badge list filled from a spreadsheet as an exhibitor does it: download the
// template from the form page, fill it in a spreadsheet (here exceljs writes what a user types),
// choose it; the bad row is explained by row and column, nothing is added until the valid rows are
// accepted, and the form then submits.

const portal = usePortal();
const session = useBrowser();

beforeEach(async () => {
  await portal.app.db.deleteFrom('form_entries').execute();
});

const S04 = '/myParticipation/exhibitorBadges';
const badgeItems = (page: Page) => page.locator('.rjsf-field-array .rjsf-field-object');

const ROWS = [
  { first: 'Aisyah', last: 'Rahman', gender: 'Female', email: 'aisyah@borneo-botanica.example' },
  { first: 'Wei Ling', last: 'Tan', gender: '女性', email: 'weiling@borneo-botanica.example' },
  { first: 'Ravi', last: 'Kumar', gender: 'Male', email: 'ravi-at-borneo-botanica' },
  { first: 'Siti', last: 'Nurhaliza', gender: '', email: 'siti@borneo-botanica.example' },
  { first: 'Daniel', last: "O'Brien", gender: 'Male', email: 'daniel@borneo-botanica.example' },
];

describe('a list filled from a spreadsheet', () => {
  test('S04: the template is downloaded, an XLSX with one bad row is checked, the bad row explained, the other four added on accept, and the form submits', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}`);
    const submit = page.getByRole('button', { name: en('formRuntime.submit'), exact: true });
    await expectVisible(submit, 'the S04 form');

    // The template, as the user's spreadsheet program opens it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: en('listImport.download'), exact: true }).click()]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = (sheet.getRow(1).values as string[]).slice(1);
    for (const key of ['firstName', 'lastName', 'gender', 'email']) expect(headers).toContain(en(`forms.s04.${key}`));
    const at = (key: string) => headers.indexOf(en(`forms.s04.${key}`)) + 1;
    ROWS.forEach((row, index) => {
      const cells = sheet.getRow(index + 2);
      cells.getCell(at('firstName')).value = row.first;
      cells.getCell(at('lastName')).value = row.last;
      if (row.gender) cells.getCell(at('gender')).value = row.gender;
      cells.getCell(at('email')).value = row.email;
    });
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: en('listImport.fill'), exact: true }).click()]);
    await chooser.setFiles({ name: 'badges.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: filled });

    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByText(en('listImport.summary', { rows: 5, valid: 4, invalid: 1 }), { exact: true }), 'the summary of the rows read');
    await expectVisible(
      dialog.getByText(en('listImport.problemCell', { row: 4, column: en('forms.s04.email'), message: en('validation.email') }), { exact: true }),
      'the bad row explained by row and column',
    );
    // Nothing is added before the user accepts.
    expect(await badgeItems(page).count()).toBe(0);
    await dialog.getByRole('button', { name: en('listImport.addMany', { count: 4 }), exact: true }).click();
    await expectHidden(dialog, 'the report, closed');
    await expectVisible(page.getByText(en('listImport.addedMany', { count: 4 }), { exact: true }), 'the notice that the rows were added');

    expect(await badgeItems(page).count()).toBe(4);
    const shown = [];
    for (const item of await badgeItems(page).all()) shown.push(await field(item, en('forms.s04.email')).inputValue());
    expect(shown).toEqual(ROWS.filter((_, index) => index !== 2).map((row) => row.email));
    // The Japanese label of a choice was read as its code: the second badge is female.
    expect(
      await badgeItems(page)
        .nth(1)
        .getByRole('radio', { name: en('forms.s04.enum.gender.female'), exact: true })
        .isChecked(),
    ).toBe(true);

    await submit.click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true })
      .click();
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted. Thank you!"');
    const token = await apiLogin(portal.url, 'demo');
    const stored = (await apiGet(portal.url, '/forms/s04', token)).data as { status: string };
    expect(stored.status, 'S04 submitted with the four badges from the sheet').toBe('submitted');
  });
});
