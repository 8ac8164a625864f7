import { describe, expect, test } from 'vitest';
import { formatEventTimeWithOffset } from '../../src/engine/locale-format';
import { setParticipationDeadline } from '../support/settings';
import { expectVisible, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// K2 L1: the show decides the order of day, month and year; the reader's language its words.
// The organiser of the demo show (an ASEAN show, UTC+08:00) sets day-month-year; its exhibitor,
// reading in English from a browser in New York, sees 26/03/2027 (not 03/26/2027) on the forms
// list, the home page and the devices page, each time in event time.

const portal = usePortal();
const session = useBrowser({ timezoneId: 'America/New_York' });

// 14:30 on 26 March 2027 at the show (UTC+08:00): a day above 12, so the order shows.
const BADGES_DUE = new Date('2027-03-26T06:30:00.000Z');
const DAY_FIRST = '26/03/2027, 14:30 (UTC+08:00)';

describe("the show's date order", () => {
  test('an organiser sets day-month-year; the exhibitor in English sees 26/03/2027 on the forms list, home and devices page, in event time', async () => {
    const db = portal.app.db;
    const demo = await db.selectFrom('users').select(['id', 'participation_id']).where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    const event = await db.selectFrom('events').select(['id', 'utc_offset_minutes']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    expect(event.utc_offset_minutes).toBe(480);
    await setParticipationDeadline(db, demo.participation_id!, 'badges', BADGES_DUE);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/events/edit?id=${event.id}`);
    const order = page.getByRole('combobox', { name: en('organiser.event.dateOrder') });
    await expectVisible(order, 'the date order of the event');
    await expect(order.textContent()).resolves.toContain('03/26/2027');
    await order.click();
    await page.getByRole('option', { name: en('organiser.event.dateOrders.dmy', { example: '26/03/2027' }) }).click();
    await page.getByRole('button', { name: en('organiser.event.save') }).click();
    await waitForPath(page, '/organiser/events');
    expect((await db.selectFrom('events').select('date_order').where('id', '=', event.id).executeTakeFirstOrThrow()).date_order).toBe('dmy');

    const exhibitor = await (await session.newContext()).newPage();
    await loginAndLand(exhibitor, portal.url, 'demo', DEMO_PASSWORD);
    await expectVisible(exhibitor.getByText(DAY_FIRST).first(), 'the badges deadline on the home page, day first');

    await exhibitor.goto(`${portal.url}/orderForms`);
    const s04 = exhibitor.getByRole('row').filter({ hasText: en('forms.s04.title') });
    await expectVisible(s04.getByText(DAY_FIRST), "S04's deadline on the forms list, day first");
    expect(await exhibitor.getByText('03/26/2027').count()).toBe(0);

    await exhibitor.goto(`${portal.url}/digital-tools/devices`);
    await exhibitor.getByRole('textbox', { name: en('leads.devices.name') }).fill('Booth phone dates');
    await exhibitor.getByRole('button', { name: en('leads.devices.add') }).click();
    await expectVisible(exhibitor.getByRole('textbox', { name: en('leads.devices.token') }), 'the new token');
    const device = await db.selectFrom('sessions').select('created_at').where('user_id', '=', demo.id).where('device_name', '=', 'Booth phone dates').executeTakeFirstOrThrow();
    // Event time (UTC+08:00), not New York's, in the show's order.
    const added = formatEventTimeWithOffset(device.created_at, { language: 'en', dateOrder: 'dmy' }, 480);
    expect(added).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(UTC\+08:00\)$/);
    const list = exhibitor.getByLabel(en('leads.devices.list'), { exact: true });
    await expectVisible(list.locator('time', { hasText: added }).first(), 'the time the device was added, day first in event time');
  });
});
