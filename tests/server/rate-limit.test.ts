import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptLogin, bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, type TestApp } from './helpers';

// S1 login throttling with small limits: per account (whatever the address) and per address
// (whatever the account). Each test uses its own client addresses so the counts stay apart.

const TOO_MANY = {
  code: 601,
  msg: 'Too many failed attempts. Please wait an hour or reset your password.',
  data: null,
  error: 'tooManyAttempts',
};

describe.each(ENGINES)('S1 login rate limit on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { login: { maxFailuresPerAccountHour: 3, maxFailuresPerAddressHour: 5 } });
  });
  afterAll(async () => t?.close());

  it('S1 after 3 failures of one account the 4th attempt is refused even with the right password, from any address', async () => {
    expect(bodyOf(await attemptLogin(t.app, 'organiser', 'wrong-1', { remoteAddress: '10.1.0.1' })).error).toBe('badCredentials');
    expect(bodyOf(await attemptLogin(t.app, 'organiser', 'wrong-2', { remoteAddress: '10.1.0.2' })).error).toBe('badCredentials');
    // Two failures: still below the limit, and a success does not count as a failure.
    expect((await attemptLogin(t.app, 'organiser', DEMO_PASSWORD, { remoteAddress: '10.1.0.3' })).code).toBe(200);
    expect(bodyOf(await attemptLogin(t.app, 'organiser', 'wrong-3', { remoteAddress: '10.1.0.3' })).error).toBe('badCredentials');

    const fourth = await attemptLogin(t.app, 'organiser', DEMO_PASSWORD, { remoteAddress: '10.1.0.4' });
    expect(fourth.status).toBe(429);
    expect(bodyOf(fourth)).toEqual(TOO_MANY);
    // The account ID is matched case-insensitively, so changing its case does not help.
    expect(bodyOf(await attemptLogin(t.app, 'ORGANISER', DEMO_PASSWORD, { remoteAddress: '10.1.0.5' }))).toEqual(TOO_MANY);
    // Another account from the same address is not affected.
    expect((await attemptLogin(t.app, 'limited', DEMO_PASSWORD, { remoteAddress: '10.1.0.4' })).code).toBe(200);
  });

  it('S1 after 5 failures from one address, any account is refused from that address but not from others', async () => {
    const address = '10.2.0.1';
    for (let i = 1; i <= 4; i += 1) {
      expect(bodyOf(await attemptLogin(t.app, `ghost-${i}`, 'whatever-pass', { remoteAddress: address })).error).toBe('badCredentials');
    }
    // Four failures: still below the limit.
    expect((await attemptLogin(t.app, 'demo', DEMO_PASSWORD, { remoteAddress: address })).code).toBe(200);
    expect(bodyOf(await attemptLogin(t.app, 'ghost-5', 'whatever-pass', { remoteAddress: address })).error).toBe('badCredentials');

    const refused = await attemptLogin(t.app, 'demo', DEMO_PASSWORD, { remoteAddress: address });
    expect(refused.status).toBe(429);
    expect(bodyOf(refused)).toEqual(TOO_MANY);
    expect(bodyOf(await attemptLogin(t.app, 'limited', DEMO_PASSWORD, { remoteAddress: address }))).toEqual(TOO_MANY);

    expect((await attemptLogin(t.app, 'demo', DEMO_PASSWORD, { remoteAddress: '10.2.0.2' })).code).toBe(200);
  });
});
