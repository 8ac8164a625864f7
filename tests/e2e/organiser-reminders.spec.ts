import { describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// The reminders page as the organiser uses it: the reminder days set on the event are shown,
// and "Send a reminder now" to exhibitors with mandatory forms missing sends them.

const portal = usePortal();
const session = useBrowser();

describe('organiser reminders page', () => {
  test('shows the event’s reminder days and sends a reminder to each ticked exhibitor', async () => {
    const db = portal.app.db;
    const organiser = await db.selectFrom('users').select('event_id').where('login_key', '=', 'organiser').executeTakeFirstOrThrow();
    await db
      .updateTable('events')
      .set({ reminder_days: JSON.stringify([14, 7, 1]) })
      .where('id', '=', organiser.event_id!)
      .execute();

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/reminders`);
    const days = page.getByLabel(en('reminders.days'));
    await expectVisible(days, 'the reminder days field');
    await expect.poll(() => days.inputValue(), { timeout: 10_000 }).toBe('14, 7, 1');

    const section = page.getByRole('region', { name: en('reminders.sendTitle') });
    const boxes = section.getByRole('listitem').getByRole('checkbox');
    await expectVisible(boxes.first(), 'an exhibitor with mandatory forms missing');
    const ticked = await boxes.count();
    for (let i = 0; i < ticked; i += 1) await boxes.nth(i).check();
    await page.getByRole('button', { name: en('reminders.send', { count: ticked }) }).click();
    await expectVisible(page.getByText(en('reminders.sentToast', { sent: ticked, skipped: 0 })), `${ticked} reminders sent`);
    const queued = await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'reminder').execute();
    expect(queued.length).toBeGreaterThanOrEqual(ticked);
  });
});
