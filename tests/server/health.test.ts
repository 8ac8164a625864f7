import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// /healthz (the process answers) and /readyz (database reachable, migrations applied,
// forms loaded) answer JSON without a session, and readiness fails when the database is gone.

async function probe(t: TestApp, url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, type: String(response.headers['content-type']), body: response.json() };
}

/** Takes the test's database away the way an outage does: connections refused from now on. */
async function takeDatabaseDown(t: TestApp): Promise<void> {
  if (t.engine === 'pglite') {
    // The embedded database lives in the process: closing it is the outage.
    await t.app.db.destroy();
    return;
  }
  const name = new URL(t.config.databaseUrl!).pathname.slice(1);
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  } finally {
    await client.end();
  }
}

describe.each(ENGINES)('health and readiness on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('/healthz answers JSON "alive" without a session, never the web app', async () => {
    const answer = await probe(t, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'alive' });
  });

  it('/readyz answers ready with every check passing on a migrated database with forms', async () => {
    const answer = await probe(t, '/readyz');
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'ready', checks: { database: { ok: true }, migrations: { ok: true }, forms: { ok: true } } });
  });

  it('/readyz answers 503 not ready when a migration is missing', async () => {
    const [last] = (await t.app.db
      .selectFrom('kysely_migration' as never)
      .select((eb) => eb.ref('name' as never).as('name'))
      .orderBy('name' as never, 'desc')
      .limit(1)
      .execute()) as { name: string }[];
    await t.app.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last!.name as never)
      .execute();
    const answer = await probe(t, '/readyz');
    expect(answer.status).toBe(503);
    expect(answer.body.status).toBe('not ready');
    expect(answer.body.checks.database).toEqual({ ok: true });
    expect(answer.body.checks.migrations).toEqual({ ok: false, detail: `not applied: ${last!.name}` });
  });
});

describe.each(ENGINES)('readiness with the database down on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close().catch(() => undefined));

  it('/readyz answers 503 not ready, /healthz still answers alive', async () => {
    expect((await probe(t, '/readyz')).status).toBe(200);
    await takeDatabaseDown(t);
    const ready = await probe(t, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.type).toMatch(/^application\/json/);
    expect(ready.body.status).toBe('not ready');
    expect(ready.body.checks.database.ok).toBe(false);
    expect(ready.body.checks.migrations.ok).toBe(false);
    // Nothing internal (host, user, stack) reaches the caller.
    expect(JSON.stringify(ready.body)).not.toMatch(/localhost|127\.0\.0\.1|postgres:|\n\s+at /);
    expect(await probe(t, '/healthz')).toMatchObject({ status: 200, body: { status: 'alive' } });
  });
});
