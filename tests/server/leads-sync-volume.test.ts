import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLeads, insertVisitors } from '../../src/server/db/demo-leads';
import { bodyOf, createTestApp, ENGINES, get, login, patch, post, type TestApp, demoExhibitorScope, unscannedVisitors } from './helpers';

// LD2, the leads API's incremental sync at a modest volume, on both engines: a CRM paging 1,500
// leads 100 at a time while the exhibitor's people qualify leads (answered ones and ones still
// to come) and scan new visitors between pages receives every lead, a lead changed after it was
// answered once more with its new state, and nothing else twice.

const LEADS = 1_500;
const BATCH = 100;

interface SyncAnswer {
  items: Array<{ id: number; notes: string; visitorName: string }>;
  total: number;
  next: string;
  hasMore: boolean;
}

describe.each(ENGINES)('leads API sync at volume on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let key: string;
  let participationId: number;
  let eventId: number;
  const run = randomBytes(3).toString('hex');

  const sync = async (query: string) => {
    const answer = await get<SyncAnswer>(t.app, `/oga/leads?${query}`, key);
    expect(bodyOf(answer)).toMatchObject({ code: 200 });
    return answer.data;
  };
  const leadIds = async () =>
    (await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', participationId).orderBy('id').execute()).map((row) => Number(row.id));

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const row = await demoExhibitorScope(t.app);
    participationId = row.id;
    eventId = row.eventId;
    await insertVisitors(t.app.db, { id: eventId, code: row.code }, 1, LEADS + 200);
    await insertLeads(t.app.db, {
      participationId,
      eventId,
      eventCode: row.code,
      offsetMinutes: row.utc_offset_minutes,
      start: new Date(row.starts_at),
      end: new Date(row.ends_at),
      first: 6_000_000,
      last: 6_000_000 + LEADS - 1,
      visitors: LEADS,
      qualifiedShare: 0.5,
      scannedBy: [row.userId],
    });
    await sql`analyze leads`.execute(t.app.db);
    const created = await post<{ key: string }>(t.app, '/oga/api-keys', { name: `CRM ${run}`, scopes: ['leads:read'] }, demo);
    key = created.data.key;
  }, 120_000);
  afterAll(async () => t?.close());

  it('every lead comes once, a lead changed after it was answered once more with its new state, while leads are qualified and scanned between pages', async () => {
    const before = await leadIds();
    const seen: Array<{ id: number; notes: string }> = [];
    const changedAfterAnswer = new Map<number, string>();
    const created: number[] = [];
    let answer = await sync(`updatedSince=2000-01-01T00:00:00Z&batchSize=${BATCH}`);
    expect(answer.total).toBe(before.length);
    seen.push(...answer.items);
    for (let page = 1; answer.hasMore; page++) {
      if (page % 3 === 0) {
        const answered = new Set(seen.map((item) => item.id));
        // A lead already answered and one still to come are qualified; three visitors are scanned.
        const old = seen[(page * 37) % seen.length]!.id;
        const pending = before.find((id) => !answered.has(id) && id % 7 === page % 7)!;
        for (const id of [old, pending]) expect((await patch(t.app, `/oga/leads/${id}`, { notes: `page ${page}` }, demo)).code).toBe(200);
        changedAfterAnswer.set(old, `page ${page}`);
        const visitors = await unscannedVisitors(t.app, eventId, participationId, 3);
        const scans = visitors.map((visitor, index) => ({ clientScanId: `${run}-${page}-${index}`, badgeCode: visitor.badge_code, scannedAt: new Date().toISOString() }));
        const scanned = await post<{ results: Array<{ leadId: number }> }>(t.app, '/oga/leads/scans', { scans }, demo);
        expect(scanned.code).toBe(200);
        created.push(...scanned.data.results.map((result) => result.leadId));
      }
      answer = await sync(`cursor=${answer.next}&batchSize=${BATCH}`);
      seen.push(...answer.items);
    }
    expect(created.length).toBeGreaterThanOrEqual(12);
    expect(new Set(seen.map((item) => item.id))).toEqual(new Set([...before, ...created]));
    const counts = new Map<number, number>();
    for (const { id } of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    // Twice: the leads changed after they were answered (a lead changed again later comes once more, not once per change).
    expect(new Set([...counts].filter(([, n]) => n > 1).map(([id]) => id))).toEqual(new Set(changedAfterAnswer.keys()));
    expect(Math.max(...counts.values())).toBe(2);
    // Its last answer carries its last state.
    for (const [id, notes] of changedAfterAnswer) expect(seen.findLast((item) => item.id === id)!.notes).toBe(notes);
    // Caught up: the kept cursor answers nothing more.
    expect((await sync(`cursor=${answer.next}`)).items).toEqual([]);
  });
});
