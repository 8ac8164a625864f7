import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { setParticipationDeadline } from '../support/settings';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// O2 end to end: an exhibitor's badge deadline has passed (the organiser moved it into the
// past) → the form is closed for it → the organiser reopens it from the progress matrix with a
// new deadline → the exhibitor submits → the matrix shows it → the badges export holds the names.

const portal = usePortal();
const session = useBrowser();

describe('organiser progress and reopen', () => {
  test('a closed S04 reopened for one exhibitor is submitted, shown in the matrix and in the badges export', async () => {
    const db = portal.app.db;
    const kopi = (await db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow()).participation_id!;
    await setParticipationDeadline(db, kopi, 'badges', new Date(Date.now() - 60 * 60_000));
    const token = await apiLogin(portal.url, 'limited');
    const forms = (await fetch(`${portal.url}/oga/forms`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as {
      data: Array<{ id: string; status: string }>;
    };
    expect(forms.data.find((f) => f.id === 's04')!.status).toBe('closed');

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/progress`);
    const closed = page.getByRole('button', { name: `Kopi Nusantara S04: ${en('formRuntime.status.closed')}` });
    await expectVisible(closed, "Kopi's closed S04 in the matrix");
    await closed.click();
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByLabel(en('organiser.progress.newDeadline')), 'the new deadline field');
    await dialog.getByRole('button', { name: en('organiser.progress.reopen') }).click();
    await expectVisible(page.getByRole('button', { name: `Kopi Nusantara S04: ${en('formRuntime.status.notStarted')}` }), 'S04 open again');

    const badges = {
      badges: [
        { firstName: 'Budi', lastName: 'Santoso', email: 'budi@kopi.example' },
        { firstName: 'Sari', lastName: 'Wulandari', email: 'sari@kopi.example' },
      ],
    };
    const submitted = await fetch(`${portal.url}/oga/forms/s04/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 0, data: badges }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(submitted.code).toBe(200);

    await page.reload();
    await expectVisible(page.getByRole('button', { name: `Kopi Nusantara S04: ${en('formRuntime.status.submitted')}` }), 'S04 submitted in the matrix');

    await page.goto(`${portal.url}/organiser/submissions`);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `${en('organiser.submissions.download')}: S04 ${en('forms.s04.title')}` }).click();
    const file = await downloading;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await file.path()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const firstNames = (sheet.getColumn(header.indexOf(en('forms.s04.firstName')) + 1).values as string[]).slice(2);
    expect(firstNames).toEqual(expect.arrayContaining(['Budi', 'Sari']));
  });
});
