import { describe, test } from 'vitest';
import { setParticipationDeadline } from '../support/settings';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// Progress matrix on a long list: the organiser finds an exhibitor by name (accents folded) and
// keeps the rows where one form has one status.

const portal = usePortal();
const session = useBrowser();

describe('progress matrix search and filters', () => {
  test('search by name and filter by form and status keep only the matching exhibitors', async () => {
    const db = portal.app.db;
    const kopi = (await db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow()).participation_id!;
    await setParticipationDeadline(db, kopi, 'badges', new Date(Date.now() - 60 * 60_000));
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/progress`);
    const cell = (exhibitor: string, status: string) => page.getByRole('button', { name: `${exhibitor} S04: ${en(`formRuntime.status.${status}`)}` });
    await expectVisible(cell('Kopi Nusantara', 'closed'), 'Kopi in the matrix');

    await page.getByRole('searchbox', { name: en('organiser.progress.search') }).fill('borneo');
    await cell('Kopi Nusantara', 'closed').waitFor({ state: 'detached' });
    await expectVisible(page.getByRole('rowheader', { name: /Borneo Botanica/ }), 'Borneo found');
    await page.getByRole('searchbox', { name: en('organiser.progress.search') }).fill('');

    await page.getByRole('combobox', { name: en('organiser.progress.filterForm') }).click();
    await page.getByRole('option', { name: /^S04/ }).click();
    await page.getByRole('combobox', { name: en('organiser.progress.filterStatus') }).click();
    await page.getByRole('option', { name: en('formRuntime.status.closed') }).click();
    await expectVisible(cell('Kopi Nusantara', 'closed'), 'Kopi with S04 closed');
    await page.getByRole('rowheader', { name: /Borneo Botanica/ }).waitFor({ state: 'detached' });
  });
});
