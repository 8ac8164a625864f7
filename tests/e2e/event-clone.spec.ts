import { describe, expect, test } from 'vitest';
import { hashPassword } from '../../src/server/lib/passwords';
import { expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { submitButton } from './support/form-page';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// O2 / F11: "New event from …" on the organiser's events list makes next year's event from the
// demo event and opens it for review; an exhibitor carried over and invited to it finds the demo
// event's own S01 question and its manuals.

const portal = usePortal();
const session = useBrowser();

describe('an event made from another', () => {
  test('An event cloned from the demo event keeps its forms and content', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/events`);
    await page.getByRole('button', { name: `${en('organiser.events.cloneAction')} AFHE2027` }).click();
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByText(en('organiser.events.cloneIntro')), 'what a clone copies');
    await field(dialog, en('organiser.event.nameIn', { language: 'English' })).fill('ASEAN Food & Hospitality Expo 2028');
    await expect.poll(() => field(dialog, en('organiser.events.cloneFirstShowDay')).inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A code in use is said beside the code, and the dialog stays open with what was typed.
    await field(dialog, en('organiser.event.code')).fill('HALAL2026');
    await dialog.getByRole('button', { name: en('organiser.events.cloneCreate') }).click();
    await expectVisible(dialog.getByText(en('organiser.validation.codeTaken')), 'the code-taken message in the dialog');
    await field(dialog, en('organiser.event.code')).fill('AFHE2028');
    await dialog.getByRole('button', { name: en('organiser.events.cloneCreate') }).click();

    // The new event's settings open for review, with its own code.
    // The page moves to the new event once the server has made it (read the row after, never before).
    await waitForPath(page, '/organiser/events/edit');
    const clone = await portal.app.db.selectFrom('events').select(['id', 'code']).where('code', '=', 'AFHE2028').executeTakeFirstOrThrow();
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(clone.id));
    await expectVisible(
      page.getByText(en('organiser.events.cloned', { code: 'AFHE2028', event: 'ASEAN Food & Hospitality Expo 2027' }), { exact: false }),
      'the toast naming both events',
    );
    await expect.poll(() => field(page, en('organiser.event.code')).inputValue()).toBe('AFHE2028');

    // Borneo Botanica was carried over; its invitation to the new event is an account of that participation.
    const participation = await portal.app.db
      .selectFrom('participations')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .select('participations.id')
      .where('participations.event_id', '=', clone.id)
      .where('exhibitors.code', '=', 'BORNEO')
      .executeTakeFirstOrThrow();
    await portal.app.db
      .insertInto('users')
      .values({
        login: 'borneo.2028',
        login_key: 'borneo.2028',
        email: 'next@borneo-botanica.example',
        display_name: 'Next Year',
        password_hash: await hashPassword(DEMO_PASSWORD),
        role: 'exhibitor',
        participation_id: participation.id,
        event_id: clone.id,
        status: 'active',
        lead_quota: null,
        created_by: null,
      })
      .execute();

    const exhibitorContext = await session.newContext();
    const exhibitor = await exhibitorContext.newPage();
    await loginAndLand(exhibitor, portal.url, 'borneo.2028', DEMO_PASSWORD);
    await exhibitor.goto(`${portal.url}/myParticipation/promotionProfile`);
    await expectVisible(submitButton(exhibitor), 'S01 with its Submit button');
    await expectVisible(exhibitor.getByRole('checkbox', { name: en('forms.s01.halalCertified') }), "the demo event's own S01 question");
    await exhibitor.goto(`${portal.url}/manuals`);
    await expectVisible(exhibitor.getByRole('link').filter({ hasText: 'Health and safety rules' }), "the demo event's manual");
  });
});
