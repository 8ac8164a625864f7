import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { attemptLogin, bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, get, HOUR, login, MINUTE, type TestApp } from './helpers';

// S1: login with account ID and password, the shape of the token and how credentials are kept;
// the default failure limit of 100 per account and hour.

const BAD_CREDENTIALS = { code: 601, msg: 'Incorrect account ID or password.', data: null, error: 'badCredentials' };

describe.each(ENGINES)('S1 login on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it.each([
    ['demo', 'Aisyah Rahman', 'exhibitor'],
    ['limited', 'Budi Santoso', 'exhibitor'],
    ['organiser', 'AFHE Organising Committee', 'organiser'],
  ])('S1 %s logs in with the demo password and gets a 256-bit bearer token that opens the API', async (account, name, role) => {
    const result = await attemptLogin(t.app, account, DEMO_PASSWORD);
    expect(result.status).toBe(200);
    expect(result.code).toBe(200);
    const token = result.data!.token;
    // 32 random bytes in base64url are 43 characters.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(result.data).toMatchObject({ idleSeconds: 30 * 60, absoluteSeconds: 12 * 60 * 60 });

    const info = await get(t.app, '/oga/user/info', token);
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({ account, name, role });
  });

  it('S1 the account ID is not case-sensitive and surrounding spaces are ignored', async () => {
    const token = await login(t.app, '  DeMo ');
    expect((await get(t.app, '/oga/user/info', token)).data.account).toBe('demo');
  });

  it('S1 each login gets a new token, and both sessions work', async () => {
    const first = await login(t.app, 'demo');
    const second = await login(t.app, 'demo');
    expect(second).not.toBe(first);
    expect((await get(t.app, '/oga/user/info', first)).code).toBe(200);
    expect((await get(t.app, '/oga/user/info', second)).code).toBe(200);
  });

  it('S1 a wrong password and an unknown account get exactly the same answer', async () => {
    const wrongPassword = await attemptLogin(t.app, 'demo', 'Not-the-password-1');
    const unknownAccount = await attemptLogin(t.app, 'nobody-here', DEMO_PASSWORD);
    expect(bodyOf(wrongPassword)).toEqual(BAD_CREDENTIALS);
    expect(bodyOf(unknownAccount)).toEqual(BAD_CREDENTIALS);
    expect(wrongPassword.status).toBe(unknownAccount.status);
    // The password is case-sensitive.
    expect(bodyOf(await attemptLogin(t.app, 'demo', DEMO_PASSWORD.toUpperCase()))).toEqual(BAD_CREDENTIALS);
  });

  it("S1 a failed login is recorded for the rate limit; a successful one forgives that address's failures of the account", async () => {
    const count = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('login_failures')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('login_key', '=', 'organiser')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await attemptLogin(t.app, 'Organiser', 'wrong-password-x');
    expect(await count()).toBe(before + 1);
    await login(t.app, 'organiser');
    expect(await count()).toBe(before);
  });

  it('S1 the token is not stored in clear: the sessions table holds only a hash of it', async () => {
    const token = await login(t.app, 'limited');
    const rows = await t.app.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.token_hash', 'sessions.revoked_at'])
      .where('users.login_key', '=', 'limited')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.token_hash).not.toBe(token);
      expect(row.token_hash).not.toContain(token);
      // A SHA-256 hex digest.
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const anywhere = await sql<{ n: number }>`select count(*)::int as n from sessions where token_hash = ${token} or ip = ${token}`.execute(t.app.db);
    expect(anywhere.rows[0]!.n).toBe(0);
  });

  it('S1 passwords are stored as argon2id hashes with at least m=19456, t=2, p=1', async () => {
    const users = await t.app.db.selectFrom('users').select(['login', 'password_hash']).execute();
    expect(users.map((u) => u.login).sort()).toEqual(['borneo.2026', 'borneo.halal', 'demo', 'demo/builder', 'demo/scanner', 'limited', 'organiser']);
    for (const { password_hash: hash } of users) {
      expect(hash.startsWith('$argon2id$')).toBe(true);
      expect(hash).not.toContain(DEMO_PASSWORD);
      const params = /\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
      expect(params, hash).not.toBeNull();
      const [, m, tCost, p] = params!.map(Number);
      expect(m).toBeGreaterThanOrEqual(19456);
      expect(tCost).toBeGreaterThanOrEqual(2);
      expect(p).toBe(1);
    }
  });

  it("S1 with the default limits, failures of an account from other addresses never block its owner; failures from the owner's own address delay it", async () => {
    // A fresh account, so the failures of the other tests do not count.
    const demo = await t.app.db.selectFrom('users').selectAll().where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('users')
      .values({
        login: 'RateLimited',
        login_key: 'ratelimited',
        email: 'rate@borneo-botanica.example',
        display_name: 'Rate Limited',
        password_hash: demo.password_hash,
        role: 'exhibitor',
        participation_id: demo.participation_id,
        event_id: demo.event_id,
        status: 'active',
      })
      .execute();
    const failures = (count: number, ageMs: number, ip: (i: number) => string) =>
      Array.from({ length: count }, (_, i) => ({ login_key: 'ratelimited', ip: ip(i), at: new Date(Date.now() - ageMs - i * 1000) }));

    // 150 failures from strangers' addresses in the last half hour: the owner signs in all the same.
    await t.app.db
      .insertInto('login_failures')
      .values(failures(150, 30 * MINUTE, (i) => `198.51.100.${i % 150}`))
      .execute();
    const allowed = await attemptLogin(t.app, 'ratelimited', DEMO_PASSWORD, { remoteAddress: '192.0.2.10' });
    expect(allowed.code).toBe(200);
    expect(allowed.data!.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);

    // 100 failures from one address within the last minutes: that address waits (up to 15 minutes).
    await t.app.db
      .insertInto('login_failures')
      .values(failures(100, 2 * MINUTE, () => '192.0.2.66'))
      .execute();
    const blocked = await attemptLogin(t.app, 'ratelimited', DEMO_PASSWORD, { remoteAddress: '192.0.2.66' });
    expect(blocked.status).toBe(429);
    expect(blocked.error).toBe('tooManyAttempts');
    expect(blocked.msg).toMatch(/^Too many failed attempts from this device\. Please try again in \d+ seconds, or reset your password\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Failures older than the hour window do not count.
    await t.app.db.deleteFrom('login_failures').where('ip', '=', '192.0.2.66').execute();
    await t.app.db
      .insertInto('login_failures')
      .values(failures(100, HOUR + MINUTE, () => '192.0.2.66'))
      .execute();
    expect((await attemptLogin(t.app, 'ratelimited', DEMO_PASSWORD, { remoteAddress: '192.0.2.66' })).code).toBe(200);
  });
});
