import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_TOTAL_CAP } from '../../src/engine/leads';
import { insertLeads, insertVisitors } from '../../src/server/db/demo-leads';
import { createTestApp, ENGINES, get, login, type TestApp, demoExhibitorScope } from './helpers';

// LD2 at scale: the lead list no longer counts every match of a broad query. One
// filter: exact from the rollup. Several filters: estimated from each filter's own count unless
// the most selective is small (then counted). A keyword: counted up to LEAD_TOTAL_CAP, then
// "more than". `exactTotal=true` counts everything. The page itself is always the real one.

const LEADS = 25_000;

interface ListAnswer {
  items: Array<{ country: string; leadType: string | null; temperature: string | null; followUp: string | null; company: string; visitorName: string }>;
  total: number;
  totalIsEstimate: boolean;
  totalKind: 'exact' | 'about' | 'moreThan';
  page: number;
}

describe.each(ENGINES)('lead list totals at volume (exact, estimated, capped) on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let participationId: number;
  const list = async (query: string) => {
    const answer = await get<ListAnswer>(t.app, `/oga/leads?${query}`, demo);
    expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
    return answer.data;
  };
  /** The number of the participation's leads matching a SQL condition, counted directly. */
  const counted = async (condition: ReturnType<typeof sql>) =>
    Number((await sql<{ n: number }>`select count(*)::int as n from leads where participation_id = ${participationId} and ${condition}`.execute(t.app.db)).rows[0]!.n);

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const row = await demoExhibitorScope(t.app);
    participationId = row.id;
    await insertVisitors(t.app.db, { id: row.eventId, code: row.code }, 1, LEADS);
    await insertLeads(t.app.db, {
      participationId,
      eventId: row.eventId,
      eventCode: row.code,
      offsetMinutes: row.utc_offset_minutes,
      start: new Date(row.starts_at),
      end: new Date(row.ends_at),
      first: 5_000_000,
      last: 5_000_000 + LEADS - 1,
      visitors: LEADS,
      qualifiedShare: 0.5,
      scannedBy: [row.userId],
    });
  }, 120_000);
  afterAll(async () => t?.close());

  it('one filter: the exact count (from the rollup), not an estimate', async () => {
    const answer = await list('temperature=none');
    expect(answer.totalIsEstimate).toBe(false);
    expect(answer.totalKind).toBe('exact');
    expect(answer.total).toBe(await counted(sql`temperature is null`));
  });

  it('two broad filters together: an estimate, said to be one; exactTotal=true counts; the page is the real one', async () => {
    const exact = await counted(sql`temperature is null and follow_up is null`);
    expect(exact).toBeGreaterThan(2_000);
    const answer = await list('temperature=none&followUp=none');
    expect(answer.totalIsEstimate).toBe(true);
    expect(answer.totalKind).toBe('about');
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.items).toHaveLength(20);
    expect(answer.items.every((lead) => lead.temperature === null && lead.followUp === null)).toBe(true);

    const counting = await list('temperature=none&followUp=none&exactTotal=true');
    expect(counting.totalIsEstimate).toBe(false);
    expect(counting.totalKind).toBe('exact');
    expect(counting.total).toBe(exact);
  });

  it('two filters of which one is narrow: counted exactly', async () => {
    expect(await counted(sql`country = 'JP'`)).toBeLessThan(2_000);
    const answer = await list('country=Japan&temperature=hot');
    expect(answer.totalKind).toBe('exact');
    expect(answer.total).toBe(await counted(sql`country = 'JP' and temperature = 'hot'`));
  });

  it('a common keyword: "more than" the cap; a rare one: its exact count', async () => {
    expect(await counted(sql`company ilike '%lotus%'`)).toBeGreaterThan(LEAD_TOTAL_CAP);
    const common = await list('keyword=lotus');
    expect(common.totalKind).toBe('moreThan');
    expect(common.totalIsEstimate).toBe(true);
    expect(common.total).toBe(LEAD_TOTAL_CAP);
    expect(common.items).toHaveLength(20);
    expect(common.items.every((lead) => /lotus/i.test(`${lead.visitorName}\n${lead.company}`))).toBe(true);
    // The last page the capped total offers is served.
    expect((await list(`keyword=lotus&page=${LEAD_TOTAL_CAP / 20}`)).page).toBe(LEAD_TOTAL_CAP / 20);

    const rare = await list('keyword=Golden%20Harvest%20Foods');
    expect(rare.totalKind).toBe('exact');
    expect(rare.total).toBe(await counted(sql`(visitor_name || E'\n' || company || E'\n' || email || E'\n' || badge_code) ilike '%Golden Harvest Foods%'`));
  });
});
