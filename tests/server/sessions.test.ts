import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/tokens';
import { bodyOf, createTestApp, ENGINES, get, HOUR, login, MINUTE, post, type TestApp } from './helpers';

// S5 (inactivity and absolute session end) and S6 (logout revokes the server session).

const INVALID_SESSION = { code: 401, msg: 'Invalid session.', data: null, error: 'invalidSession' };
const SESSION_INACTIVE = {
  code: 401,
  msg: 'Due to inactivity, your session has ended. Please log in again to continue.',
  data: null,
  error: 'sessionInactive',
};

describe.each(ENGINES)('S5/S6 sessions on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  const session = (token: string) => t.app.db.selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
  const setTimes = (token: string, times: { created_at?: Date; last_seen_at?: Date }) =>
    t.app.db.updateTable('sessions').set(times).where('token_hash', '=', hashToken(token)).execute();

  it('S6 logout revokes the session on the server: the same token is then refused', async () => {
    const token = await login(t.app, 'demo');
    const other = await login(t.app, 'demo');
    expect((await get(t.app, '/oga/user/info', token)).code).toBe(200);

    const out = await post(t.app, '/oga/auth/logout', {}, token);
    expect(bodyOf(out)).toEqual({ code: 200, msg: 'ok', data: null });
    expect((await session(token)).revoked_at).toBeInstanceOf(Date);

    const after = await get(t.app, '/oga/user/info', token);
    expect(after.status).toBe(200);
    expect(bodyOf(after)).toEqual(INVALID_SESSION);
    expect(bodyOf(await post(t.app, '/oga/auth/logout', {}, token))).toEqual(INVALID_SESSION);
    // Only that session ended.
    expect((await get(t.app, '/oga/user/info', other)).code).toBe(200);
  });

  it('S5 after 31 minutes without activity the session ends with the inactivity message, and stays ended', async () => {
    const token = await login(t.app, 'demo');
    await setTimes(token, { last_seen_at: new Date(Date.now() - 31 * MINUTE) });

    const expired = await get(t.app, '/oga/user/info', token);
    expect(expired.status).toBe(200);
    expect(bodyOf(expired)).toEqual(SESSION_INACTIVE);
    expect((await session(token)).revoked_at).toBeInstanceOf(Date);

    // Moving the clock back afterwards does not revive it.
    await setTimes(token, { last_seen_at: new Date() });
    expect(bodyOf(await get(t.app, '/oga/user/info', token))).toEqual(INVALID_SESSION);
  });

  it('S5 keepalive after 31 idle minutes does not extend the session either', async () => {
    const token = await login(t.app, 'limited');
    await setTimes(token, { last_seen_at: new Date(Date.now() - 31 * MINUTE) });
    expect(bodyOf(await post(t.app, '/oga/auth/keepalive', {}, token))).toEqual(SESSION_INACTIVE);
  });

  it('S5 a call within the idle time keeps the session and moves last_seen_at to now', async () => {
    const token = await login(t.app, 'demo');
    const before = new Date(Date.now() - 29 * MINUTE);
    await setTimes(token, { last_seen_at: before });

    const info = await get(t.app, '/oga/user/info', token);
    expect(info.code).toBe(200);
    const seen = (await session(token)).last_seen_at.getTime();
    expect(seen).toBeGreaterThan(Date.now() - MINUTE);

    // 29 more minutes later it still works, because the clock restarted at the last call.
    await setTimes(token, { last_seen_at: new Date(seen - 29 * MINUTE) });
    const keepalive = await post(t.app, '/oga/auth/keepalive', {}, token);
    expect(bodyOf(keepalive)).toEqual({ code: 200, msg: 'ok', data: { idleSeconds: 1800 } });
    expect((await session(token)).last_seen_at.getTime()).toBeGreaterThan(Date.now() - MINUTE);
    expect((await get(t.app, '/oga/user/info', token)).code).toBe(200);
  });

  it('S5 a session ends 12 hours after login even when it was active a moment ago', async () => {
    const token = await login(t.app, 'demo');
    await setTimes(token, { created_at: new Date(Date.now() - 13 * HOUR), last_seen_at: new Date(Date.now() - MINUTE) });
    const ended = await get(t.app, '/oga/user/info', token);
    expect(bodyOf(ended)).toEqual(INVALID_SESSION);
    expect((await session(token)).revoked_at).toBeInstanceOf(Date);
  });

  it('S5 at 11 hours after login an active session still works and reports when it ends', async () => {
    const token = await login(t.app, 'demo');
    const createdAt = new Date(Date.now() - 11 * HOUR);
    await setTimes(token, { created_at: createdAt, last_seen_at: new Date(Date.now() - MINUTE) });
    const info = await get(t.app, '/oga/user/info', token);
    expect(info.code).toBe(200);
    expect(info.data.session).toEqual({
      idleSeconds: 1800,
      warningSeconds: 120,
      expiresAt: new Date(createdAt.getTime() + 12 * HOUR).toISOString(),
    });
  });

  it('S5 a forged or malformed token is refused like an ended session', async () => {
    const forged = 'A'.repeat(43);
    expect(bodyOf(await get(t.app, '/oga/user/info', forged))).toEqual(INVALID_SESSION);
    const response = await t.app.inject({ method: 'GET', url: '/oga/user/info', headers: { authorization: 'Bearer not a token!' } });
    expect(response.json()).toEqual(INVALID_SESSION);
  });
});
