import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, put, type TestApp } from './helpers';

// O1 F5: the approval list says why a submission waits — the booth height above the
// limit the event set — and what the extra badges cost at the event's price in its currency.

const badge = (n: number, extra = false) => ({ firstName: 'Aisyah', lastName: 'Rahman', email: `badge${n}@borneo.example`, ...(extra ? { extra: true } : {}) });

describe.each(ENGINES)('O1 approval reasons and fees on %s', (engine) => {
  let t: TestApp;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    organiser = await login(t.app, 'organiser');
    // The event's own limit and price: 3 m booths, extra badges at 12.50 USD.
    const current = (await get(t.app, '/oga/organiser/current-event', organiser)).data as { id: number };
    const eventUrl = `/oga/organiser/events/${current.id}`;
    const { id: _id, ...input } = (await get(t.app, eventUrl, organiser)).data as Record<string, unknown>;
    expect(bodyOf(await put(t.app, eventUrl, { ...input, currency: 'USD', settings: { extraBadgeFee: '12.5', boothHeightLimit: '3' } }, organiser))).toMatchObject({ code: 200 });
    const participation = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', participation).where('form_id', 'in', ['s03', 's04']).execute();
    const waiting = (form_id: string, data: unknown) => ({
      participation_id: participation,
      form_id,
      data: JSON.stringify(data),
      submitted_data: JSON.stringify(data),
      status: 'submitted' as const,
      approval_status: 'pending' as const,
      submitted_at: new Date(),
    });
    await t.app.db
      .insertInto('form_entries')
      .values([waiting('s03', { contractorType: 'contractor', boothHeight: 3.2 }), waiting('s04', { badges: [badge(1), badge(2, true), badge(3, true)] })])
      .execute();
  });
  afterAll(async () => t?.close());

  it('the booth card says it is above the event’s limit, the badge card the fee due, in the organiser’s language', async () => {
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ formCode: string; exhibitor: string; notes: string[] }>;
    const booth = waiting.find((w) => w.formCode === 'S03' && w.exhibitor === 'Borneo Botanica')!;
    expect(booth.notes).toEqual(["Booth construction height (m): 3.2, above the event's limit of 3"]);
    const badges = waiting.find((w) => w.formCode === 'S04' && w.exhibitor === 'Borneo Botanica')!;
    expect(badges.notes).toEqual(['Fee due for 2 extra: 25.00 USD (2 × 12.50 USD)']);
    const inJapanese = (await get(t.app, '/oga/approvals', organiser, { headers: { language: 'ja' } })).data as Array<{ formCode: string; exhibitor: string; notes: string[] }>;
    expect(inJapanese.find((w) => w.formCode === 'S04' && w.exhibitor === 'Borneo Botanica')!.notes).toEqual(['追加分 2 件の料金：25.00 USD（2 × 12.50 USD）']);
  });
});
