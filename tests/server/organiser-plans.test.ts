import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type QueryResult } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadlineOfForm, FORM_STATUSES, formStatus, type FormStatus } from '../../src/engine/forms/definitions';
import { loadParticipationSettings } from '../../src/server/lib/participation-settings';
import { setParticipationDeadline } from '../support/settings';
import { searchFold, searchKeyword } from '../../src/engine/search';
import { addRivalOrganiser, createTestApp, ENGINES, get, login, put, type TestApp } from './helpers';

// The organiser's lists at volume: every statement a filtered page runs is explained on the data
// (analysed, another organisation holding most rows so the planner has a choice), and none reads
// the whole of the form entries or the audit log (no sequential scan of them); counts stay exact
// and pages stable while rows are added under them.

const OURS = 300;
const THEIRS = 1200;
const AUDIT_OURS = 15_000;
const AUDIT_THEIRS = 45_000;
/** The big tables a filtered page must reach through an index. */
const BIG = ['form_entries', 'audit_log', 'leads'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe.each(ENGINES)('organiser query plans and counts at volume on %s', (engine) => {
  let t: TestApp;
  let organiser: string;
  let eventId: number;
  let recorded: CompiledQuery[] | null = null;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const db = t.app.db;
    // Every statement the app runs while a request is being recorded (read back and explained after).
    const executor = db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = ((query: CompiledQuery, queryId: Parameters<typeof execute>[1]) => {
      recorded?.push(query);
      return execute(query, queryId);
    }) as typeof executor.executeQuery;
    organiser = await login(t.app, 'organiser');
    const event = await db.selectFrom('events').select(['id', 'organisation_id']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    eventId = event.id;
    const rival = await addRivalOrganiser(t.app);
    const fill = async (organisationId: number, forEvent: number, prefix: string, count: number) => {
      await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
        select ${prefix} || ' Exhibitor ' || g, '', '', ${organisationId}, ${prefix} || g from generate_series(1, ${count}) g`.execute(db);
      await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags, status)
        select id, ${forEvent}, 'H' || id, case when id % 4 = 0 then '["Forms","Leads"]'::jsonb else '["Forms"]'::jsonb end,
          case when id % 10 = 0 then '{"vip":true}'::jsonb else '{}'::jsonb end, case when id % 20 = 0 then 'disabled' else 'active' end
        from exhibitors where code like ${`${prefix}%`}`.execute(db);
      for (const form of ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 'vip'])
        await sql`insert into form_entries (participation_id, form_id, data, status, submitted_data, submitted_at, approval_status)
          select p.id, ${form}, '{}'::jsonb, case when p.id % 3 = 0 then 'draft' else 'submitted' end,
            case when p.id % 3 = 0 then null else '{}'::jsonb end, case when p.id % 3 = 0 then null else now() end,
            case when p.id % 7 = 0 then 'pending' else null end
          from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like ${`${prefix}%`}`.execute(db);
    };
    await fill(event.organisation_id!, eventId, 'PLAN', OURS);
    await fill(rival.organisationId, rival.eventId, 'RIVAL', THEIRS);
    const audit = async (organisationId: number, forEvent: number, rows: number) =>
      sql`insert into audit_log (at, actor_name, actor_role, organisation_id, event_id, action, subject_type, subject_id, ip)
        select now() - g * interval '2 minutes', (array['Anh','Budi','Chen','Dewi','Emi'])[1 + g % 5] || ' Tanaka ' || (g % 300), 'exhibitor', ${organisationId}, ${forEvent},
          (array['form.save','form.submit','auth.login','exhibitor.update','reminder.sent'])[1 + g % 5], 'form', 's01', ''
        from generate_series(1, ${rows}) g`.execute(db);
    await audit(event.organisation_id!, eventId, AUDIT_OURS);
    await audit(rival.organisationId, rival.eventId, AUDIT_THEIRS);
    await sql`analyze`.execute(db);
  });
  afterAll(async () => t?.close());

  /** The plans of the statements a GET runs (its own reads, the session's aside). */
  async function plansOf(url: string): Promise<PlanNode[][]> {
    recorded = [];
    const answer = await get(t.app, url, organiser);
    const queries = recorded.filter((query) => /^\s*select/i.test(query.sql) && !/from "sessions"|from "users" where "users"."id"/i.test(query.sql));
    recorded = null;
    expect(answer.code, url).toBe(200);
    const plans: PlanNode[][] = [];
    for (const query of queries) {
      const result = (await t.app.db.executeQuery(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]))) as QueryResult<{
        'QUERY PLAN': unknown;
      }>;
      const raw = result.rows[0]!['QUERY PLAN'];
      const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
      plans.push(nodes(plan[0]!.Plan));
    }
    return plans;
  }

  const sequentialScans = (plans: PlanNode[][]) =>
    plans
      .flat()
      .filter((node) => node['Node Type'] === 'Seq Scan' && BIG.includes(node['Relation Name'] ?? ''))
      .map((node) => node['Relation Name']);

  it.runIf(engine === 'postgres')("the portal's PostgreSQL sessions plan without JIT compilation (a page's query runs once)", async () => {
    const setting = await sql<{ jit: string }>`show jit`.execute(t.app.db);
    expect(setting.rows[0]!.jit).toBe('off');
  });

  it('filtered pages of exhibitors, progress and audit log read the big tables through indexes', async () => {
    const urls = [
      '/oga/organiser/exhibitors',
      '/oga/organiser/exhibitors?module=Leads&page=2',
      '/oga/organiser/exhibitors?flag=vip',
      '/oga/organiser/exhibitors?status=disabled',
      '/oga/organiser/exhibitors?keyword=exhibitor%2012',
      '/oga/organiser/exhibitors?form=s04&formStatus=pendingApproval',
      '/oga/organiser/progress?limit=50&page=3',
      '/oga/organiser/progress?missing=true&form=s01&formStatus=draft',
      '/oga/organiser/audit',
      '/oga/organiser/audit?action=form.submit',
      '/oga/organiser/audit?action=form.',
      '/oga/organiser/audit?who=tanaka%2012',
      '/oga/organiser/audit?who=chen%20tanaka%20122&page=4',
      `/oga/organiser/audit?who=budi&action=form.&from=${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`,
      `/oga/organiser/audit?from=${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}&page=3`,
    ];
    const scanned: Record<string, unknown[]> = {};
    for (const url of urls) {
      const scans = sequentialScans(await plansOf(url));
      if (scans.length > 0) scanned[url] = scans;
    }
    expect(scanned).toEqual({});
  });

  it('the "who" filter reads the named actors\' records by actor, alone and with the day and action filters, and counts them exactly', async () => {
    const db = t.app.db;
    const who = async (query: string) => (await get<{ total: number; items: Array<{ actorName: string; action: string }> }>(t.app, `/oga/organiser/audit${query}`, organiser)).data;
    const since = new Date(Date.now() - 7 * 86_400_000);
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const exact = async (name: string, extra = sql``) =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from audit_log a join events e on e.id = ${eventId}
            where a.organisation_id = e.organisation_id and a.actor_name ilike ${`%${name}%`} ${extra}`.execute(db)
        ).rows[0]!.n,
      );
    for (const [query, name] of [
      ['?who=chen%20tanaka%20122', 'chen tanaka 122'],
      ['?who=TANAKA%2012', 'tanaka 12'],
      ['?who=nobody%20here', 'nobody here'],
    ] as const) {
      const answer = await who(query);
      expect(answer.total, query).toBe(Math.min(await exact(name), 5000));
      for (const item of answer.items) expect(item.actorName.toLowerCase()).toContain(name);
    }
    // Combined with an action prefix and a week (from the first day's midnight in the event's time zone).
    const combined = await who(`?who=budi&action=form.&from=${day(since)}&to=${day(new Date(Date.now() + 86_400_000))}`);
    const { utc_offset_minutes: offset } = await db.selectFrom('events').select('utc_offset_minutes').where('id', '=', eventId).executeTakeFirstOrThrow();
    const from = new Date(new Date(`${day(since)}T00:00:00Z`).getTime() - offset * 60_000);
    expect(combined.total).toBe(await exact('budi', sql`and a.action like 'form.%' and a.at >= ${from}`));
    expect(combined.items.every((item) => item.action.startsWith('form.') && item.actorName.startsWith('Budi'))).toBe(true);
    // The count reads the named actors' entries from the index by actor (no row of the log).
    const counted = (await plansOf('/oga/organiser/audit?who=tanaka%2012')).flat();
    expect(counted.some((node) => (node as { 'Index Name'?: string })['Index Name'] === 'audit_log_organisation_actor')).toBe(true);
    // An actor who first appears now is found at once (the actors' list is kept on insert).
    await sql`insert into audit_log (actor_name, actor_role, organisation_id, event_id, action, subject_type, subject_id, ip)
      select 'Zainab Newcomer', 'exhibitor', organisation_id, id, 'auth.login', '', '', '' from events where id = ${eventId}`.execute(db);
    expect((await who('?who=newcomer')).items.map((item) => item.actorName)).toEqual(['Zainab Newcomer']);
  });

  it('counts stay exact and pages stable while exhibitors, entries and audit rows are added', async () => {
    const db = t.app.db;
    type Progress = {
      total: number;
      exhibitors: number;
      forms: Array<{ id: string; counts: Record<string, number> }>;
      rows: Array<{ participationId: number; exhibitor: string }>;
    };
    const before = (await get<Progress>(t.app, '/oga/organiser/progress?limit=50&page=2', organiser)).data;
    const active = Number((await sql<{ n: string }>`select count(*) as n from participations where event_id = ${eventId} and status = 'active'`.execute(db)).rows[0]!.n);
    expect(before.exhibitors).toBe(active);
    for (const form of before.forms) expect(Object.values(form.counts).reduce((a, b) => a + b, 0)).toBe(active);
    const s01Submitted = Number(
      (
        await sql<{ n: string }>`select count(*) as n from form_entries fe join participations p on p.id = fe.participation_id
          where p.event_id = ${eventId} and p.status = 'active' and fe.form_id = 's01' and fe.status = 'submitted' and fe.approval_status is null`.execute(db)
      ).rows[0]!.n,
    );
    expect(before.forms.find((f) => f.id === 's01')!.counts.submitted).toBe(s01Submitted);
    const auditTotal = async (query: string) =>
      (await get<{ total: number; totalKind: string; items: Array<{ id: number }> }>(t.app, `/oga/organiser/audit${query}`, organiser)).data;
    const submits = await auditTotal('?action=form.submit&page=2&limit=50');
    expect(submits).toMatchObject({ total: AUDIT_OURS / 5, totalKind: 'exact' });
    expect((await auditTotal('')).totalKind).toBe('moreThan');

    // Exhibitors named after the page (by name, "ZZ…") and audit rows older than the page, added
    // while the reads go on, leave the page as it was and count exactly.
    const writes = (async () => {
      for (let round = 0; round < 5; round += 1) {
        await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
          select 'ZZ Late ' || ${round} || '-' || g, '', '', organisation_id, 'LATE' || ${round} || '-' || g from events, generate_series(1, 20) g where events.id = ${eventId}`.execute(
          db,
        );
        await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
          select id, ${eventId}, 'L' || id, '["Forms"]'::jsonb, '{}'::jsonb from exhibitors where code like ${`LATE${round}-%`}`.execute(db);
        await sql`insert into audit_log (at, actor_name, actor_role, organisation_id, event_id, action, subject_type, subject_id, ip)
          select now() - interval '400 days', 'Late Writer', 'exhibitor', organisation_id, ${eventId}, 'form.submit', 'form', 's01', '' from events, generate_series(1, 30) g where events.id = ${eventId}`.execute(
          db,
        );
      }
    })();
    const reads = (async () => {
      const pages: string[] = [];
      for (let round = 0; round < 5; round += 1) {
        const page = (await get<Progress>(t.app, '/oga/organiser/progress?limit=50&page=2', organiser)).data;
        pages.push(page.rows.map((row) => row.participationId).join(','));
        for (const form of page.forms) expect(Object.values(form.counts).reduce((a, b) => a + b, 0)).toBe(page.exhibitors);
        const audit = await auditTotal('?action=form.submit&page=2&limit=50');
        expect(audit.items.map((item) => item.id)).toEqual(submits.items.map((item) => item.id));
      }
      return pages;
    })();
    const [, pages] = await Promise.all([writes, reads]);
    expect(new Set(pages)).toEqual(new Set([before.rows.map((row) => row.participationId).join(',')]));

    const after = (await get<Progress>(t.app, '/oga/organiser/progress?limit=50&page=2', organiser)).data;
    expect(after.exhibitors).toBe(active + 100);
    // The new exhibitors have started nothing (not started, or closed past a deadline).
    const unstarted = (matrix: Progress) => {
      const counts = matrix.forms.find((f) => f.id === 's01')!.counts;
      return counts.notStarted! + counts.closed!;
    };
    expect(unstarted(after)).toBe(unstarted(before) + 100);
    expect((await auditTotal('?action=form.submit&page=2&limit=50')).total).toBe(AUDIT_OURS / 5 + 150);
    const list = (await get<{ total: number; items: Array<{ id: number }> }>(t.app, '/oga/organiser/exhibitors?keyword=zz%20late&limit=50', organiser)).data;
    expect(list.total).toBe(100);
  });

  it('statuses, counts and filters equal the rules over every entry: alike entries, own deadlines, a passed deadline, then drafts, submissions and reopenings', async () => {
    const db = t.app.db;
    const registry = t.app.forms.registry;
    /** Each exhibitor's status of one form (by name), from its whole entry and its effective deadlines. */
    const recount = async (formId: string, activeOnly: boolean) => {
      const definition = registry.find(formId)!;
      const participations = await db
        .selectFrom('participations')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select('participations.id')
        .where('participations.event_id', '=', eventId)
        .$if(activeOnly, (query) => query.where('participations.status', '=', 'active'))
        .orderBy('exhibitors.name')
        .orderBy('participations.id')
        .execute();
      const ids = participations.map((row) => row.id);
      const entries = await db.selectFrom('form_entries').selectAll().where('form_id', '=', formId).where('participation_id', 'in', ids).execute();
      const entryOf = new Map(entries.map((entry) => [entry.participation_id, entry]));
      const settings = await loadParticipationSettings(db, eventId, ids);
      const now = new Date();
      return ids.map((id) => ({ id, status: formStatus(entryOf.get(id) ?? null, deadlineOfForm(settings.get(id)!.deadlines, definition), now) }));
    };
    type Matrix = {
      total: number;
      forms: Array<{ id: string; counts: Record<FormStatus, number>; parts?: unknown[] }>;
      rows: Array<{ participationId: number; statuses: Record<string, FormStatus> }>;
    };
    const expectRight = async () => {
      const matrix = (await get<Matrix>(t.app, '/oga/organiser/progress?limit=50', organiser)).data;
      for (const form of matrix.forms.filter((f) => !f.parts)) {
        const expected = await recount(form.id, true);
        const counts = Object.fromEntries(FORM_STATUSES.map((status) => [status, expected.filter((row) => row.status === status).length]));
        expect(form.counts, form.id).toEqual(counts);
      }
      for (const formId of ['s01', 's02']) {
        const [active, every] = [await recount(formId, true), await recount(formId, false)];
        for (const status of FORM_STATUSES) {
          const progress = (await get<Matrix>(t.app, `/oga/organiser/progress?form=${formId}&formStatus=${status}&limit=50`, organiser)).data;
          const kept = active.filter((row) => row.status === status).map((row) => row.id);
          expect({ total: progress.total, ids: progress.rows.map((row) => row.participationId) }, `progress ${formId} ${status}`).toEqual({
            total: kept.length,
            ids: kept.slice(0, 50),
          });
          for (const row of progress.rows) expect(row.statuses[formId]).toBe(status);
          const list = (
            await get<{ total: number; items: Array<{ id: number; forms: Record<string, FormStatus> }> }>(
              t.app,
              `/oga/organiser/exhibitors?form=${formId}&formStatus=${status}&limit=50`,
              organiser,
            )
          ).data;
          const listed = every.filter((row) => row.status === status).map((row) => row.id);
          expect({ total: list.total, ids: list.items.map((item) => item.id) }, `exhibitors ${formId} ${status}`).toEqual({ total: listed.length, ids: listed.slice(0, 50) });
          for (const item of list.items) expect(item.forms[formId]).toBe(status);
        }
      }
    };
    const ours = (
      await db
        .selectFrom('participations')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select('participations.id')
        .where('exhibitors.code', 'like', 'PLAN%')
        .orderBy('participations.id')
        .execute()
    ).map((row) => row.id);
    // More states than the fill's: decisions, forms never started; most exhibitors' entries stand alike.
    await sql`update form_entries set approval_status = case when participation_id % 11 = 0 then 'approved' when participation_id % 13 = 0 then 'rejected' else approval_status end
      where status = 'submitted' and participation_id in (select unnest(${sql.val(ours)}::int[]))`.execute(db);
    await sql`delete from form_entries where form_id = 's02' and participation_id % 5 = 0 and participation_id in (select unnest(${sql.val(ours)}::int[]))`.execute(db);
    const s01 = registry.find('s01')!;
    const s02 = registry.find('s02')!;
    // Exhibitors whose entries are like many others' with a deadline of their own: one passed, one ahead of a passed event deadline.
    const [passedOwn, aheadOwn, drafted] = [ours.find((id) => id % 3 === 0)!, ours.find((id) => id % 5 === 0)!, ours.find((id) => id % 3 === 0 && id % 7 !== 0)!];
    await setParticipationDeadline(db, passedOwn, s01.deadline, new Date(Date.now() - 3_600_000));
    const eventS02 = await db
      .selectFrom('deadlines')
      .select(['id', 'due_at'])
      .where('event_id', '=', eventId)
      .where('participation_id', 'is', null)
      .where('name', '=', s02.deadline)
      .executeTakeFirst();
    try {
      if (eventS02)
        await db
          .updateTable('deadlines')
          .set({ due_at: new Date(Date.now() - 3_600_000) })
          .where('id', '=', eventS02.id)
          .execute();
      await setParticipationDeadline(db, aheadOwn, `form:${s02.id}`, new Date(Date.now() + 86_400_000));
      await expectRight();
      // A draft submitted, a submission reopened to a draft, a draft begun where nothing was.
      await sql`update form_entries set status = 'submitted', submitted_data = data, submitted_at = now() where participation_id = ${drafted} and form_id in ('s01', 's02')`.execute(
        db,
      );
      await sql`update form_entries set status = 'draft', approval_status = null where participation_id = ${ours.find((id) => id % 3 === 1)!} and form_id = 's01'`.execute(db);
      await sql`insert into form_entries (participation_id, form_id, data, status) values (${aheadOwn}, 's02', '{}'::jsonb, 'draft') on conflict (participation_id, form_id) do nothing`.execute(
        db,
      );
      await expectRight();
    } finally {
      if (eventS02) await db.updateTable('deadlines').set({ due_at: eventS02.due_at }).where('id', '=', eventS02.id).execute();
      await db.deleteFrom('deadlines').where('participation_id', 'in', [passedOwn, aheadOwn]).execute();
    }
  });
  it("a keyword's total and pages, and the list's order, equal a recount over every exhibitor's texts after an import, a rename and changed booths and e-mails", async () => {
    const db = t.app.db;
    type List = { total: number; page: number; items: Array<{ id: number; name: string }> };
    /** The event's exhibitors in the list's order, with the texts a keyword is looked for in (each folded alone). */
    const recount = async (keyword: string) => {
      const rows = await db
        .selectFrom('participations')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .leftJoin('users', (join) => join.onRef('users.participation_id', '=', 'participations.id').on('users.role', '=', 'exhibitor'))
        .select(['participations.id', 'exhibitors.name', 'exhibitors.code', 'exhibitors.legal_name', 'participations.booth_num', 'users.login', 'users.email'])
        .where('participations.event_id', '=', eventId)
        .orderBy('exhibitors.name')
        .orderBy('participations.id')
        .execute();
      const folded = searchKeyword(keyword);
      return rows
        .filter((row) => !folded || [row.name, row.code, row.legal_name, row.booth_num, row.login, row.email].some((text) => text && searchFold(text).includes(folded)))
        .map((row) => row.id);
    };
    const expectRight = async (keywords: string[]) => {
      for (const keyword of keywords) {
        const expected = await recount(keyword);
        for (const page of [1, 2]) {
          const list = (await get<List>(t.app, `/oga/organiser/exhibitors?keyword=${encodeURIComponent(keyword)}&limit=20&page=${page}`, organiser)).data;
          // A page past the last answers the last.
          const answered = Math.min(page, Math.max(1, Math.ceil(expected.length / 20)));
          expect({ total: list.total, page: list.page, ids: list.items.map((item) => item.id) }, `"${keyword}" page ${page}`).toEqual({
            total: expected.length,
            page: answered,
            ids: expected.slice((answered - 1) * 20, answered * 20),
          });
        }
      }
    };
    const unfolded = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from participations where event_id = ${eventId} and search_folded is null`.execute(db)).rows[0]!.n);
    const keywords = ['', 'exhibitor 12', 'plan2', 'h1', 'phu', 'TRÂN', 'front', 'hs-sql', 'newmail', 'imp.example', 'zz late 3-1'];
    await expectRight(keywords);
    // The search stored the texts it folded.
    expect(await unfolded()).toBe(0);

    // A set-based import: new exhibitors, and an existing one renamed by its code (with accents).
    const boundary = `----plans-${randomBytes(6).toString('hex')}`;
    const file = [
      'Exhibitor code,Exhibitor name,Booth,E-mail,Modules,Quota: Exhibitor badges',
      'PLAN12,Minh Phú Trading,H-PHU,phu@imp.example,Forms,',
      'IMPX1,Trần Hưng Foods,X-1,tran@imp.example,Forms,',
      'IMPX2,Ａａ Wide Phu,X-2,aa@imp.example,Forms,',
    ].join('\r\n');
    const imported = await t.app.inject({
      method: 'POST',
      url: '/oga/organiser/exhibitors/import?commit=true',
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${organiser}` },
    });
    expect(imported.json()).toMatchObject({ data: { created: 2, updated: 1 } });
    // The import folded the texts it stored.
    expect(await unfolded()).toBe(0);
    await expectRight(keywords);

    // A rename through the account screen (to the front of the list), a booth changed there, and
    // an e-mail changed by another writer (straight in the table).
    const [first] = (await get<List>(t.app, '/oga/organiser/exhibitors?keyword=impx1&limit=20', organiser)).data.items;
    const [second] = (await get<List>(t.app, '/oga/organiser/exhibitors?keyword=plan2&limit=20', organiser)).data.items;
    const account = (await get<Record<string, unknown>>(t.app, `/oga/organiser/exhibitors/${first!.id}`, organiser)).data;
    const { id: _id, status: _status, forms: _forms, ...input } = account;
    expect((await put(t.app, `/oga/organiser/exhibitors/${first!.id}`, { ...input, name: 'Aa Front Phu', boothNum: 'HN-NEW' }, organiser)).code).toBe(200);
    await sql`update users set email = 'newmail@imp.example' where participation_id = (select id from participations where booth_num = 'H-PHU') and role = 'exhibitor'`.execute(db);
    await sql`update participations set booth_num = 'HS-SQL' where id = ${second!.id}`.execute(db);
    expect(await unfolded()).toBe(3);
    await expectRight(keywords);
    expect(await unfolded()).toBe(0);
    const firstPage = (await get<List>(t.app, '/oga/organiser/exhibitors?limit=50', organiser)).data;
    expect(firstPage.items.map((item) => item.id)).toEqual((await recount('')).slice(0, 50));
    expect(firstPage.items[0]!.name).toBe('Aa Front Phu');
  });

  it("each participation's stored progress equals a recount of its entries through an import, a withdrawal, a deleted draft and concurrent saves of one exhibitor", async () => {
    const db = t.app.db;
    /** Stored rows that differ from a recount of the entries (participations without entries have no row or an empty one). */
    const differences = async () =>
      (
        await sql<{ participation_id: number }>`select coalesce(s.participation_id, r.participation_id) as participation_id
          from (select participation_id, progress, data_keys from participation_progress where progress <> '{}'::jsonb) s
          full join (select participation_id, jsonb_object_agg(form_id, progress) as progress, jsonb_object_agg(form_id, data_keys) as data_keys
            from form_entries group by 1) r on r.participation_id = s.participation_id
          where s.progress is distinct from r.progress or s.data_keys is distinct from r.data_keys`.execute(db)
      ).rows;
    type Matrix = { exhibitors: number; forms: Array<{ id: string; counts: Record<FormStatus, number> }>; total: number };
    const matrix = async (query = '') => (await get<Matrix>(t.app, `/oga/organiser/progress?limit=50${query}`, organiser)).data;
    /** s01's counts as a recount of the active exhibitors' entries under their effective deadlines. */
    const recountS01 = async () => {
      const definition = t.app.forms.registry.find('s01')!;
      const ids = (await db.selectFrom('participations').select('id').where('event_id', '=', eventId).where('status', '=', 'active').execute()).map((row) => row.id);
      const entries = await db.selectFrom('form_entries').selectAll().where('form_id', '=', 's01').where('participation_id', 'in', ids).execute();
      const entryOf = new Map(entries.map((entry) => [entry.participation_id, entry]));
      const settings = await loadParticipationSettings(db, eventId, ids);
      const counts = Object.fromEntries(FORM_STATUSES.map((status) => [status, 0])) as Record<FormStatus, number>;
      for (const id of ids) counts[formStatus(entryOf.get(id) ?? null, deadlineOfForm(settings.get(id)!.deadlines, definition), new Date())] += 1;
      return { exhibitors: ids.length, counts };
    };
    const expectExact = async () => {
      expect(await differences()).toEqual([]);
      const [answered, recounted] = [await matrix(), await recountS01()];
      expect({ exhibitors: answered.exhibitors, counts: answered.forms.find((form) => form.id === 's01')!.counts }).toEqual(recounted);
    };
    await expectExact();

    // An import: new exhibitors, no entries yet.
    const boundary = `----plans-${randomBytes(6).toString('hex')}`;
    const rows = [
      ['Exhibitor code', 'Exhibitor name', 'Booth', 'E-mail'],
      ...Array.from({ length: 20 }, (_, i) => [`PIMP${i}`, `Imported ${i}`, `I-${i}`, `pimp${i}@plans.example`]),
    ];
    const imported = await t.app.inject({
      method: 'POST',
      url: '/oga/organiser/exhibitors/import?commit=true',
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="exhibitors.csv"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        Buffer.from(rows.map((row) => row.join(',')).join('\r\n')),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${organiser}` },
    });
    expect(imported.json()).toMatchObject({ data: { created: 20 } });
    await expectExact();

    const idsOf = async (codes: string, activeOnly: boolean) =>
      (
        await db
          .selectFrom('participations')
          .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
          .select('participations.id')
          .where('participations.event_id', '=', eventId)
          .where('exhibitors.code', 'like', codes)
          .$if(activeOnly, (query) => query.where('participations.status', '=', 'active'))
          .orderBy('participations.id')
          .execute()
      ).map((row) => row.id);
    const ours = await idsOf('PLAN%', true);
    const fresh = await idsOf('PIMP%', false);
    expect(fresh.length).toBe(20);
    // A withdrawn exhibitor leaves the counts; a deleted draft leaves its participation's progress.
    await db.updateTable('participations').set({ status: 'disabled' }).where('id', '=', ours[1]!).execute();
    await sql`delete from form_entries where participation_id = ${ours[2]!} and status = 'draft'`.execute(db);
    await sql`delete from form_entries where participation_id = ${ours[4]!} and form_id = 's01'`.execute(db);
    // One statement over many exhibitors' entries, and a draft of an imported exhibitor with a working copy.
    await sql`update form_entries set status = 'submitted', submitted_data = data, submitted_at = now() where status = 'draft' and participation_id in (select unnest(${sql.val(ours.slice(5, 40))}::int[]))`.execute(
      db,
    );
    await sql`insert into form_entries (participation_id, form_id, data, status) values (${fresh[0]!}, 's01', '{"a":1,"b":2}'::jsonb, 'draft')`.execute(db);
    await expectExact();

    // Two saves of different forms of one exhibitor at once, each in its own transaction: the
    // second waits for the first's participation row and merges its own form into the latest.
    // For an exhibitor with entries and an imported one without (an insert each). Each write
    // changes its entry's working-copy keys, so each writes the participation's row.
    const upsert = (participationId: number, status: 'draft' | 'submitted') => (form: string) =>
      sql`insert into form_entries (participation_id, form_id, data, status) values (${participationId}, ${form}, ${JSON.stringify({ [`${form}_${status}`]: 1 })}::jsonb, ${status})
        on conflict (participation_id, form_id) do update set data = excluded.data, status = excluded.status`;
    for (const [participationId, status] of [
      [ours[6]!, 'submitted'],
      [fresh[1]!, 'draft'],
    ] as const) {
      const write = upsert(participationId, status);
      let firstWrote: () => void = () => undefined;
      let release: () => void = () => undefined;
      const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const first = db.transaction().execute(async (trx) => {
        await write('s01').execute(trx);
        firstWrote();
        await released;
      });
      await wrote;
      const second = db.transaction().execute(async (trx) => {
        await write('s02').execute(trx);
      });
      if (engine === 'postgres') {
        // The second save waits for the first's lock before the first commits.
        for (let tries = 0; ; tries += 1) {
          expect(tries, 'the second save waits for the first').toBeLessThan(10_000);
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
          if (waiting.rows[0]!.n > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      release();
      await Promise.all([first, second]);
      const stored = await db.selectFrom('participation_progress').select('data_keys').where('participation_id', '=', participationId).executeTakeFirstOrThrow();
      expect([stored.data_keys.s01, stored.data_keys.s02]).toEqual([`s01_${status}`, `s02_${status}`]);
    }
    await expectExact();
    // The mandatory-missing filter and status filters: the pages hold what the total says.
    for (const query of ['&missing=true', '&form=s01&formStatus=draft', '&formStatus=approved']) {
      const filtered = await matrix(query);
      let seen = 0;
      for (let page = 1; (page - 1) * 50 < filtered.total; page += 1)
        seen += (await get<{ rows: unknown[] }>(t.app, `/oga/organiser/progress?limit=50&page=${page}${query}`, organiser)).data.rows.length;
      expect(seen, query).toBe(filtered.total);
    }
  });
});
