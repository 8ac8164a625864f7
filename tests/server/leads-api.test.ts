import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, ENGINES, get, login, patch, post, call, type TestApp, unscannedVisitors } from './helpers';

// LD2 and P5, the leads API for an exhibitor's own systems, on both engines: API keys (scoped,
// shown once, revocable, another exhibitor's data answered 404) and the incremental sync of
// GET /oga/leads (updatedSince, a cursor that loses and repeats nothing while leads change).

interface SyncAnswer {
  items: Array<{ id: number; notes: string; visitorName: string }>;
  total: number;
  next: string | null;
  hasMore: boolean;
}

describe.each(ENGINES)('leads API on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let participationId: number;
  let eventId: number;

  const createKey = async (token: string, scopes: string[], name = 'CRM sync') => {
    const answer = await post<{ id: number; key: string; prefix: string; scopes: string[] }>(t.app, '/oga/api-keys', { name, scopes }, token);
    expect(answer.code).toBe(200);
    return answer.data;
  };
  const sync = async (key: string, query: string) => {
    const answer = await get<SyncAnswer>(t.app, `/oga/leads?${query}`, key);
    expect(bodyOf(answer)).toMatchObject({ code: 200 });
    return answer.data;
  };
  /** Scans `count` visitors the demo exhibitor has no lead of yet; answers the new lead ids. */
  const scanNew = async (count: number) => {
    const visitors = await unscannedVisitors(t.app, eventId, participationId, count);
    const scans = visitors.map((visitor) => ({ clientScanId: `api-${randomBytes(6).toString('hex')}`, badgeCode: visitor.badge_code, scannedAt: new Date().toISOString() }));
    const answer = await post<{ results: Array<{ leadId: number }> }>(t.app, '/oga/leads/scans', { scans }, demo);
    expect(answer.code).toBe(200);
    return answer.data.results.map((result) => result.leadId);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    demo = await login(t.app, 'demo');
    const user = await t.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    participationId = user.participation_id!;
    eventId = user.event_id!;
  });
  afterAll(async () => t?.close());

  it('LD2: a key is shown once and listed by its prefix; it reads leads within its scopes only, and nothing else of the portal', async () => {
    const leadsKey = await createKey(demo, ['leads:read']);
    expect(leadsKey.key).toMatch(/^ogak_[A-Za-z0-9_-]{43}$/);
    const stored = await t.app.db.selectFrom('api_keys').selectAll().where('id', '=', leadsKey.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(leadsKey.key);
    const listed = (await get<Array<{ id: number; prefix: string; scopes: string[]; lastUsedAt: string | null }>>(t.app, '/oga/api-keys', demo)).data;
    expect(listed.find((key) => key.id === leadsKey.id)).toMatchObject({ prefix: leadsKey.key.slice(0, 12), scopes: ['leads:read'], lastUsedAt: null });
    expect(JSON.stringify(listed)).not.toContain(leadsKey.key);

    const page = await get(t.app, '/oga/leads?limit=10', leadsKey.key);
    expect(page.code).toBe(200);
    expect(page.data.items.length).toBeGreaterThan(0);
    const lead = page.data.items[0] as { id: number };
    expect((await get(t.app, `/oga/leads/${lead.id}`, leadsKey.key)).code).toBe(200);
    // Out of its scope: exports; and the rest of the portal (qualifying, account, forms, its own keys).
    for (const refused of [
      await get(t.app, '/oga/leads/exports', leadsKey.key),
      await patch(t.app, `/oga/leads/${lead.id}`, { notes: 'from a key' }, leadsKey.key),
      await get(t.app, '/oga/user/info', leadsKey.key),
      await get(t.app, '/oga/api-keys', leadsKey.key),
      await post(t.app, '/oga/leads/exports', { format: 'csv' }, leadsKey.key),
    ]) {
      expect(bodyOf(refused)).toMatchObject({ code: 403, error: 'apiKeyScope' });
    }
    expect((await get<Array<{ id: number; lastUsedAt: string | null }>>(t.app, '/oga/api-keys', demo)).data.find((key) => key.id === leadsKey.id)?.lastUsedAt).not.toBeNull();

    const exportsKey = await createKey(demo, ['exports:read'], 'Exports');
    const exported = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    expect((await get(t.app, '/oga/leads/exports', exportsKey.key)).data.total).toBeGreaterThan(0);
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${exported.data.id}/file`, headers: { authorization: `Bearer ${exportsKey.key}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(bodyOf(await get(t.app, '/oga/leads', exportsKey.key))).toMatchObject({ code: 403, error: 'apiKeyScope' });

    // Bad requests for a key: no name, an unknown scope, no scope.
    expect((await post(t.app, '/oga/api-keys', { name: ' ', scopes: ['leads:read'] }, demo)).error).toBe('required');
    expect((await post(t.app, '/oga/api-keys', { name: 'x', scopes: ['leads:write'] }, demo)).error).toBe('badRequest');
    expect((await post(t.app, '/oga/api-keys', { name: 'x', scopes: [] }, demo)).error).toBe('badRequest');
  });

  it('LD2: a revoked key answers 401 at once; a team user cannot manage keys; creation and revocation are audited', async () => {
    const key = await createKey(demo, ['leads:read', 'exports:read'], 'Soon revoked');
    expect((await get(t.app, '/oga/leads?limit=10', key.key)).code).toBe(200);
    expect((await call(t.app, 'DELETE', `/oga/api-keys/${key.id}`, { token: demo })).code).toBe(200);
    expect(bodyOf(await get(t.app, '/oga/leads?limit=10', key.key))).toMatchObject({ code: 401, error: 'invalidSession' });
    expect((await call(t.app, 'DELETE', `/oga/api-keys/${key.id}`, { token: demo })).code).toBe(404);
    expect((await get<Array<{ id: number }>>(t.app, '/oga/api-keys', demo)).data.map((each) => each.id)).not.toContain(key.id);
    // A made-up key of the right shape.
    expect((await get(t.app, '/oga/leads', `ogak_${randomBytes(32).toString('base64url')}`)).code).toBe(401);
    const actions = await t.app.db.selectFrom('audit_log').select(['action']).where('subject_type', '=', 'apiKey').where('subject_id', '=', String(key.id)).execute();
    expect(actions.map((row) => row.action).sort()).toEqual(['apiKey.create', 'apiKey.revoke']);
  });

  it("P5: another exhibitor's key reads none of these leads or exports (404 on their ids) and cannot revoke these keys", async () => {
    const ours = await createKey(demo, ['leads:read']);
    const lead = (await get(t.app, '/oga/leads?limit=10', ours.key)).data.items[0] as { id: number };
    const exported = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    const other = await t.app.db.selectFrom('users').select(['participation_id']).where('login', '=', 'limited').executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('participations')
      .set({ displayed_modules: JSON.stringify(['Forms', 'Support', 'Leadgrab']) })
      .where('id', '=', other.participation_id!)
      .execute();
    const limited = await login(t.app, 'limited');
    const theirs = await createKey(limited, ['leads:read', 'exports:read']);
    expect(bodyOf(await get(t.app, `/oga/leads/${lead.id}`, theirs.key))).toMatchObject({ code: 404, error: 'notFound' });
    const file = await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${exported.data.id}/file`, headers: { authorization: `Bearer ${theirs.key}` } });
    expect(file.json()).toMatchObject({ code: 404 });
    const synced = await sync(theirs.key, 'updatedSince=2000-01-01T00:00:00Z');
    expect(synced.items.map((item) => item.id)).not.toContain(lead.id);
    expect((await call(t.app, 'DELETE', `/oga/api-keys/${ours.id}`, { token: limited })).code).toBe(404);
    expect((await get(t.app, '/oga/leads?limit=10', ours.key)).code).toBe(200);
  });

  it('LD2: incremental sync pages every lead once while leads are created and changed between pages; a changed lead comes again later, once', async () => {
    const key = (await createKey(demo, ['leads:read'])).key;
    const expected = new Set((await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', participationId).execute()).map((row) => Number(row.id)));
    const seen: number[] = [];
    let answer = await sync(key, 'updatedSince=2000-01-01T00:00:00Z&batchSize=7');
    seen.push(...answer.items.map((item) => item.id));
    expect(answer.total).toBe(expected.size);
    let round = 0;
    const changed: number[] = [];
    const created: number[] = [];
    while (answer.hasMore) {
      round += 1;
      if (round === 2) {
        // A lead already answered and one not answered yet change; two new leads arrive.
        const pending = [...expected].find((id) => !seen.includes(id))!;
        for (const id of [seen[0]!, pending]) {
          expect((await patch(t.app, `/oga/leads/${id}`, { notes: `changed in round ${round}` }, demo)).code).toBe(200);
          changed.push(id);
        }
        created.push(...(await scanNew(2)));
      }
      answer = await sync(key, `cursor=${answer.next}&batchSize=7`);
      seen.push(...answer.items.map((item) => item.id));
    }
    // Every lead, the new ones included; only the lead changed after it was answered came twice.
    expect(new Set(seen)).toEqual(new Set([...expected, ...created]));
    const counts = new Map<number, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1).map(([id]) => id)).toEqual([changed[0]]);
    // The last cursor, kept: nothing new until a lead changes, then that lead alone, with its new state.
    const last = answer.next!;
    expect((await sync(key, `cursor=${last}`)).items).toEqual([]);
    await patch(t.app, `/oga/leads/${created[0]}`, { notes: 'later' }, demo);
    const later = await sync(key, `cursor=${last}`);
    expect(later.items.map((item) => [item.id, item.notes])).toEqual([[created[0], 'later']]);
    expect(later.hasMore).toBe(false);
    // updatedSince alone: the leads changed at or after it.
    const since = await t.app.db.selectFrom('leads').select('changed_at').where('id', '=', created[0]!).executeTakeFirstOrThrow();
    expect((await sync(key, `updatedSince=${encodeURIComponent(new Date(since.changed_at).toISOString())}`)).items.map((item) => item.id)).toEqual([created[0]]);
  });

  it.runIf(engine === 'postgres')('LD2: the sync never moves past a write still in flight: a lead changed in an open transaction comes once it commits', async () => {
    const key = (await createKey(demo, ['leads:read'])).key;
    let answer = await sync(key, 'updatedSince=2000-01-01T00:00:00Z&batchSize=1000');
    while (answer.hasMore) answer = await sync(key, `cursor=${answer.next}&batchSize=1000`);
    const caughtUp = answer.next!;
    const [slow, quick] = await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', participationId).orderBy('id').limit(2).execute();
    await t.app.db.transaction().execute(async (trx) => {
      // A write begins (its change time is its transaction's start) …
      await sql`select 1`.execute(trx);
      // … another lead changes and commits meanwhile, with a later change time …
      expect((await patch(t.app, `/oga/leads/${quick!.id}`, { notes: 'written quickly' }, demo)).code).toBe(200);
      // … so the sync waits: answering the later change would move the cursor past the earlier one.
      const during = await sync(key, `cursor=${caughtUp}`);
      expect(during.items).toEqual([]);
      expect(during.next).toBe(caughtUp);
      await trx.updateTable('leads').set({ notes: 'written slowly' }).where('id', '=', slow!.id).execute();
    });
    const after = await sync(key, `cursor=${caughtUp}`);
    expect(after.items.map((item) => [item.id, item.notes])).toEqual([
      [Number(slow!.id), 'written slowly'],
      [Number(quick!.id), 'written quickly'],
    ]);
  });

  it("LD2: a malformed updatedSince or cursor is a coded 400, in the caller's language", async () => {
    const key = (await createKey(demo, ['leads:read'])).key;
    for (const bad of ['yesterday', '2027-03-17', '2027-13-40T00:00:00Z', '2026-02-30T00:00:00Z', '2027-03-17T24:30:00Z', '2027-03-17T02:15:00', '']) {
      const answer = await get(t.app, `/oga/leads?updatedSince=${encodeURIComponent(bad)}`, key);
      expect(answer.status).toBe(400);
      expect(bodyOf(answer)).toMatchObject({ error: 'updatedSinceInvalid' });
    }
    const inJapanese = await get(t.app, '/oga/leads?updatedSince=soon', key, { headers: { language: 'ja' } });
    expect(inJapanese.msg).toContain('updatedSince');
    expect(inJapanese.msg).not.toBe((await get(t.app, '/oga/leads?updatedSince=soon', key)).msg);
    for (const bad of ['abc', Buffer.from('["2027-03-17T02:15:00Z",1]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      const answer = await get(t.app, `/oga/leads?cursor=${bad}`, key);
      expect(answer.status).toBe(400);
      expect(bodyOf(answer)).toMatchObject({ error: 'leadCursorInvalid' });
    }
  });
});
