import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { bodyOf, createTestApp, ENGINES, get, HOUR, login, post, put, type TestApp } from './helpers';

// P5/E1: a full disk under the database (PostgreSQL's SQLSTATE 53100 "disk_full", as the embedded
// database raises it: "could not extend file …: No space left on device") answers a draft save and
// a scan with the coded "storage full" (HTTP 507) in the caller's language, stores nothing, and is
// logged once, loudly (then at most once a minute). The disk is not filled: a trigger raises the database's own error.

const DISK_FULL = 'could not extend file "base/5/16384": No space left on device';

describe.each(ENGINES)('a full database disk on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  const lines: string[] = [];
  const run = randomBytes(3).toString('hex');

  beforeAll(async () => {
    t = await createTestApp(engine, { logLevel: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    demo = await login(t.app, 'demo');
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION '${DISK_FULL}' USING ERRCODE = '53100'; END $$`,
      )
      .execute(t.app.db);
    for (const table of ['form_entries', 'leads']) {
      await sql.raw(`CREATE TRIGGER test_disk_full_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_disk_full()`).execute(t.app.db);
    }
  });
  afterAll(async () => {
    if (t) {
      for (const table of ['form_entries', 'leads']) await sql.raw(`DROP TRIGGER IF EXISTS test_disk_full_${table} ON ${table}`).execute(t.app.db);
      await sql.raw('DROP FUNCTION IF EXISTS test_disk_full()').execute(t.app.db);
    }
    await t?.close();
  });

  const loudLines = () => lines.filter((line) => line.includes('"storageFull"') || /storage is full/i.test(line));

  it('a draft save and a scan answer 507 "storage full" in the caller\'s language, store nothing, and the log says it once, loudly', async () => {
    const entriesBefore = Number((await t.app.db.selectFrom('form_entries').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
    const leadsBefore = Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);

    const form = await get(t.app, '/oga/forms/s04', demo);
    const draft = await put(t.app, '/oga/forms/s04/draft', { data: { badges: [] }, version: form.data.entry?.version ?? 0 }, demo, { headers: { language: 'ja' } });
    expect(draft.status).toBe(507);
    expect(bodyOf(draft)).toEqual({ code: 601, msg: translate('ja', 'errors.storageFullNothingSaved'), data: null, error: 'storageFull' });
    expect(loudLines()).toHaveLength(1);

    const badge = await t.app.db.selectFrom('visitors').select('badge_code').orderBy('id').executeTakeFirstOrThrow();
    const scans = [{ clientScanId: `full-${run}`, badgeCode: badge.badge_code, scannedAt: new Date(Date.now() - 2 * HOUR).toISOString() }];
    const scan = await post(t.app, '/oga/leads/scans', { scans }, demo, { headers: { language: 'vi' } });
    expect(scan.status).toBe(507);
    expect(bodyOf(scan)).toEqual({ code: 601, msg: translate('vi', 'errors.storageFullNothingSaved'), data: null, error: 'storageFull' });
    // Said once: the second refusal right after is counted, not logged again.
    expect(loudLines()).toHaveLength(1);

    const loud = JSON.parse(loudLines()[0]!) as { level: number; msg: string };
    expect(loud.level).toBe(60);
    expect(loud.msg).toMatch(/storage is full/i);
    expect(lines.filter((line) => line.includes('unexpected error'))).toEqual([]);

    expect(Number((await t.app.db.selectFrom('form_entries').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n)).toBe(entriesBefore);
    expect(Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n)).toBe(leadsBefore);
  });
});
