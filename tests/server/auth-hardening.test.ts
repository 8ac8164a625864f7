import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { AUTH_PURGE_JOB } from '../../src/server/modules/auth/routes';
import { hashToken, newToken } from '../../src/server/lib/tokens';
import { createTestApp, DAY, ENGINES, get, HOUR, login, post, type TestApp } from './helpers';

// Secrets stay out of the log, sign-in links are one-time exchange codes, HSTS on
// https, and the auth tables are purged on a schedule (once per interval across servers).

describe.each(ENGINES)('secrets in logs and links on %s', (engine) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(engine, { logLevel: 'info', publicUrl: 'http://portal.test' }, { logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(async () => t?.close());

  it('the log holds no reset token, link code or bearer token, and still says which URLs were asked for', async () => {
    const demo = await login(t.app, 'demo');
    const resetToken = newToken();
    const linkCode = newToken();
    await get(t.app, `/oga/auth/password/reset?token=${resetToken}&lang=en`);
    // Web app pages (no built app in tests: a plain 404, logged all the same).
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${resetToken}` });
    await t.app.inject({ method: 'GET', url: `/?token=${linkCode}` });
    await get(t.app, '/oga/user/info', demo);
    const created = await post(t.app, '/oga/auth/link-codes', undefined, demo);
    expect(created.code).toBe(200);
    await post(t.app, '/oga/auth/link-codes/exchange', { code: created.data.code });
    // A forgotten-password e-mail is written (its link holds a reset token).
    await post(t.app, '/oga/auth/password/forgot', { email: 'demo@borneo-botanica.example' });
    await expect.poll(() => lines.some((line) => line.includes('mail written'))).toBe(true);

    const log = lines.join('');
    expect(log).toContain('/oga/auth/password/reset?token=[redacted]&lang=en');
    expect(log).toContain('/reset-password?token=[redacted]');
    for (const secret of [resetToken, linkCode, demo, created.data.code]) expect(log).not.toContain(secret);
    const resets = await t.app.db.selectFrom('password_resets').select('token_hash').execute();
    expect(resets.length).toBeGreaterThan(0);
    expect(log).not.toMatch(/token=[A-Za-z0-9_-]{20,}/);
    expect(log).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
  });
});

describe.each(ENGINES)('S3 sign-in links as one-time exchange codes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { publicUrl: 'https://portal.example' });
  });
  afterAll(async () => t?.close());

  it('a link code names its account, is traded once for a new session, and never is a session token', async () => {
    const demo = await login(t.app, 'demo');
    const created = await post(t.app, '/oga/auth/link-codes', undefined, demo);
    expect(created.code).toBe(200);
    const { code, link } = created.data as { code: string; link: string };
    expect(link).toBe(`https://portal.example/?token=${code}`);
    // The code is no session: it does not authenticate a request.
    expect((await get(t.app, '/oga/user/info', code)).code).toBe(401);

    // Inspecting does not use it up.
    expect((await post(t.app, '/oga/auth/link-codes/inspect', { code })).data).toEqual({ account: 'demo', name: expect.any(String) });
    expect((await post(t.app, '/oga/auth/link-codes/inspect', { code })).code).toBe(200);

    const first = await post(t.app, '/oga/auth/link-codes/exchange', { code });
    expect(first.code).toBe(200);
    expect(first.data.account).toBe('demo');
    expect(first.data.token).not.toBe(demo);
    expect((await get(t.app, '/oga/user/info', first.data.token)).data.account).toBe('demo');

    const second = await post(t.app, '/oga/auth/link-codes/exchange', { code });
    expect(second).toMatchObject({ code: 601, error: 'linkCodeInvalid', data: null });
    expect((await post(t.app, '/oga/auth/link-codes/inspect', { code })).error).toBe('linkCodeInvalid');
  });

  it('an expired or unknown code is refused; two racing exchanges give one session', async () => {
    const demo = await t.app.db.selectFrom('users').select('id').where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    const expired = newToken();
    await t.app.db
      .insertInto('link_codes')
      .values({ code_hash: hashToken(expired), user_id: demo.id, created_at: new Date(Date.now() - HOUR), expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await post(t.app, '/oga/auth/link-codes/exchange', { code: expired })).error).toBe('linkCodeInvalid');
    expect((await post(t.app, '/oga/auth/link-codes/exchange', { code: newToken() })).error).toBe('linkCodeInvalid');

    const token = await login(t.app, 'demo');
    const { code } = (await post(t.app, '/oga/auth/link-codes', undefined, token)).data as { code: string };
    const answers = await Promise.all([1, 2, 3].map(() => post(t.app, '/oga/auth/link-codes/exchange', { code })));
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.error === 'linkCodeInvalid')).toHaveLength(2);
  });

  it('creating a link needs a session', async () => {
    expect((await post(t.app, '/oga/auth/link-codes', undefined)).code).toBe(401);
  });
});

describe('HSTS', () => {
  it('is sent when PUBLIC_URL is https, and not on plain http', async () => {
    const secure = await createTestApp('pglite', { publicUrl: 'https://portal.example' });
    const plain = await createTestApp('pglite', { publicUrl: 'http://localhost:8080' });
    try {
      expect((await get(secure.app, '/oga/system/project/exhibirotCodeOrNum')).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect((await get(plain.app, '/oga/system/project/exhibirotCodeOrNum')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await secure.close();
      await plain.close();
    }
  });
});

describe.each(ENGINES)('housekeeping on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('purges expired sessions, old login failures, spent reset links and expired link codes, and keeps the live ones', async () => {
    const db = t.app.db;
    const demo = await db.selectFrom('users').select('id').where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms);
    const session = (name: string, created: number, seen: number, revoked: number | null) => ({
      token_hash: hashToken(`session-${name}-${engine}`),
      user_id: demo.id,
      created_at: at(created),
      last_seen_at: at(seen),
      revoked_at: revoked === null ? null : at(revoked),
      ip: '192.0.2.1',
    });
    await db
      .insertInto('sessions')
      .values([
        session('live', HOUR, 1000, null),
        session('idle-long-ago', 3 * DAY, 3 * DAY, null),
        session('revoked-long-ago', 3 * DAY, 3 * DAY, 2 * DAY),
        session('revoked-now', HOUR, HOUR, 1000),
      ])
      .execute();
    await db
      .insertInto('login_failures')
      .values([
        { login_key: 'purge-old', ip: '192.0.2.1', at: at(2 * HOUR) },
        { login_key: 'purge-new', ip: '192.0.2.1', at: at(1000) },
      ])
      .execute();
    const reset = (name: string, expires: number, used: number | null) => ({
      user_id: demo.id,
      token_hash: hashToken(`reset-${name}`),
      created_at: at(3 * DAY),
      expires_at: new Date(now - expires),
      used_at: used === null ? null : at(used),
    });
    await db
      .insertInto('password_resets')
      .values([reset('expired', 2 * DAY, null), reset('used', -HOUR, 2 * DAY), reset('live', -HOUR, null)])
      .execute();
    await db
      .insertInto('link_codes')
      .values([
        { code_hash: hashToken('code-expired'), user_id: demo.id, created_at: at(HOUR), expires_at: at(1000) },
        { code_hash: hashToken('code-live'), user_id: demo.id, created_at: at(1000), expires_at: new Date(now + HOUR) },
      ])
      .execute();

    await t.app.scheduler.runNow(AUTH_PURGE_JOB);

    const sessions = (await db.selectFrom('sessions').select('token_hash').execute()).map((row) => row.token_hash);
    expect(sessions).toContain(hashToken(`session-live-${engine}`));
    expect(sessions).toContain(hashToken(`session-revoked-now-${engine}`));
    expect(sessions).not.toContain(hashToken(`session-idle-long-ago-${engine}`));
    expect(sessions).not.toContain(hashToken(`session-revoked-long-ago-${engine}`));
    const failures = (await db.selectFrom('login_failures').select('login_key').where('login_key', 'like', 'purge-%').execute()).map((row) => row.login_key);
    expect(failures).toEqual(['purge-new']);
    const resets = (
      await db
        .selectFrom('password_resets')
        .select('token_hash')
        .where(
          'token_hash',
          'in',
          ['expired', 'used', 'live'].map((n) => hashToken(`reset-${n}`)),
        )
        .execute()
    ).map((row) => row.token_hash);
    expect(resets).toEqual([hashToken('reset-live')]);
    const codes = (await db.selectFrom('link_codes').select('code_hash').execute()).map((row) => row.code_hash);
    expect(codes).toEqual([hashToken('code-live')]);
  });

  it('with several servers on one database, each interval is run by exactly one of them', async () => {
    // A second server on the same database (PostgreSQL) or the same embedded one (PGlite is one process).
    const second = engine === 'postgres' ? await buildApp(t.config, { logger: false }) : null;
    try {
      const servers = second ? [t.app, second] : [t.app];
      if (second) await second.ready();
      await t.app.db.deleteFrom('scheduled_jobs').execute();
      const runs = await Promise.all([...servers, ...servers].map((app) => app.scheduler.runIfDue(AUTH_PURGE_JOB)));
      expect(runs.filter(Boolean)).toHaveLength(1);
      // The next interval has not begun: nobody runs it again.
      expect(await Promise.all(servers.map((app) => app.scheduler.runIfDue(AUTH_PURGE_JOB)))).toEqual(servers.map(() => false));
    } finally {
      await second?.close();
    }
  });
});
