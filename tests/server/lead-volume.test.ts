import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveLeadsForeignNames, insertLeads, insertVisitors } from '../../src/server/db/demo-leads';
import type { Database } from '../../src/server/db/schema';
import { leadSearchText } from '../../src/engine/leads';
import { searchKeyword } from '../../src/engine/search';
import { keywordIndexed, listPageAfter, leadConditions, leadTotal, listPageQuery, readListPage } from '../../src/server/modules/leads/query';
import type { ScanOutcome } from '../../src/server/modules/leads/scans';
import { createTestApp, ENGINES, get, HOUR, insertTeamUser, login, post, type TestApp, demoExhibitorScope, unscannedVisitors } from './helpers';

// LD1/LD2 at a big show's volume, with modest data: a scan batch's answers, leads and rollup
// counts stay exact through duplicates within and across batches, offline-replayed scans, a
// withdrawn visitor and two devices racing the same scan; list pages read by keyset are complete
// and never repeat a lead while scans keep arriving; filtered list pages read leads through an
// index, never a sequential scan (PostgreSQL's plans).

const LEADS = 1_500;
const OTHER_LEADS = 8_000;

/** Names holding "qx" at the text's start, ending a text, inside a word, after a digit, a CJK character and a hyphen; the last holds q and x apart. */
const PAIR_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['Qxana Lee', 'Harbour Foods'],
  ['Ana Lee', 'Harbour Qx'],
  ['Li Aqxel', 'Harbour Foods'],
  ['Li Wei', '7qx Labs'],
  ['Sato Ken', '東京qx'],
  ['Jean-Qxavier Roux', 'Harbour Foods'],
  ['Q. Xu', 'Q X Ltd'],
];

interface ListAnswer {
  items: Array<{ id: number; scannedAt: string; visitorName: string }>;
  total: number;
  page: number;
  next: string | null;
  hasMore: boolean;
}

describe.each(ENGINES)('lead capture at volume on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let device: string;
  let participationId: number;
  let eventId: number;
  let teamUserId: number;
  let badges: string[];
  const run = randomBytes(3).toString('hex');

  const send = async (token: string, scans: unknown[]) => {
    const answer = await post<ScanOutcome>(t.app, '/oga/leads/scans', { scans }, token);
    expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
    return answer.data;
  };
  const scan = (id: string, badge: string, at: number, extra: Record<string, unknown> = {}) => ({
    clientScanId: `${run}-${id}`,
    badgeCode: badge,
    scannedAt: new Date(at).toISOString(),
    ...extra,
  });
  const statuses = (outcome: ScanOutcome) => outcome.results.map((r) => (r.status === 'duplicate' ? `duplicate:${r.reason}` : r.status));
  const leadOf = (badge: string) =>
    t.app.db
      .selectFrom('leads')
      .select(['id', 'scan_count', 'scanned_at', 'last_scanned_at', 'temperature', 'visitor_name', 'consent_withdrawn_at'])
      .where('participation_id', '=', participationId)
      .where('badge_code', '=', badge)
      .execute();

  /** The rollup's counts next to a count of the leads themselves, per dimension, key and hour: they must be equal. */
  async function rollupAgainstLeads() {
    const kept = await sql<{ dimension: string; key: string; event_hour: number; n: number }>`
      select dimension, key, event_hour, sum(leads)::int as n from lead_rollup where participation_id = ${participationId}
      group by 1, 2, 3 having sum(leads) <> 0 order by 1, 2, 3`.execute(t.app.db);
    const counted = await sql<{ dimension: string; key: string; event_hour: number; n: number }>`
      select d.dimension, d.key, l.event_hour, count(*)::int as n from leads l
      cross join lateral (values ('all', ''), ('country', l.country), ('user', l.scanned_by::text), ('type', coalesce(l.lead_type, '')),
        ('temperature', coalesce(l.temperature, '')), ('follow_up', coalesce(l.follow_up, '')), ('known', l.badge_known::text)) as d(dimension, key)
      where l.participation_id = ${participationId}
      group by 1, 2, 3 order by 1, 2, 3`.execute(t.app.db);
    return { kept: kept.rows.map((r) => ({ ...r, n: Number(r.n) })), counted: counted.rows.map((r) => ({ ...r, n: Number(r.n) })) };
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const row = await demoExhibitorScope(t.app);
    participationId = row.id;
    eventId = row.eventId;
    teamUserId = await insertTeamUser(t.app, { login: `volume-${engine}-${run}`, participationId, eventId, quota: null });
    device = await login(t.app, `volume-${engine}-${run}`);
    // The demo exhibitor's leads and, on PostgreSQL, many more of another exhibitor of the event:
    // the list's plans are those of one exhibitor among many.
    await insertVisitors(t.app.db, { id: row.eventId, code: row.code }, 1, LEADS + OTHER_LEADS + 100);
    const plan = {
      eventId: row.eventId,
      eventCode: row.code,
      offsetMinutes: row.utc_offset_minutes,
      start: new Date(row.starts_at),
      end: new Date(row.ends_at),
      visitors: LEADS,
      qualifiedShare: 0.5,
    };
    await insertLeads(t.app.db, { ...plan, participationId, first: 7_000_000, last: 7_000_000 + LEADS - 1, scannedBy: [row.userId, teamUserId] });
    // Some of them in Japanese, Chinese and Vietnamese: keywords in every language.
    await giveLeadsForeignNames(t.app.db, participationId);
    // A few holding the rare pair "qx" each way a text can hold two letters, and one holding both letters apart.
    const some = await t.app.db
      .selectFrom('leads')
      .select(['id', 'email', 'badge_code'])
      .where('participation_id', '=', participationId)
      .orderBy('id')
      .limit(PAIR_NAMES.length)
      .execute();
    for (const [index, lead] of some.entries()) {
      const [visitorName, company] = PAIR_NAMES[index]!;
      await t.app.db
        .updateTable('leads')
        .set({ visitor_name: visitorName, company, search_folded: leadSearchText({ visitorName, company, email: lead.email, badgeCode: lead.badge_code }) })
        .where('id', '=', lead.id)
        .execute();
    }
    if (engine === 'postgres') {
      const other = await t.app.db.selectFrom('participations').select('id').where('event_id', '=', eventId).where('id', '!=', participationId).executeTakeFirstOrThrow();
      const otherUser = await insertTeamUser(t.app, { login: `volume-other-${run}`, participationId: other.id, eventId, quota: null });
      await insertLeads(t.app.db, { ...plan, participationId: other.id, visitors: OTHER_LEADS, first: 8_000_000, last: 8_000_000 + OTHER_LEADS - 1, scannedBy: [otherUser] });
      // As autovacuum leaves a show's table: analysed, its pages marked all-visible (index-only scans).
      await sql`vacuum analyze leads`.execute(t.app.db);
    }
    // Visitors the demo exhibitor has no lead of yet.
    const fresh = await unscannedVisitors(t.app, eventId, participationId, 10);
    badges = fresh.map((r) => r.badge_code);
    expect(badges).toHaveLength(10);
  }, 120_000);
  afterAll(async () => t?.close());

  it('duplicates within and across batches, offline replays, a withdrawn visitor and a raced scan: the same answers, leads and rollup counts', async () => {
    const now = Date.now();
    const [b1, b2, b3, b4, b5, b6] = badges as [string, string, string, string, string, string];
    const leadsBefore = Number((await sql<{ n: number }>`select count(*)::int as n from leads where participation_id = ${participationId}`.execute(t.app.db)).rows[0]!.n);

    // One batch: a badge twice, an id twice, a qualified scan.
    const first = await send(demo, [
      scan('s1', b1, now - 50 * 60_000),
      scan('s2', b2, now - 49 * 60_000),
      scan('s3', b1, now - 48 * 60_000),
      scan('s4', b3, now - 47 * 60_000, { temperature: 'hot' }),
      scan('s2', b2, now - 49 * 60_000),
    ]);
    expect(statuses(first)).toEqual(['created', 'created', 'duplicate:alreadyScanned', 'created', 'duplicate:resend']);
    expect(first.results[2]!.leadId).toBe(first.results[0]!.leadId);

    // Another device: a badge of the first batch, a resend of its id, and an offline queue replayed
    // hours late (one scan older than the badge's first, one new badge).
    const second = await send(device, [
      scan('s5', b1, now - 30 * 60_000),
      scan('s1', b1, now - 50 * 60_000),
      scan('s6', b2, now - 3 * HOUR),
      scan('s7', b4, now - 4 * HOUR, { temperature: 'warm' }),
    ]);
    expect(statuses(second)).toEqual(['duplicate:alreadyScanned', 'duplicate:resend', 'duplicate:alreadyScanned', 'created']);
    // The same offline queue synced again: all resends, nothing changes.
    const again = await send(device, [scan('s5', b1, now - 30 * 60_000), scan('s6', b2, now - 3 * HOUR), scan('s7', b4, now - 4 * HOUR, { temperature: 'warm' })]);
    expect(statuses(again)).toEqual(['duplicate:resend', 'duplicate:resend', 'duplicate:resend']);

    // Two devices send the same scan (one id) at the same moment: one lead, one `created`.
    const raced = await Promise.all([send(demo, [scan('s8', b5, now - 10 * 60_000)]), send(device, [scan('s8', b5, now - 10 * 60_000)])]);
    expect(raced.flatMap(statuses).sort()).toEqual(['created', 'duplicate:resend']);

    // A visitor who withdrew consent is scanned again: still one lead, still withdrawn and emptied.
    const made = await send(demo, [scan('s9', b6, now - 20 * 60_000)]);
    expect(statuses(made)).toEqual(['created']);
    await t.app.db
      .updateTable('leads')
      .set({ consent_withdrawn_at: new Date(now - 15 * 60_000), visitor_name: '', company: '', email: '' })
      .where('id', '=', made.results[0]!.leadId!)
      .execute();
    await send(device, [scan('s10', b6, now - 5 * 60_000)]);

    const [l1] = await leadOf(b1);
    const [l2] = await leadOf(b2);
    const [l3] = await leadOf(b3);
    const [l4] = await leadOf(b4);
    const l5 = await leadOf(b5);
    const l6 = await leadOf(b6);
    // b1: s1 made it, s3 and s5 are later scans; the latest is s5.
    expect(l1!.scan_count).toBe(3);
    expect(new Date(l1!.last_scanned_at!).getTime()).toBe(new Date(new Date(now - 30 * 60_000).toISOString()).getTime());
    // b2: the replayed scan is older than the first one: counted, the latest stays the first.
    expect(l2!.scan_count).toBe(2);
    expect(new Date(l2!.scanned_at).getTime()).toBe(new Date(new Date(now - 49 * 60_000).toISOString()).getTime());
    expect(l3!.temperature).toBe('hot');
    expect(l4!.temperature).toBe('warm');
    expect(l5).toHaveLength(1);
    expect(l6).toHaveLength(1);
    expect(l6[0]!.consent_withdrawn_at).not.toBeNull();
    expect(l6[0]!.visitor_name).toBe('');
    const leadsAfter = Number((await sql<{ n: number }>`select count(*)::int as n from leads where participation_id = ${participationId}`.execute(t.app.db)).rows[0]!.n);
    expect(leadsAfter - leadsBefore).toBe(6);

    // The rollup (kept by triggers, only net changes written) equals a count of the leads.
    const { kept, counted } = await rollupAgainstLeads();
    expect(kept).toEqual(counted);
    // A qualification that changes no key, one that changes one, and an erased lead keep it so.
    await t.app.db.updateTable('leads').set({ notes: 'Met again.' }).where('id', '=', l1!.id).execute();
    await t.app.db.updateTable('leads').set({ temperature: 'cold' }).where('id', '=', l3!.id).execute();
    await t.app.db.deleteFrom('leads').where('id', '=', l4!.id).execute();
    const after = await rollupAgainstLeads();
    expect(after.kept).toEqual(after.counted);
    const dashboard = await get<{ summary: { total: number; hot: number } }>(t.app, '/oga/analytics/dashboard', demo);
    expect(dashboard.data.summary.total).toBe(leadsAfter - 1);
  });

  it('list pages read by keyset are complete and never repeat a lead while scans keep arriving', async () => {
    const seen = new Set<number>();
    const atStart = (await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', participationId).execute()).map((row) => Number(row.id));
    const arrivedIds = new Set<number>();
    let after: string | null = null;
    let pages = 0;
    let arriving = 0;
    for (;;) {
      const query: string = `/oga/leads?limit=50${after ? `&after=${after}` : ''}`;
      const answer = await get<ListAnswer>(t.app, query, demo);
      expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
      for (const item of answer.data.items) {
        expect(seen.has(item.id), `lead ${item.id} came twice`).toBe(false);
        seen.add(item.id);
      }
      pages++;
      // While the exhibitor pages, new scans arrive (newest first: they sort before the pages read).
      const arrived = await send(device, [scan(`page-${pages}`, `${run}-NEW-${pages}`, Date.now())]);
      arriving += arrived.created;
      for (const result of arrived.results) arrivedIds.add(result.leadId!);
      if (!answer.data.next) break;
      after = answer.data.next;
    }
    expect(pages).toBeGreaterThan(LEADS / 50);
    expect(arriving).toBe(pages);
    // Every lead there when paging started was listed (once, above); what else was listed arrived
    // meanwhile and sorts after the page being read.
    expect(atStart.filter((id) => !seen.has(id))).toEqual([]);
    expect([...seen].filter((id) => !atStart.includes(id) && !arrivedIds.has(id))).toEqual([]);
    // The pages by keyset are the pages by number while nothing arrives.
    const byNumber = await get<ListAnswer>(t.app, '/oga/leads?limit=20&page=2&sort=name&order=asc', demo);
    const firstPage = await get<ListAnswer>(t.app, '/oga/leads?limit=20&page=1&sort=name&order=asc', demo);
    const byKeyset = await get<ListAnswer>(t.app, `/oga/leads?limit=20&sort=name&order=asc&after=${firstPage.data.next}`, demo);
    expect(byKeyset.data.items.map((i) => i.id)).toEqual(byNumber.data.items.map((i) => i.id));
    // A cursor of another order, or made up, is a coded bad request.
    const otherOrder = await get(t.app, `/oga/leads?limit=20&sort=name&order=desc&after=${firstPage.data.next}`, demo);
    expect(otherOrder.code).toBe(601);
    expect(otherOrder.error).toBe('leadCursorInvalid');
    const madeUp = await get(t.app, `/oga/leads?limit=20&after=${Buffer.from(JSON.stringify(['list', 'scannedAt', 'desc', 'yesterday', 1])).toString('base64url')}`, demo);
    expect(madeUp.code).toBe(601);
  });

  it.runIf(engine === 'postgres')('filtered list pages and their keyset pages read leads through an index, never a sequential scan', async () => {
    const scope = { participationId, offsetMinutes: 480 };
    const day = new Date(Date.now()).toISOString().slice(0, 10);
    const filterSets = [
      {},
      { leadType: 'none' },
      { temperature: 'hot' },
      { followUp: 'arrangeCall' },
      { country: 'JP' },
      { scannedBy: teamUserId },
      { from: day, to: day },
      { keyword: 'lotus' },
      { keyword: 'V0000042' },
      { keyword: '東京' },
      { keyword: 'ng' },
      { temperature: 'warm', scannedBy: teamUserId, from: day, to: day },
    ] as const;
    const plans: string[] = [];
    for (const filters of filterSets) {
      for (const [sort, order] of [
        ['scannedAt', 'desc'],
        ['name', 'asc'],
        ['company', 'desc'],
      ] as const) {
        for (const position of [undefined, { value: sort === 'scannedAt' ? '2027-03-26 10:00:00+00' : 'M', id: 1_000_000_000 }]) {
          const compiled = listPageAfter(t.app.db, scope, filters, sort, order, position).limit(20).compile();
          plans.push(await explain(compiled.sql, compiled.parameters));
          // Each way a page is read: many matches, few counted, few collected by the count.
          for (const options of [{ fewMatches: false }, { fewMatches: true }, { fewMatches: true, matchIds: [1, 2, 3] }]) {
            const page = listPageQuery(t.app.db, scope, filters, sort, order, position, { ...options, limit: 21, offset: 40 }).compile();
            plans.push(await explain(page.sql, page.parameters));
          }
        }
      }
      const count = t.app.db
        .selectFrom('leads')
        .select(sql<number>`count(*)`.as('n'))
        .where((eb) => leadConditions(eb, scope, filters))
        .compile();
      if (Object.keys(filters).length > 0) plans.push(await explain(count.sql, count.parameters));
    }
    for (const plan of plans) expect(plan, plan).not.toMatch(/Seq Scan on leads/);
    // A keyword alone without a trigram or a CJK character, sorted by name or company, is looked
    // for in the sort's index alone (it carries the folded text), never by trigrams (that index
    // would be read whole); one of CJK characters by its tokens.
    for (const [keyword, sort, index] of [
      ['ng', 'name', 'Index Only Scan using leads_by_name'],
      ['ng', 'company', 'Index Only Scan using leads_by_company'],
      ['東京', 'name', 'Bitmap Index Scan on leads_cjk_keyword'],
    ] as const) {
      const page = listPageQuery(t.app.db, scope, { keyword }, sort, 'asc', undefined, { fewMatches: false, limit: 21, offset: 0 }).compile();
      const plan = await explain(page.sql, page.parameters);
      expect(plan, plan).toMatch(new RegExp(index));
    }
    for (const keyword of ['東京', '茶', 'ng']) {
      const count = t.app.db
        .selectFrom('leads')
        .select(sql<number>`count(*)`.as('n'))
        .where((eb) => leadConditions(eb, scope, { keyword }))
        .compile();
      const plan = await explain(count.sql, count.parameters);
      expect(plan, plan).not.toMatch(/search_folded ~~|Seq Scan on leads/);
    }
  });

  it("a keyword is looked for among the exhibitor's own leads (its index's first column), and both databases count the same matches", async () => {
    const scope = { participationId, offsetMinutes: 480 };
    for (const keyword of ['lotus', 'V0000042', 'v000004']) {
      const filters = { keyword };
      const count = t.app.db
        .selectFrom('leads')
        .select(sql<number>`count(*)::int`.as('n'))
        .where((eb) => leadConditions(eb, scope, filters))
        .compile();
      const plan = await countPlan(count);
      expect(plan, plan).not.toMatch(/Seq Scan on leads|leads_search_folded/);
      expect(plan, plan).toMatch(/Index Cond: \(+participation_id = /);
      // The matches by the index are the leads whose folded text holds the keyword, found without it.
      const matched = Number((await t.app.db.executeQuery<{ n: number }>(count)).rows[0]!.n);
      const recount = await sql<{ n: number }>`
        select count(*)::int as n from (select participation_id, search_folded || '' as text from leads offset 0) l
        where l.participation_id = ${participationId} and strpos(l.text, ${keyword.toLowerCase()}) > 0`.execute(t.app.db);
      expect(matched).toBe(Number(recount.rows[0]!.n));
      expect(matched).toBeGreaterThan(0);
      const listed = await get<ListAnswer>(t.app, `/oga/leads?limit=20&keyword=${keyword}&exactTotal=true`, demo);
      expect(listed.data.total).toBe(matched);
      // A keyword with few matches is read by its index and sorted: the same page, in the same order, either way.
      for (const [sort, order, column] of [
        ['name', 'asc', 'visitor_name'],
        ['scannedAt', 'desc', 'scanned_at'],
      ] as const) {
        const page = await get<ListAnswer>(t.app, `/oga/leads?limit=20&keyword=${keyword}&sort=${sort}&order=${order}`, demo);
        const expected = await sql<{ id: number }>`
          select id from leads where participation_id = ${participationId} and strpos(search_folded, ${keyword.toLowerCase()}) > 0
          order by ${sql.ref(column)} ${sql.raw(order)}, id ${sql.raw(order)} limit 20`.execute(t.app.db);
        expect(page.data.items.map((item) => item.id)).toEqual(expected.rows.map((row) => Number(row.id)));
      }
    }
  });

  it("one or two CJK characters are looked up in the exhibitor's CJK tokens (no sequential scan, no walk of a sort index)", async () => {
    for (const keyword of ['茶', '東京', '京都ホ']) {
      const { plan, matched, recounted } = await countKeyword(keyword);
      expect(plan, plan).toMatch(/leads_cjk_keyword/);
      expect(plan, plan).not.toMatch(/Seq Scan on leads|leads_by_name|leads_by_company|leads_by_scanned/);
      expect(matched, keyword).toBe(recounted);
      expect(matched, keyword).toBeGreaterThan(0);
    }
  });

  it("a rare pair of letters is looked up in the keyword index wherever it stands in a word (no walk of the exhibitor's leads), counted and listed exactly", async () => {
    for (const [keyword, expected] of [
      ['qx', ['Ana Lee', 'Jean-Qxavier Roux', 'Li Aqxel', 'Li Wei', 'Qxana Lee', 'Sato Ken']],
      ['QX', ['Ana Lee', 'Jean-Qxavier Roux', 'Li Aqxel', 'Li Wei', 'Qxana Lee', 'Sato Ken']],
      ['n-qx', ['Jean-Qxavier Roux']],
      ['7q', ['Li Wei']],
      ['q x', ['Q. Xu']],
    ] as const) {
      const { plan, matched, recounted } = await countKeyword(keyword);
      expect(plan, plan).not.toMatch(/Seq Scan on leads/);
      // Two letters (with or without another one beside them) by the trigram index, on PostgreSQL's statistics.
      if (engine === 'postgres' && keyword !== 'q x') {
        expect(plan, plan).toMatch(/Bitmap Index Scan on leads_keyword_by_participation[\s\S]*%>/);
        expect(plan, plan).not.toMatch(/leads_by_name|leads_by_company|leads_by_scanned/);
      }
      expect(matched, keyword).toBe(recounted);
      for (const sort of ['scannedAt', 'name']) {
        const listed = await get<ListAnswer>(t.app, `/oga/leads?limit=20&keyword=${encodeURIComponent(keyword)}&sort=${sort}&order=asc`, demo);
        expect(listed.data.total, keyword).toBe(expected.length);
        expect(listed.data.items.map((item) => item.visitorName).sort(), keyword).toEqual([...expected]);
      }
    }
  });

  it("after a few of the exhibitor's leads changed and the table was vacuumed, its leads are read from the indexes alone", async () => {
    // Renamed: a new version of each lead, the old one's line pointer dead (a name is indexed).
    const some = await t.app.db.selectFrom('leads').select(['id', 'visitor_name']).where('participation_id', '=', participationId).orderBy('id', 'desc').limit(5).execute();
    for (const lead of some)
      await t.app.db
        .updateTable('leads')
        .set({ visitor_name: `${lead.visitor_name} ` })
        .where('id', '=', lead.id)
        .execute();
    await sql`vacuum leads`.execute(t.app.db);
    const plan = await t.app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const read = await sql<{ 'QUERY PLAN': string }>`explain (analyze, costs off, timing off)
        select visitor_name, id from leads where participation_id = ${participationId} order by visitor_name, id`.execute(trx);
      return read.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan, plan).toMatch(/Index Only Scan using leads_by_name/);
    expect(plan, plan).toMatch(/Heap Fetches: 0\b/);
  });

  it("a lead's business card replaced: finding the leads that still name the old card reads no lead it does not need", async () => {
    // The two look-ups a card's deletion makes: the portal's "no lead refers to it any more" and
    // the foreign key's, which PostgreSQL runs for each deleted upload as written here, planned
    // once for any card (a generic plan).
    const plans = await t.app.db.transaction().execute(async (trx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await sql`prepare still_named (text) as select 1 from leads where leads.business_card = $1 limit 1`.execute(trx);
      await sql`prepare foreign_key_set_null (text) as update only leads set business_card = null where $1 operator(pg_catalog.=) business_card`.execute(trx);
      const read = async (statement: string) =>
        (await sql<{ 'QUERY PLAN': string }>`explain (costs off) execute ${sql.raw(statement)}('a-card')`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
      const found = [await read('still_named'), await read('foreign_key_set_null')];
      await sql`deallocate all`.execute(trx);
      return found;
    });
    for (const plan of plans) {
      expect(plan, plan).toMatch(/Index (Only )?Scan (using|on) leads_business_card\b/);
      expect(plan, plan).not.toMatch(/Seq Scan on leads/);
    }
  });

  it('a keyword in any language lists the pages of a recount, in every sort, whichever way its pages are read', async () => {
    const scope = { participationId, offsetMinutes: 480 };
    const sorts = [
      ['scannedAt', 'desc', 'scanned_at'],
      ['name', 'asc', 'visitor_name'],
      ['name', 'desc', 'visitor_name'],
      ['company', 'asc', 'company'],
    ] as const;
    // Few matches without a trigram (Japanese, Chinese), few with one (Vietnamese folded), many
    // without one ("ng"), more than the count's cap ("v000": every badge), names sharing a value.
    for (const keyword of ['東京', '茶', '京', 'Đà Nẵng', 'nguyễn', 'ng', 'v000']) {
      const folded = searchKeyword(keyword);
      const counted = await leadTotal(t.app.db, scope, { keyword }, { keywordByIndex: engine === 'pglite' });
      for (const [sort, order, column] of sorts) {
        const label = `${keyword} by ${sort} ${order}`;
        // The whole list, recounted without the indexes (a plain substring test, sorted).
        const all = (
          await sql<{ id: number }>`
            select id from (select id, participation_id, scanned_at, visitor_name, company, search_folded || '' as text from leads offset 0) l
            where l.participation_id = ${participationId} and strpos(l.text, ${folded}) > 0
            order by ${sql.ref(column)} ${sql.raw(order)}, id ${sql.raw(order)}`.execute(t.app.db)
        ).rows.map((row) => Number(row.id));
        expect(all.length, label).toBeGreaterThan(counted.kind === 'moreThan' ? 1000 : 20);
        expect(counted.kind === 'moreThan' ? 'moreThan' : counted.total, label).toBe(all.length > 1000 ? 'moreThan' : all.length);
        // Through the list: the first page, the page after it by keyset and the third by number.
        const first = await get<ListAnswer>(t.app, `/oga/leads?limit=20&keyword=${encodeURIComponent(keyword)}&sort=${sort}&order=${order}`, demo);
        expect(
          first.data.items.map((item) => item.id),
          label,
        ).toEqual(all.slice(0, 20));
        const next = await get<ListAnswer>(t.app, `/oga/leads?limit=20&keyword=${encodeURIComponent(keyword)}&sort=${sort}&order=${order}&after=${first.data.next}`, demo);
        expect(
          next.data.items.map((item) => item.id),
          label,
        ).toEqual(all.slice(20, 40));
        const third = await get<ListAnswer>(t.app, `/oga/leads?limit=20&page=3&keyword=${encodeURIComponent(keyword)}&sort=${sort}&order=${order}`, demo);
        expect(
          third.data.items.map((item) => item.id),
          label,
        ).toEqual(all.slice(40, 60));
        // Each way a page can be read, with an offset and from a keyset position.
        // Counted along the page's order, more matches than the cap leave their first ones for the page.
        const along = await leadTotal(t.app.db, scope, { keyword }, { keywordByIndex: engine === 'pglite', pageOrder: { sort, order } });
        const ways = [
          { fewMatches: false },
          { fewMatches: true },
          ...(counted.matchIds ? [{ fewMatches: true, matchIds: counted.matchIds }] : []),
          ...(along.firstMatchIds ? [{ fewMatches: false, firstMatchIds: along.firstMatchIds }] : []),
        ];
        if (sort !== 'scannedAt' && !keywordIndexed(folded) && all.length > 1000) expect(along.firstMatchIds, label).toHaveLength(1001);
        for (const way of ways) {
          const wayLabel = `${label}, ${JSON.stringify(Object.keys(way))} ${way.fewMatches}`;
          const skipped = await readListPage(t.app.db, scope, { keyword }, sort, order, undefined, { ...way, limit: 21, offset: 30 });
          expect(
            skipped.map((row) => Number(row.id)),
            wayLabel,
          ).toEqual(all.slice(30, 51));
          const at = skipped[9]!;
          const after = await readListPage(t.app.db, scope, { keyword }, sort, order, { value: at.sort_value, id: Number(at.id) }, { ...way, limit: 21, offset: 0 });
          expect(
            after.map((row) => Number(row.id)),
            wayLabel,
          ).toEqual(all.slice(40, 61));
        }
      }
    }
  });

  /** A keyword's count as the list runs it: its plan, its matches, and the exhibitor's leads recounted by a plain substring test. */
  async function countKeyword(keyword: string) {
    const count = t.app.db
      .selectFrom('leads')
      .select(sql<number>`count(*)::int`.as('n'))
      .where((eb) => leadConditions(eb, { participationId, offsetMinutes: 480 }, { keyword }))
      .compile();
    const plan = await countPlan(count);
    const matched = Number((await t.app.db.executeQuery<{ n: number }>(count)).rows[0]!.n);
    const recount = await sql<{ n: number }>`
      select count(*)::int as n from (select participation_id, search_folded || '' as text from leads offset 0) l
      where l.participation_id = ${participationId} and strpos(l.text, ${searchKeyword(keyword)}) > 0`.execute(t.app.db);
    return { plan, matched, recounted: Number(recount.rows[0]!.n) };
  }

  /** The plan of a count as the list runs it: on the embedded database through an index (sequential scans off for the count). */
  function countPlan(count: { sql: string; parameters: readonly unknown[] }) {
    return t.app.db.transaction().execute(async (trx) => {
      if (engine === 'pglite') await sql`set local enable_seqscan = off`.execute(trx);
      return explain(count.sql, count.parameters, trx);
    });
  }

  async function explain(text: string, parameters: readonly unknown[], executor: Kysely<Database> = t.app.db) {
    const result = await executor.executeQuery<{ 'QUERY PLAN': string }>({
      sql: `explain ${text}`,
      parameters,
      query: { kind: 'RawNode' } as never,
      queryId: { queryId: 'explain' } as never,
    });
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }
});
