import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpolate, lookup, type LocaleTable } from '../../src/engine/i18n';
import { hashToken } from '../../src/server/lib/tokens';
import { firstLink, startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink';
import { attemptLogin, bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, get, login, mailText, post, type TestApp } from './helpers';

// S2: forgot password by e-mail. The portal sends a real e-mail (to an SMTP sink on loopback)
// with a link that works once, for a limited time, and ends every session of the account.

const DEMO_EMAIL = 'demo@borneo-botanica.example';
const LIMITED_EMAIL = 'limited@kopi-nusantara.example';
const ENGLISH_SUBJECT = 'Reset your Exhibitor Portal password';
const NEW_PASSWORD = 'Fresh-pass-2027';
const RESET_LINK_INVALID = {
  code: 601,
  msg: 'This reset link is invalid, already used or expired. Please ask for a new one.',
  data: null,
  error: 'resetLinkInvalid',
};
const OK = { code: 200, msg: 'ok', data: null };

const localeTable = (language: string) => JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as LocaleTable;

describe.each(ENGINES)('S2 forgot and reset password on %s', (engine) => {
  let t: TestApp;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(engine, { smtpUrl: sink.url, publicUrl: 'http://portal.test' });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  /** Asks for a reset link and answers the e-mail that arrives. */
  async function requestReset(email: string, headers: Record<string, string> = {}): Promise<{ mail: ReceivedMail; token: string }> {
    const since = sink.messages.length;
    const answer = await post(t.app, '/oga/auth/password/forgot', { email }, undefined, { headers });
    expect(bodyOf(answer)).toEqual(OK);
    const mail = await sink.waitFor(email.toLowerCase(), { since });
    const link = new URL(firstLink(mail.text));
    return { mail, token: link.searchParams.get('token') ?? '' };
  }

  const resetBody = (token: string, password: string, confirmPassword = password) => ({ token, password, confirmPassword });

  it('S2 the forgot form sends an English e-mail with the account ID and a one-hour link to the reset page', async () => {
    const since = sink.messages.length;
    const answer = await post(t.app, '/oga/auth/password/forgot', { email: DEMO_EMAIL });
    expect(answer.status).toBe(200);
    expect(bodyOf(answer)).toEqual(OK);

    const mail = await sink.waitFor(DEMO_EMAIL, { since });
    expect(mail.to).toEqual([DEMO_EMAIL]);
    expect(mail.subject).toBe(ENGLISH_SUBJECT);
    expect(mail.text).toContain('Hello Aisyah Rahman,');
    expect(mail.text).toMatch(/\baccount demo\b/);
    expect(mail.text).toContain('within 60 minutes');
    const link = firstLink(mail.text);
    expect(link).toMatch(/^http:\/\/portal\.test\/reset-password\?token=[A-Za-z0-9_-]{43,}$/);
    expect(mail.from).toBe('no-reply@exhibitor-portal.example');
    expect(mailText(mail.text)).toBe(interpolate(lookup(localeTable('en'), 'mail.reset.text')!, { name: 'Aisyah Rahman', account: 'demo', link, minutes: 60 }));

    // Only a hash of the link's token is kept.
    const token = new URL(link).searchParams.get('token')!;
    const stored = await t.app.db.selectFrom('password_resets').select(['token_hash', 'expires_at', 'created_at']).execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const row = stored.find((r) => r.token_hash === hashToken(token))!;
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(60 * 60 * 1000);
  });

  it('S2 the link names its account, checks the new password, then sets it once and ends every session', async () => {
    const sessionBefore = await login(t.app, 'demo');
    const { token } = await requestReset(DEMO_EMAIL);

    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${token}`))).toEqual({ code: 200, msg: 'ok', data: { account: 'demo' } });

    const mismatch = await post(t.app, '/oga/auth/password/reset', resetBody(token, NEW_PASSWORD, `${NEW_PASSWORD}x`));
    expect(bodyOf(mismatch)).toEqual({ code: 601, msg: 'The two password inputs are inconsistent.', data: null, error: 'passwordMismatch' });
    const tooShort = await post(t.app, '/oga/auth/password/reset', resetBody(token, 'Abc-123'));
    expect(bodyOf(tooShort)).toEqual({ code: 601, msg: 'The password must have at least 8 characters.', data: null, error: 'passwordTooShort' });
    // Refused attempts neither use the link nor change the password.
    expect((await get(t.app, `/oga/auth/password/reset?token=${token}`)).data).toEqual({ account: 'demo' });
    expect((await get(t.app, '/oga/user/info', sessionBefore)).code).toBe(200);

    expect(bodyOf(await post(t.app, '/oga/auth/password/reset', resetBody(token, NEW_PASSWORD)))).toEqual(OK);

    const newLogin = await attemptLogin(t.app, 'demo', NEW_PASSWORD);
    expect(newLogin.code).toBe(200);
    expect(bodyOf(await attemptLogin(t.app, 'demo', DEMO_PASSWORD)).error).toBe('badCredentials');
    expect(bodyOf(await get(t.app, '/oga/user/info', sessionBefore)).error).toBe('invalidSession');
    expect((await get(t.app, '/oga/user/info', newLogin.data!.token)).data.account).toBe('demo');

    // Second use of the same link.
    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${token}`))).toEqual(RESET_LINK_INVALID);
    expect(bodyOf(await post(t.app, '/oga/auth/password/reset', resetBody(token, 'Another-pass-2028')))).toEqual(RESET_LINK_INVALID);
    expect((await attemptLogin(t.app, 'demo', NEW_PASSWORD)).code).toBe(200);
  });

  it('S2 an expired link is refused and leaves the password unchanged', async () => {
    const { token } = await requestReset(LIMITED_EMAIL);
    expect((await get(t.app, `/oga/auth/password/reset?token=${token}`)).data).toEqual({ account: 'limited' });
    await t.app.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(token))
      .execute();

    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${token}`))).toEqual(RESET_LINK_INVALID);
    expect(bodyOf(await post(t.app, '/oga/auth/password/reset', resetBody(token, NEW_PASSWORD)))).toEqual(RESET_LINK_INVALID);
    expect((await attemptLogin(t.app, 'limited', DEMO_PASSWORD)).code).toBe(200);
  });

  it('S2 a made-up link is refused', async () => {
    expect(bodyOf(await get(t.app, `/oga/auth/password/reset?token=${'x'.repeat(43)}`))).toEqual(RESET_LINK_INVALID);
  });

  it('S2 an unknown e-mail gets exactly the same answer as a known one and no e-mail is sent', async () => {
    const since = sink.messages.length;
    const queuedBefore =
      (
        await t.app.db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0;
    const resetsBefore = (await t.app.db.selectFrom('password_resets').select('id').execute()).length;
    const unknown = await post(t.app, '/oga/auth/password/forgot', { email: 'nobody@nowhere.example' });
    const known = await post(t.app, '/oga/auth/password/forgot', { email: 'Organiser@AFHE-expo.example' });
    expect(unknown.status).toBe(known.status);
    expect(bodyOf(unknown)).toEqual(bodyOf(known));
    expect(bodyOf(unknown)).toEqual(OK);

    // The known address (matched case-insensitively) gets its e-mail; nothing is queued for the unknown one.
    await sink.waitFor('organiser@afhe-expo.example', { since });
    const queued = await t.app.db.selectFrom('mail_outbox').select('to_address').where('id', '>', queuedBefore).execute();
    expect(queued.map((m) => m.to_address)).toEqual(['organiser@afhe-expo.example']);
    expect((await t.app.db.selectFrom('password_resets').select('id').execute()).length).toBe(resetsBefore + 1);
  });

  it('S2 an address that is not an e-mail address is refused with a message', async () => {
    const answer = await post(t.app, '/oga/auth/password/forgot', { email: 'not-an-address' });
    expect(bodyOf(answer)).toEqual({ code: 601, msg: 'Please enter a valid email address', data: null, error: 'emailInvalid' });
  });

  it('S2 with the Language: ja header the e-mail is in Japanese', async () => {
    const ja = localeTable('ja');
    const en = localeTable('en');
    const expected = lookup(ja, 'mail.reset.subject') ?? lookup(en, 'mail.reset.subject');
    expect(lookup(en, 'mail.reset.subject')).toBe(ENGLISH_SUBJECT);

    const { mail, token } = await requestReset(LIMITED_EMAIL, { language: 'ja' });
    const subject = mail.subject;
    expect(subject).toBe(expected);
    if (expected !== ENGLISH_SUBJECT) expect(subject).not.toBe(ENGLISH_SUBJECT);
    // The whole text, as the locale file words it.
    const text = lookup(ja, 'mail.reset.text') ?? lookup(en, 'mail.reset.text')!;
    const link = `http://portal.test/reset-password?token=${token}`;
    expect(mailText(mail.text)).toBe(interpolate(text, { name: 'Budi Santoso', account: 'limited', link, minutes: 60 }));
    expect(mail.text).toContain(link);
  });
});
