import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_STATUSES } from '../../src/engine/forms/definitions';
import { leadSearchText } from '../../src/engine/leads';
import { uploadsForReferences, validateSubmission } from '../../src/server/plugins/forms/validate';
import { generateShow, showSize, SHOW_CODE_PREFIX, type GeneratedShow } from '../../scripts/generate-show';
import { createTestApp, ENGINES, get, login, type TestApp } from './helpers';

// The big show's data set (scripts/generate-show.ts) at a tiny size, on both engines: the counts
// it was asked for, every form entry it wrote accepted by the form's own validator (flags, quotas
// and uploads of its exhibitor), and the organiser's progress and the largest exhibitor's lead
// list serving it.

const EXHIBITORS = 20;
const LEADS = 2000;

describe.each(ENGINES)('the big show data set on %s', (engine) => {
  let t: TestApp;
  let show: GeneratedShow;
  let migratedSchema: string[];

  /** The indexes and triggers (each with whether it is on) of the database, one line each. */
  const schemaLines = async () =>
    (
      await sql<{ line: string }>`select tablename || ': ' || indexdef as line from pg_indexes where schemaname = current_schema()
        union all select c.relname || ': trigger ' || t.tgname || ' ' || t.tgenabled::text
        from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = current_schema()::regnamespace
        order by 1`.execute(t.app.db)
    ).rows.map((row) => row.line);

  beforeAll(async () => {
    t = await createTestApp(engine);
    migratedSchema = await schemaLines();
    show = await generateShow(t.app.db, showSize(EXHIBITORS, LEADS));
  }, 60_000);
  afterAll(async () => t?.close());

  it('writes the exhibitors, users, visitors, leads, content and audit rows asked for', async () => {
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(t.app.db)).rows[0]!.n);
    const prefix = `${SHOW_CODE_PREFIX}%`;
    expect(await count(sql`select count(*)::int as n from exhibitors where code like ${prefix}`)).toBe(EXHIBITORS);
    expect(await count(sql`select count(*)::int as n from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like ${prefix}`)).toBe(EXHIBITORS);
    expect(
      await count(
        sql`select count(distinct participation_id)::int as n from users where role = 'exhibitor' and participation_id between ${show.participationIds.first} and ${show.participationIds.last}`,
      ),
    ).toBe(EXHIBITORS);
    expect(await count(sql`select count(*)::int as n from visitors where event_id = ${show.eventId}`)).toBeGreaterThanOrEqual(show.size.visitors);
    expect(await count(sql`select count(*)::int as n from leads where participation_id between ${show.participationIds.first} and ${show.participationIds.last}`)).toBe(LEADS);
    expect(await count(sql`select count(*)::int as n from leads where participation_id = ${show.largestParticipationId}`)).toBe(show.size.largestLeads);
    expect(await count(sql`select count(*)::int as n from leads where participation_id >= ${show.participationIds.first} and search_folded = ''`)).toBe(0);
    // The keyword text is the engine's fold of the lead's name, company, e-mail and badge code.
    const folded = await t.app.db
      .selectFrom('leads')
      .select(['visitor_name', 'company', 'email', 'badge_code', 'search_folded'])
      .where('participation_id', '>=', show.participationIds.first)
      .execute();
    expect(
      folded.filter((lead) => lead.search_folded !== leadSearchText({ visitorName: lead.visitor_name, company: lead.company, email: lead.email, badgeCode: lead.badge_code })),
    ).toEqual([]);
    expect(await count(sql`select count(*)::int as n from lead_scans where participation_id >= ${show.participationIds.first}`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from audit_log where actor_user_id in (select id from users where participation_id >= ${show.participationIds.first})`)).toBe(
      show.size.auditPerDay * show.size.auditDays,
    );
    // Four languages searchable for every content item.
    expect(await count(sql`select count(distinct language)::int as n from content_search cs join content c on c.id = cs.content_id where c.event_id = ${show.eventId}`)).toBe(4);
    // Every form of the form set has drafts or submissions, S04's lists hold 10 to 200 badges.
    for (const definition of t.app.forms.registry.definitions) expect(show.entries[definition.id]!.drafts + show.entries[definition.id]!.submitted).toBeGreaterThan(0);
    expect(show.badges).toBeGreaterThanOrEqual(EXHIBITORS * 10);
  });

  it('leaves the schema as migrated, and the rollups and scans as the triggers and scans keep them', async () => {
    // The bulk load sets indexes and row triggers aside: all of them are back, as the migrations made them.
    expect(await schemaLines()).toEqual(migratedSchema);
    const { first, last } = show.participationIds;
    const rollup = await sql<{ row: string }>`select participation_id || ' ' || dimension || ' ' || key || ' ' || event_hour || ' ' || leads as row
      from lead_rollup where participation_id between ${first} and ${last} and leads <> 0 order by 1`.execute(t.app.db);
    const recount = await sql<{ row: string }>`select participation_id || ' ' || dimension || ' ' || key || ' ' || event_hour || ' ' || n as row
      from (select r.participation_id, d.dimension, d.key, r.event_hour, count(*) as n from leads r
        cross join lateral (values ('all', ''), ('country', r.country), ('user', r.scanned_by::text), ('type', coalesce(r.lead_type, '')),
          ('temperature', coalesce(r.temperature, '')), ('follow_up', coalesce(r.follow_up, '')), ('known', r.badge_known::text)) as d(dimension, key)
        where r.participation_id between ${first} and ${last} group by 1, 2, 3, 4) c order by 1`.execute(t.app.db);
    expect(rollup.rows.length).toBeGreaterThan(0);
    expect(rollup.rows).toEqual(recount.rows);
    // Each exhibitor's stored progress (kept by form_entries' statement triggers) equals its entries'.
    const progress = await sql<{ row: string }>`select p.id || ' ' || coalesce(s.progress::text, '-') || ' ' || coalesce(s.data_keys::text, '-') as row
      from participations p left join participation_progress s on s.participation_id = p.id where p.id between ${first} and ${last} order by p.id`.execute(t.app.db);
    const entries = await sql<{ row: string }>`select p.id || ' ' || coalesce(r.progress::text, '-') || ' ' || coalesce(r.data_keys::text, '-') as row
      from participations p left join (select participation_id, jsonb_object_agg(form_id, progress) as progress, jsonb_object_agg(form_id, data_keys) as data_keys
        from form_entries group by 1) r on r.participation_id = p.id where p.id between ${first} and ${last} order by p.id`.execute(t.app.db);
    expect(progress.rows.length).toBe(EXHIBITORS);
    expect(progress.rows).toEqual(entries.rows);
    // A lead scanned twice has its later scan, from one of its exhibitor's people, an hour later.
    const scans = await sql<{ twice: number; again: number; mismatched: number }>`select
        (select count(*)::int from leads where participation_id between ${first} and ${last} and scan_count = 2) as twice,
        (select count(*)::int from lead_scans where participation_id between ${first} and ${last}) as again,
        (select count(*)::int from leads l join lead_scans s on s.lead_id = l.id
          where l.participation_id between ${first} and ${last} and (l.last_scanned_at <> s.scanned_at or l.last_scanned_by <> s.scanned_by or s.participation_id <> l.participation_id)) as mismatched`.execute(
      t.app.db,
    );
    const { twice, again, mismatched } = scans.rows[0]!;
    expect(twice).toBeGreaterThan(0);
    expect(again).toBe(twice);
    expect(mismatched).toBe(0);
  });

  it("writes only entries the forms' validators accept", async () => {
    const registry = t.app.forms.current();
    const entries = await t.app.db
      .selectFrom('form_entries')
      .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
      .select(['form_entries.form_id', 'form_entries.data', 'form_entries.participation_id', 'participations.flags', 'participations.exhibitor_id'])
      .where('form_entries.participation_id', '>=', show.participationIds.first)
      .execute();
    const quotaRows = await t.app.db.selectFrom('quotas').select(['participation_id', 'name', 'value']).where('event_id', '=', show.eventId).execute();
    const quotasOf = (participationId: number) => ({
      ...Object.fromEntries(quotaRows.filter((row) => row.participation_id === null).map((row) => [row.name, row.value])),
      ...Object.fromEntries(quotaRows.filter((row) => row.participation_id === participationId).map((row) => [row.name, row.value])),
    });
    const problems: string[] = [];
    for (const entry of entries) {
      const uploads = await uploadsForReferences(t.app.db, entry.exhibitor_id, entry.data);
      const errors = validateSubmission(registry.validatorFor(entry.form_id, show.eventCode), entry.data, {
        flags: entry.flags as unknown as Record<string, boolean>,
        quotas: quotasOf(entry.participation_id),
        uploads,
      });
      if (errors.length > 0) problems.push(`${entry.form_id} of participation ${entry.participation_id}: ${JSON.stringify(errors.slice(0, 3))}`);
    }
    expect(problems).toEqual([]);
    expect(entries.length).toBeGreaterThan(EXHIBITORS * 4);
  });

  it("serves the organiser's progress counts and the largest exhibitor's lead list", async () => {
    const organiser = await login(t.app, 'organiser');
    const progress = await get<{ forms: Array<{ id: string; counts: Record<string, number> }> }>(t.app, '/oga/organiser/progress', organiser);
    expect(progress.code).toBe(200);
    const active = await sql<{ n: number }>`select count(*)::int as n from participations where event_id = ${show.eventId} and status = 'active'`.execute(t.app.db);
    for (const form of progress.data.forms) {
      // Every active exhibitor is counted once per form, in one of the statuses.
      expect(FORM_STATUSES.reduce((sum, status) => sum + form.counts[status]!, 0)).toBe(active.rows[0]!.n);
    }
    const s04 = progress.data.forms.find(
      (form) => show.entries[form.id] && form.counts.submitted! + form.counts.pendingApproval! + form.counts.approved! >= show.entries[form.id]!.submitted - 1,
    );
    expect(s04).toBeDefined();

    const exhibitor = await login(t.app, show.largestLogin);
    const leads = await get<{ total: number; items?: unknown[]; leads?: unknown[] }>(t.app, '/oga/leads?page=1&limit=20&exactTotal=true', exhibitor);
    expect(leads.code).toBe(200);
    expect(leads.data.total).toBe(show.size.largestLeads);
    const hot = await get<{ total: number }>(t.app, '/oga/leads?page=1&limit=20&temperature=hot&exactTotal=true', exhibitor);
    expect(hot.data.total).toBeGreaterThan(0);
    expect(hot.data.total).toBeLessThan(show.size.largestLeads);
  });
});
