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

  test('after the organiser switches to another event, the page shows that event’s days and exhibitors, not the previous event’s', async () => {
    const db = portal.app.db;
    const days = async (code: string, value: number[]) => {
      await db
        .updateTable('events')
        .set({ reminder_days: JSON.stringify(value) })
        .where('code', '=', code)
        .execute();
    };
    await days('AFHE2027', [3]);
    await days('AFHE2026', [14, 7, 1]);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/reminders`);
    const field = page.getByLabel(en('reminders.days'));
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe('3');
    const section = page.getByRole('region', { name: en('reminders.sendTitle') });
    await expectVisible(section.getByRole('listitem').first(), 'this event’s exhibitors with forms missing');

    await page.getByRole('link', { name: en('screens.organiserEvents') }).click();
    await page
      .getByRole('row', { name: /AFHE2026/ })
      .getByRole('button', { name: en('organiser.events.makeCurrent') })
      .click();
    await expectVisible(page.getByText(en('organiser.home.switched', { event: 'ASEAN Food & Hospitality Expo 2026' })), 'the switch confirmed');
    await page.getByRole('link', { name: en('screens.organiserReminders') }).click();
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe('14, 7, 1');

    // The exhibitors listed are the 2026 event's (their 2026 booths), none of the 2027 event's.
    const booths = await db
      .selectFrom('participations')
      .innerJoin('events', 'events.id', 'participations.event_id')
      .select(['participations.booth_num', 'events.code'])
      .where('events.code', 'in', ['AFHE2026', 'AFHE2027'])
      .execute();
    const only2027 = booths.filter((b) => b.code === 'AFHE2027' && !booths.some((o) => o.code === 'AFHE2026' && o.booth_num === b.booth_num));
    await expectVisible(section.getByRole('listitem').first(), 'the 2026 event’s exhibitors with forms missing');
    for (const booth of only2027) expect(await section.getByText(booth.booth_num, { exact: false }).count(), `no 2027 booth ${booth.booth_num}`).toBe(0);
  });
});
