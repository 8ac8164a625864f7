import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/server/config';
import { hashToken } from '../../src/server/lib/tokens';
import { attemptLogin, createTestApp, DEMO_PASSWORD, ENGINES, HOUR, post, type TestApp } from './helpers';

// S1 login throttling: failures are counted per account AND address with growing
// delays, so a stranger can never lock the owner out from another address; a completed reset
// lifts the account's failures; one address spraying many accounts is slowed down; the client
// address behind reverse proxies comes from a hop count or the proxies' addresses only.

const NEW_PASSWORD = 'Owner-is-back-2027';

describe.each(ENGINES)('S1 login throttling on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      login: { freeFailuresPerAccountAddress: 5, freeFailuresPerAddress: 8, maxFailuresPerAddress: 300, maxDelaySeconds: 900, windowSeconds: 3600 },
    });
  });
  afterAll(async () => t?.close());

  const failuresOf = async (loginKey: string) =>
    Number(
      (
        await t.app.db
          .selectFrom('login_failures')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('login_key', '=', loginKey)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('S1 after 100 wrong passwords for "limited" from one address, the owner logs in from another address', async () => {
    const stranger = '203.0.113.50';
    const answers: string[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      answers.push((await attemptLogin(t.app, 'limited', `wrong-${attempt}`, { remoteAddress: stranger })).error ?? 'ok');
    }
    // Five wrong passwords are checked; then the stranger's address has to wait between attempts.
    expect(answers).toEqual([...Array(5).fill('badCredentials'), 'tooManyAttempts']);
    // A patient stranger spread 100 failures over the hour (written here, so the test does not
    // depend on how fast this machine is): the delay has grown, and it harms only that address.
    await t.app.db
      .insertInto('login_failures')
      .values(Array.from({ length: 95 }, (_, i) => ({ login_key: 'limited', ip: stranger, at: new Date(Date.now() - i * 20_000) })))
      .execute();
    expect(await failuresOf('limited')).toBe(100);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await attemptLogin(t.app, 'limited', `wrong-again-${attempt}`, { remoteAddress: stranger })).error).toBe('tooManyAttempts');
    }

    const owner = await attemptLogin(t.app, 'limited', DEMO_PASSWORD, { remoteAddress: '192.0.2.77' });
    expect(owner.code).toBe(200);
    // The stranger, even with the right password, still waits.
    const strangerAgain = await attemptLogin(t.app, 'limited', DEMO_PASSWORD, { remoteAddress: stranger });
    expect(strangerAgain.status).toBe(429);
    expect(strangerAgain.error).toBe('tooManyAttempts');
    // The owner's success forgave only the owner's own address.
    expect(await failuresOf('limited')).toBe(100);
  });

  it("S1 a completed password reset clears the account's failures from every address", async () => {
    const address = '203.0.113.60';
    for (let i = 0; i < 5; i += 1) await attemptLogin(t.app, 'demo', `wrong-${i}`, { remoteAddress: address });
    expect((await attemptLogin(t.app, 'demo', DEMO_PASSWORD, { remoteAddress: address })).error).toBe('tooManyAttempts');
    await t.app.db.insertInto('login_failures').values({ login_key: 'demo', ip: '203.0.113.61', at: new Date() }).execute();

    // The owner follows a reset link (made here as the forgot-password e-mail would).
    const demo = await t.app.db.selectFrom('users').select('id').where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    const token = 'reset-token-for-the-rate-limit-test-000000';
    await t.app.db
      .insertInto('password_resets')
      .values({ user_id: demo.id, token_hash: hashToken(token), created_at: new Date(), expires_at: new Date(Date.now() + HOUR) })
      .execute();
    const reset = await post(t.app, '/oga/auth/password/reset', { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(reset.code).toBe(200);

    expect(await failuresOf('demo')).toBe(0);
    expect((await attemptLogin(t.app, 'demo', NEW_PASSWORD, { remoteAddress: address })).code).toBe(200);
  });

  it('S1 one address spraying many accounts is slowed down; other addresses are not', async () => {
    const sprayer = '203.0.113.70';
    const answers: string[] = [];
    for (let i = 0; i < 12; i += 1) answers.push((await attemptLogin(t.app, `sprayed-${i}`, 'Spring2026!', { remoteAddress: sprayer })).error ?? 'ok');
    // Eight failures over all accounts are free; then every attempt from that address waits.
    expect(answers.slice(0, 8)).toEqual(Array(8).fill('badCredentials'));
    expect(answers.slice(9)).toEqual(Array(3).fill('tooManyAttempts'));
    expect((await attemptLogin(t.app, 'organiser', DEMO_PASSWORD, { remoteAddress: sprayer })).error).toBe('tooManyAttempts');
    expect((await attemptLogin(t.app, 'organiser', DEMO_PASSWORD, { remoteAddress: '192.0.2.80' })).code).toBe(200);
  });
});

describe.each(ENGINES)('TRUST_PROXY behind a reverse proxy on %s', (engine) => {
  let hops: TestApp;
  let listed: TestApp;
  beforeAll(async () => {
    const login = { freeFailuresPerAccountAddress: 3, freeFailuresPerAddress: 100, maxFailuresPerAddress: 300, maxDelaySeconds: 900, windowSeconds: 3600 };
    hops = await createTestApp(engine, { trustProxy: 1, login });
    listed = await createTestApp(engine, { trustProxy: ['10.0.0.0/8'], login });
  });
  afterAll(async () => {
    await hops?.close();
    await listed?.close();
  });

  /**
   * A login through the proxy, with whatever X-Forwarded-For the client made up: a hop count
   * trusts a proxy on this machine (loopback), an address list the proxy at 10.0.0.2.
   */
  const throughProxy = (t: TestApp, forwardedFor: string, password = 'wrong-pass') =>
    attemptLogin(t.app, 'organiser', password, { remoteAddress: t === hops ? '127.0.0.1' : '10.0.0.2', headers: { 'x-forwarded-for': forwardedFor } });

  it.each([
    ['a hop count of 1', () => hops],
    ["the proxy's address range", () => listed],
  ])('with %s, rotating a forged X-Forwarded-For does not reset the count of the real client', async (_label, app) => {
    const t = app();
    const answers: string[] = [];
    for (let i = 0; i < 6; i += 1) answers.push((await throughProxy(t, `198.18.0.${i}, 198.51.100.200`)).error ?? 'ok');
    expect(answers).toEqual(['badCredentials', 'badCredentials', 'badCredentials', 'tooManyAttempts', 'tooManyAttempts', 'tooManyAttempts']);
    const recorded = await t.app.db.selectFrom('login_failures').select('ip').distinct().where('login_key', '=', 'organiser').execute();
    expect(recorded.map((row) => row.ip)).toEqual(['198.51.100.200']);
    // Another real client behind the same proxy is not held up.
    expect((await throughProxy(t, '198.51.100.201', DEMO_PASSWORD)).code).toBe(200);
  });

  it('with a hop count, a client connecting directly (not from loopback) is throttled as one address whatever it forges', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(
        (await attemptLogin(hops.app, 'direct-victim', 'wrong-pass', { remoteAddress: '198.51.100.77', headers: { 'x-forwarded-for': `203.0.113.${i}` } })).error ?? 'ok',
      );
    }
    expect(answers.slice(0, 3)).toEqual(Array(3).fill('badCredentials'));
    expect(answers.slice(4)).toEqual(Array(26).fill('tooManyAttempts'));
    const recorded = await hops.app.db.selectFrom('login_failures').select('ip').distinct().where('login_key', '=', 'direct-victim').execute();
    expect(recorded.map((row) => row.ip)).toEqual(['198.51.100.77']);
  });

  it('a client that is not the proxy cannot choose its address with X-Forwarded-For', async () => {
    const direct = await attemptLogin(listed.app, 'nobody', 'wrong-pass', { remoteAddress: '198.51.100.9', headers: { 'x-forwarded-for': '1.2.3.4' } });
    expect(direct.error).toBe('badCredentials');
    const recorded = await listed.app.db.selectFrom('login_failures').select('ip').where('login_key', '=', 'nobody').execute();
    expect(recorded.map((row) => row.ip)).toEqual(['198.51.100.9']);
  });
});

describe('TRUST_PROXY configuration', () => {
  it('takes a hop count or proxy addresses and refuses "true" (trusting any client)', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 172.16.0.0/12,::1' }).trustProxy).toEqual(['10.0.0.2', '172.16.0.0/12', '::1']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    for (const [value, problem] of [
      ['true', /TRUST_PROXY=true would trust any client/],
      ['10.0.0.300', /TRUST_PROXY entry "10.0.0.300" is not an IP address/],
      ['10.0.0.0/33', /TRUST_PROXY entry "10.0.0.0\/33"/],
    ] as const) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(problem);
    }
  });
});
