import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/tokens';
import { bodyOf, createTestApp, ENGINES, eventually, get, login, type TestApp } from './helpers';

// The auth hook keeps a resolved session for a moment, to spare a database read per request.
// Whatever changes a session's user, participation, exhibitor, event or settings must still show
// at once when made through this server, and within the cache's lifetime when made by another
// server on the database.

const ACCOUNT_INFO = '/oga/system/project/exhibirotCode';

describe.each(ENGINES)('resolved sessions kept between requests on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  const participationOf = async (account: string) =>
    await t.app.db.selectFrom('users').select(['participation_id', 'id']).where('login_key', '=', account).executeTakeFirstOrThrow();

  it('an organiser-side change to the participation shows on the very next request', async () => {
    const token = await login(t.app, 'demo');
    const first = bodyOf(await get(t.app, ACCOUNT_INFO, token));
    expect(first.code).toBe(200);
    const modules = first.data.displayedModule as string[];
    expect(modules.length).toBeGreaterThan(1);
    const { participation_id } = await participationOf('demo');
    const kept = modules.slice(0, 1);
    const before = await t.app.db.selectFrom('participations').select('displayed_modules').where('id', '=', participation_id!).executeTakeFirstOrThrow();
    try {
      await t.app.db
        .updateTable('participations')
        .set({ displayed_modules: JSON.stringify(kept) })
        .where('id', '=', participation_id!)
        .execute();
      expect(bodyOf(await get(t.app, ACCOUNT_INFO, token)).data.displayedModule).toEqual(kept);
    } finally {
      await t.app.db
        .updateTable('participations')
        .set({ displayed_modules: JSON.stringify(before.displayed_modules) })
        .where('id', '=', participation_id!)
        .execute();
    }
    expect(bodyOf(await get(t.app, ACCOUNT_INFO, token)).data.displayedModule).toEqual(modules);
  });

  it('a user disabled by a raw SQL statement is refused on the next request', async () => {
    const token = await login(t.app, 'limited');
    expect(bodyOf(await get(t.app, '/oga/user/info', token)).code).toBe(200);
    const { id } = await participationOf('limited');
    try {
      await sql`update users set status = 'disabled' where id = ${id}`.execute(t.app.db);
      expect(bodyOf(await get(t.app, '/oga/user/info', token)).error).toBe('invalidSession');
    } finally {
      await sql`update users set status = 'active' where id = ${id}`.execute(t.app.db);
    }
  });

  it('a session revoked by another server on the same database is refused here soon after', async () => {
    const token = await login(t.app, 'demo');
    expect(bodyOf(await get(t.app, ACCOUNT_INFO, token)).code).toBe(200);
    // Another instance's write: the same database, but not through this server's observer.
    await t.app.db.withoutPlugins().updateTable('sessions').set({ revoked_at: new Date() }).where('token_hash', '=', hashToken(token)).execute();
    const refused = await eventually(
      async () => bodyOf(await get(t.app, ACCOUNT_INFO, token)),
      (body) => body.code !== 200,
      5_000,
    );
    expect(refused.error).toBe('invalidSession');
  });
});
