import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { eraseExpiredLeads, remindBeforeErasure } from '../../src/server/modules/organiser-privacy/jobs';
import { purgeOldExports } from '../../src/server/modules/files/jobs';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';
import { formatEventDay } from '../../src/engine/locale-format';

// Privacy of visitors' data: the organiser's retention period, the reminder and the
// scheduled erasure (leads, business cards, exports), one visitor's data exported and erased
// across exhibitors, every erasure audited without the erased data; old export files purged.

const DAY = 86_400_000;

describe.each(ENGINES)("visitors' privacy on %s", (engine) => {
  let t: TestApp;
  let organiser: string;
  let demo: string;
  let eventId: number;
  let demoParticipation: number;
  let limitedParticipation: number;

  const leadCount = async (participationId: number) =>
    Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('participation_id', '=', participationId).executeTakeFirstOrThrow()).n);
  const exportOf = async (token: string) => {
    const answer = await post(t.app, '/oga/leads/exports', { format: 'csv' }, token);
    expect(answer.code).toBe(200);
    return await t.app.db.selectFrom('lead_exports').select(['id', 'storage_name']).where('id', '=', answer.data.id).executeTakeFirstOrThrow();
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [organiser, demo] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'demo')]);
    const users = await t.app.db.selectFrom('users').select(['login_key', 'participation_id', 'event_id']).where('login_key', 'in', ['demo', 'limited']).execute();
    demoParticipation = users.find((u) => u.login_key === 'demo')!.participation_id!;
    limitedParticipation = users.find((u) => u.login_key === 'limited')!.participation_id!;
    eventId = users.find((u) => u.login_key === 'demo')!.event_id!;
  });
  afterAll(() => t?.close());

  it('only organisers read and set the retention period; bad values are refused', async () => {
    expect((await get(t.app, '/oga/organiser/privacy', demo)).code).toBe(403);
    expect((await put(t.app, '/oga/organiser/privacy', { retentionDays: 30 }, demo)).code).toBe(403);
    const before = await get(t.app, '/oga/organiser/privacy', organiser);
    expect(bodyOf(before)).toMatchObject({ code: 200, data: { retentionDays: null, eraseAt: null, erasedAt: null } });
    for (const retentionDays of [0, -1, 1.5, 4000, 'thirty']) {
      const refused = await put(t.app, '/oga/organiser/privacy', { retentionDays }, organiser);
      expect(refused.status).toBe(400);
    }
    const saved = await put(t.app, '/oga/organiser/privacy', { retentionDays: 30 }, organiser);
    expect(saved.data.retentionDays).toBe(30);
    expect(new Date(saved.data.eraseAt).getTime()).toBe(new Date(saved.data.showEndsAt).getTime() + 30 * DAY);
    // The exhibitor's lead pages say until when the leads are kept.
    expect((await get(t.app, '/oga/leads', demo)).data.eraseAt).toBe(saved.data.eraseAt);
    expect((await get(t.app, '/oga/leads/exports', demo)).data.eraseAt).toBe(saved.data.eraseAt);
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'privacy.retention.update').execute();
    expect(audit).toHaveLength(1);
  });

  it('exhibitors are reminded once a week before; then leads, business cards and exports are erased and audited', async () => {
    // The show ended 28 days ago and leads are kept 30 days: the erasure is 2 days away.
    const endsAt = new Date(Date.now() - 28 * DAY);
    await t.app.db.updateTable('events').set({ ends_at: endsAt, lead_retention_days: 30, lead_retention_reminded_at: null }).where('id', '=', eventId).execute();
    const exported = await exportOf(demo);
    const demoUser = await t.app.db.selectFrom('users').select(['id', 'email', 'event_id']).where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    // A business card on one of demo's leads.
    await t.app.storage.put('uploads/card-of-a-lead-000000000000000000000000000', Buffer.from('card'));
    await t.app.db
      .insertInto('uploads')
      .values({
        id: 'card-of-a-lead-000000000000000000000000000',
        participation_id: demoParticipation,
        event_id: demoUser.event_id!,
        user_id: demoUser.id,
        purpose: 'businessCard',
        original_name: 'card.png',
        content_type: 'image/png',
        size: 4,
        dpi: null,
        sha256: '0'.repeat(64),
      })
      .execute();
    const someLead = await t.app.db.selectFrom('leads').select(['id', 'visitor_name']).where('participation_id', '=', demoParticipation).orderBy('id').executeTakeFirstOrThrow();
    await t.app.db.updateTable('leads').set({ business_card: 'card-of-a-lead-000000000000000000000000000' }).where('id', '=', someLead.id).execute();
    expect(await leadCount(demoParticipation)).toBeGreaterThan(0);
    // demo reads the portal in Japanese: its reminder is in Japanese, with the event's Japanese name.
    await t.app.db.updateTable('users').set({ language: 'ja' }).where('login_key', '=', 'demo').execute();

    expect(await remindBeforeErasure(t.app, 'https://portal.example')).toBeGreaterThan(0);
    const mails = await t.app.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'leadRetentionReminder').execute();
    const toDemo = mails.filter((mail) => mail.to_address === demoUser.email);
    expect(toDemo).toHaveLength(1);
    // The day as the reader's language writes it, in the event's date order (the demo's: the language's own).
    const date = formatEventDay(new Date(endsAt.getTime() + 30 * DAY).toISOString().slice(0, 10), 'ja');
    const event = await t.app.db.selectFrom('events').select(['name', 'names']).where('id', '=', eventId).executeTakeFirstOrThrow();
    expect(toDemo[0]!.subject).toBe(translate('ja', 'privacy.reminder.subject', { event: event.names.ja ?? event.name, date }));
    expect(toDemo[0]!.subject).not.toBe(translate('en', 'privacy.reminder.subject', { event: event.name, date }));
    expect(toDemo[0]!.text_body).toContain(date);
    expect(toDemo[0]!.text_body).toContain('https://portal.example/leadReport');
    // Once only.
    expect(await remindBeforeErasure(t.app, 'https://portal.example')).toBe(0);

    // Not yet due: nothing is erased.
    expect(await eraseExpiredLeads(t.app)).toBe(0);
    expect(await leadCount(demoParticipation)).toBeGreaterThan(0);

    // Three days later the period is over.
    expect(await eraseExpiredLeads(t.app, new Date(Date.now() + 3 * DAY))).toBe(1);
    expect(await leadCount(demoParticipation)).toBe(0);
    expect(await leadCount(limitedParticipation)).toBe(0);
    expect(await t.app.db.selectFrom('lead_exports').select('id').where('participation_id', '=', demoParticipation).execute()).toEqual([]);
    expect(await t.app.storage.stat(`exports/${exported.storage_name}`)).toBeNull();
    expect(await t.app.db.selectFrom('uploads').select('id').where('id', '=', 'card-of-a-lead-000000000000000000000000000').execute()).toEqual([]);
    expect(await t.app.storage.stat('uploads/card-of-a-lead-000000000000000000000000000')).toBeNull();
    const [record] = await t.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'privacy.leads.retentionErase').execute();
    expect(record).toBeDefined();
    const recorded = JSON.stringify(record);
    expect(recorded).not.toContain(someLead.visitor_name);
    expect(JSON.parse(JSON.stringify(record!.after))).toMatchObject({ leads: expect.any(Number), exports: 1, businessCards: 1, retentionDays: 30 });
    // The setting is closed once the leads are gone.
    expect((await put(t.app, '/oga/organiser/privacy', { retentionDays: 60 }, organiser)).error).toBe('leadsAlreadyErased');
  });
});

describe.each(ENGINES)("one visitor's data across exhibitors on %s", (engine) => {
  let t: TestApp;
  let organiser: string;
  let demo: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [organiser, demo] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'demo')]);
  });
  afterAll(() => t?.close());

  it("exports and erases one visitor's leads at every exhibitor, its profile and the exports holding it; audited without the data", async () => {
    const users = await t.app.db.selectFrom('users').select(['id', 'login_key', 'participation_id']).where('login_key', 'in', ['demo', 'limited']).execute();
    const demoUser = users.find((u) => u.login_key === 'demo')!;
    const limitedUser = users.find((u) => u.login_key === 'limited')!;
    const lead = await t.app.db
      .selectFrom('leads')
      .selectAll()
      .where('participation_id', '=', demoUser.participation_id!)
      .where('visitor_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const visitorLeadsAtDemo = await t.app.db
      .selectFrom('leads')
      .select('id')
      .where('participation_id', '=', demoUser.participation_id!)
      .where('badge_code', '=', lead.badge_code)
      .execute();
    // The same visitor was scanned by a second exhibitor too.
    const { id: _id, ...copy } = lead;
    await t.app.db
      .insertInto('leads')
      .values({
        ...copy,
        participation_id: limitedUser.participation_id!,
        scanned_by: limitedUser.id,
        client_scan_id: 'privacy-test-1',
        tag_answers: JSON.stringify(lead.tag_answers ?? {}),
        interested_products: JSON.stringify(lead.interested_products ?? []),
      } as never)
      .execute();
    const otherLeadsBefore = Number(
      (await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('badge_code', '<>', lead.badge_code).executeTakeFirstOrThrow()).n,
    );
    const exported = await post(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    expect(exported.code).toBe(200);

    expect((await post(t.app, '/oga/organiser/privacy/visitor/export', { badgeCode: lead.badge_code }, demo)).code).toBe(403);
    expect((await post(t.app, '/oga/organiser/privacy/visitor/export', {}, organiser)).status).toBe(400);
    const data = await post(t.app, '/oga/organiser/privacy/visitor/export', { badgeCode: lead.badge_code }, organiser);
    expect(data.code).toBe(200);
    expect(data.data.leads).toHaveLength(visitorLeadsAtDemo.length + 1);
    expect(new Set(data.data.leads.map((row: { exhibitor: string }) => row.exhibitor)).size).toBe(2);
    expect(data.data.leads[0]).toMatchObject({ badgeCode: lead.badge_code, visitorName: lead.visitor_name, email: lead.email });
    expect(data.data.visitorProfiles).toBe(1);

    const erased = await post(t.app, '/oga/organiser/privacy/visitor/erase', { badgeCode: lead.badge_code }, organiser);
    expect(bodyOf(erased)).toEqual({ code: 200, msg: 'ok', data: { leads: visitorLeadsAtDemo.length + 1, businessCards: 0, exports: 1, participations: 2, visitorProfiles: 1 } });
    expect(await t.app.db.selectFrom('leads').select('id').where('badge_code', '=', lead.badge_code).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('visitors').select('id').where('id', '=', lead.visitor_id!).execute()).toEqual([]);
    // Nobody else's leads were touched.
    expect(Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('badge_code', '<>', lead.badge_code).executeTakeFirstOrThrow()).n)).toBe(
      otherLeadsBefore,
    );
    expect(
      await t.app.storage.stat(
        `exports/${(await t.app.db.selectFrom('lead_exports').select('storage_name').where('id', '=', exported.data.id).executeTakeFirst())?.storage_name ?? 'gone'}`,
      ),
    ).toBeNull();

    const records = await t.app.db.selectFrom('audit_log').selectAll().where('action', 'in', ['privacy.visitor.erase', 'privacy.visitor.export']).execute();
    expect(records.map((record) => record.action).sort()).toEqual(['privacy.visitor.erase', 'privacy.visitor.export']);
    for (const record of records) {
      const text = JSON.stringify(record);
      for (const erasedValue of [lead.badge_code, lead.visitor_name, lead.email].filter((value) => value.length > 3)) expect(text).not.toContain(erasedValue);
    }

    // Erasing again finds nothing.
    expect((await post(t.app, '/oga/organiser/privacy/visitor/erase', { badgeCode: lead.badge_code }, organiser)).data).toMatchObject({ leads: 0, visitorProfiles: 0 });
  });

  it('export files older than the retention period are purged with their list rows', async () => {
    const answer = await post(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    const row = await t.app.db.selectFrom('lead_exports').select(['id', 'storage_name']).where('id', '=', answer.data.id).executeTakeFirstOrThrow();
    expect(await purgeOldExports(t.app, 30)).toBe(0);
    await t.app.db
      .updateTable('lead_exports')
      .set({ created_at: new Date(Date.now() - 31 * DAY) })
      .where('id', '=', row.id)
      .execute();
    expect(await purgeOldExports(t.app, 30)).toBe(1);
    expect(await t.app.storage.stat(`exports/${row.storage_name}`)).toBeNull();
    expect(await t.app.db.selectFrom('lead_exports').select('id').where('id', '=', row.id).execute()).toEqual([]);
  });
});
