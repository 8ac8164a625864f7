import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptLogin, bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, get, login, put, type TestApp } from './helpers';

// H3: change the password on the account page with old / new / confirm.

const NEW_PASSWORD = 'Changed-pass-2027';

describe.each(ENGINES)('H3 password change on %s', (engine) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await login(t.app, 'demo');
  });
  afterAll(async () => t?.close());

  const change = (body: Record<string, string>, as = token) => put(t.app, '/oga/user/password', body, as);
  const fail = (error: string, msg: string, fields: Record<string, string>) => ({ code: 601, msg, data: { fields }, error });

  it('H3 the old password is required', async () => {
    const answer = await change({ oldPassword: '', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(answer.status).toBe(200);
    expect(bodyOf(answer)).toEqual(fail('oldPasswordRequired', 'Please enter your old password.', { oldPassword: 'oldPasswordRequired' }));
  });

  it('H3 a wrong old password is refused', async () => {
    const answer = await change({ oldPassword: 'Not-my-password-1', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(bodyOf(answer)).toEqual(fail('oldPasswordWrong', 'The old password is not correct.', { oldPassword: 'oldPasswordWrong' }));
  });

  it('H3 new and confirm must match: "The two password inputs are inconsistent."', async () => {
    const answer = await change({ oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` });
    expect(bodyOf(answer)).toEqual(fail('passwordMismatch', 'The two password inputs are inconsistent.', { confirmPassword: 'passwordMismatch' }));
  });

  it('H3 a new password of 7 characters is too short, 8 would do', async () => {
    const answer = await change({ oldPassword: DEMO_PASSWORD, newPassword: 'Abc-123', confirmPassword: 'Abc-123' });
    expect(bodyOf(answer)).toEqual(fail('passwordTooShort', 'The password must have at least 8 characters.', { newPassword: 'passwordTooShort' }));
  });

  it('H3 the new password must differ from the old one', async () => {
    const answer = await change({ oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD });
    expect(bodyOf(answer).error).toBe('passwordSameAsOld');
  });

  it('H3 none of the refused changes changed the password', async () => {
    expect((await attemptLogin(t.app, 'demo', DEMO_PASSWORD)).code).toBe(200);
    expect(bodyOf(await attemptLogin(t.app, 'demo', NEW_PASSWORD)).error).toBe('badCredentials');
  });

  it('H3 a successful change: the new password logs in, the old does not, other sessions end and this one goes on', async () => {
    const otherSession = await login(t.app, 'demo');
    const otherUser = await login(t.app, 'limited');

    const answer = await change({ oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(bodyOf(answer)).toEqual({ code: 200, msg: 'ok', data: null });

    expect((await get(t.app, '/oga/user/info', token)).data.account).toBe('demo');
    expect(bodyOf(await get(t.app, '/oga/user/info', otherSession))).toEqual({ code: 401, msg: 'Invalid session.', data: null, error: 'invalidSession' });
    expect((await get(t.app, '/oga/user/info', otherUser)).code).toBe(200);

    expect((await attemptLogin(t.app, 'demo', NEW_PASSWORD)).code).toBe(200);
    expect(bodyOf(await attemptLogin(t.app, 'demo', DEMO_PASSWORD)).error).toBe('badCredentials');
    // Other accounts keep their password.
    expect((await attemptLogin(t.app, 'limited', DEMO_PASSWORD)).code).toBe(200);

    const hashes = await t.app.db.selectFrom('users').select(['login', 'password_hash']).execute();
    const demoHash = hashes.find((u) => u.login === 'demo')!.password_hash;
    expect(demoHash.startsWith('$argon2id$')).toBe(true);
    expect(demoHash).not.toBe(hashes.find((u) => u.login === 'limited')!.password_hash);
  });

  it('H3 without a session the password cannot be changed', async () => {
    const answer = await put(t.app, '/oga/user/password', { oldPassword: NEW_PASSWORD, newPassword: 'Whatever-pass-9', confirmPassword: 'Whatever-pass-9' });
    expect(bodyOf(answer).error).toBe('invalidSession');
    expect((await attemptLogin(t.app, 'demo', NEW_PASSWORD)).code).toBe(200);
  });
});
