import { describe, expect, test } from 'vitest';
import { toEventLocal } from '../../src/engine/organiser-events';
import { setParticipationDeadline } from '../support/settings';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// K2 O2 F9: an event at UTC+07:00 whose organiser works from a browser at UTC+08:00. The reopen
// dialog says the time is event time; 18:00 typed there is 18:00 on the exhibitor's forms list;
// only the reopened form opens (the other badge forms share its deadline name, not its reopening).

const portal = usePortal();
const session = useBrowser({ timezoneId: 'Asia/Kuala_Lumpur' });
const OFFSET = 7 * 60;

describe('event time in the console', () => {
  test('the organiser reopens S04 at 18:00 event time for Kopi; Kopi sees 18:00 (UTC+07:00) and only S04 open', async () => {
    const db = portal.app.db;
    const kopi = (await db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow()).participation_id!;
    const event = (await db.selectFrom('participations').select('event_id').where('id', '=', kopi).executeTakeFirstOrThrow()).event_id;
    await db.updateTable('events').set({ utc_offset_minutes: OFFSET }).where('id', '=', event).execute();
    await setParticipationDeadline(db, kopi, 'badges', new Date(Date.now() - 60 * 60_000));
    const day = toEventLocal(new Date(Date.now() + 2 * 86_400_000).toISOString(), OFFSET).slice(0, 10);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/progress`);
    const closed = page.getByRole('button', { name: `Kopi Nusantara S04: ${en('formRuntime.status.closed')}` });
    await expectVisible(closed, "Kopi's closed S04 in the matrix");
    await closed.click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByRole('textbox', { name: en('organiser.progress.newDeadline') });
    await expectVisible(field, 'the new deadline field');
    await expectVisible(dialog.getByText(en('console.eventTime', { offset: 'UTC+07:00' })), 'the zone of the new deadline');
    await field.fill(`${day}T18:00`);
    await dialog.getByRole('button', { name: en('organiser.progress.reopen') }).click();
    await expectVisible(page.getByRole('button', { name: `Kopi Nusantara S04: ${en('formRuntime.status.notStarted')}` }), 'S04 open again');

    const exhibitor = await (await session.newContext()).newPage();
    await loginAndLand(exhibitor, portal.url, 'limited', DEMO_PASSWORD);
    await exhibitor.goto(`${portal.url}/orderForms`);
    const row = (formId: string) => exhibitor.getByRole('row').filter({ hasText: en(`forms.${formId}.title`) });
    await expectVisible(row('s04').getByText('18:00 (UTC+07:00)'), 'S04 due at 18:00 event time');
    await expectVisible(row('s04').getByText(en('formRuntime.status.notStarted')), 'S04 open');
    for (const formId of ['s06', 's07']) await expectVisible(row(formId).getByText(en('formRuntime.status.closed')), `${formId} still closed`);
    expect(await row('s04').getByText('18:00 (UTC+07:00)').count()).toBe(1);
  });
});
