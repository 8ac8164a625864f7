import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadChunks } from '../../src/server/modules/leads/query';
import { createTestApp, ENGINES, type TestApp, demoExhibitorScope } from './helpers';

// LD4: an export reads its leads in keyset chunks of JSON. Across chunk boundaries —
// leads sharing one scan time included — every matching lead comes exactly once, newest first,
// with the fields an export writes.

describe.each(ENGINES)('LD4 export chunks on %s', (engine) => {
  let t: TestApp;
  let participationId: number;
  let offsetMinutes: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const row = await demoExhibitorScope(t.app);
    participationId = row.id;
    offsetMinutes = row.utc_offset_minutes;
    // Leads sharing scan instants (some to the microsecond), so the keyset's tie-breaker and its
    // precision both matter at chunk boundaries.
    await sql`
      insert into leads (participation_id, client_scan_id, badge_code, badge_known, visitor_name, scanned_by, scanned_at, event_hour, tag_answers, search_folded)
      select ${participationId}, 'chunk-' || n, 'CHUNK-' || n, false, 'Chunk visitor ' || n, ${row.userId},
        timestamptz '2027-03-01 10:00:00.123456+00' + ((n / 4) * interval '1 second') + ((n % 2) * interval '1 microsecond'), 0,
        jsonb_build_object('1', jsonb_build_array('c' || n)),
        -- the keyword text the application writes (engine leadSearchText): name, company, e-mail, badge
        'chunk visitor ' || n || E'\n\n\nchunk-' || n
      from generate_series(1, 53) as n`.execute(t.app.db);
  });
  afterAll(async () => t?.close());

  it('every lead once, newest first, whatever the chunk size', async () => {
    const expected = await t.app.db
      .selectFrom('leads')
      .select(['id', 'visitor_name'])
      .where('participation_id', '=', participationId)
      .orderBy('scanned_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(expected.length).toBeGreaterThan(53);
    for (const size of [1, 7, 53, 1000]) {
      const read: Array<{ id: number; visitor_name: string }> = [];
      for await (const chunk of leadChunks(t.app.db, { participationId, offsetMinutes }, {}, size)) {
        expect(chunk.length).toBeLessThanOrEqual(size);
        read.push(...chunk.map((r) => ({ id: Number(r.id), visitor_name: r.visitor_name })));
      }
      expect(read).toEqual(expected.map((r) => ({ id: Number(r.id), visitor_name: r.visitor_name })));
    }
    const [first] = await leadChunks(t.app.db, { participationId, offsetMinutes }, { keyword: 'Chunk visitor 53' })
      .next()
      .then((r) => r.value ?? []);
    expect(first).toMatchObject({ visitor_name: 'Chunk visitor 53', badge_code: 'CHUNK-53', tag_answers: { '1': ['c53'] }, scanned_by_name: 'Aisyah Rahman' });
    expect(new Date(first!.scanned_at).toISOString()).toBe('2027-03-01T10:00:13.123Z');
  });
});
