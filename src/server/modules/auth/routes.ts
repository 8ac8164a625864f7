import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { isEmailAddress } from '../../../engine/email';
import { loginWaitSeconds } from '../../../engine/login-throttle';
import { passwordLengthProblem } from '../../../engine/password-policy';
import { AppError } from '../../lib/app-error';
import { translate } from '../../lib/messages';
import { hashPassword, spendVerifyTime, verifyPassword } from '../../lib/passwords';
import { envelope, NO_BODY, okEnvelope, passwordField } from '../../lib/schemas';
import { hashToken, newToken } from '../../lib/tokens';
import { ok } from '../../plugins/errors';
import { requireAuth } from '../../plugins/auth';
import { createSession, revokeSession, revokeUserSessions, touchSession } from '../../plugins/sessions';

const HOUR_MS = 60 * 60 * 1000;
/** The scheduled job (module.ts) purging expired sessions, login failures, reset links and link codes. */
export const AUTH_PURGE_JOB = 'auth-purge';
/** At most this many reset e-mails per account per hour, so the form cannot flood a mailbox. */
const RESETS_PER_ACCOUNT_HOUR = 5;

export default async function authRoutes(app: ApiApp) {
  const config = app.config;
  const base = `${API_BASE}/auth`;

  app.post(
    `${base}/login`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with account ID and password (S1); answers a bearer token',
        security: [],
        body: {
          type: 'object',
          required: ['account', 'password'],
          properties: { account: { type: 'string', minLength: 1, maxLength: 160 }, password: passwordField },
          additionalProperties: false,
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['token', 'idleSeconds', 'absoluteSeconds'],
            properties: { token: { type: 'string' }, idleSeconds: { type: 'integer' }, absoluteSeconds: { type: 'integer' } },
          }),
        },
      },
    },
    async (request, reply) => {
      const loginKey = request.body.account.trim().toLowerCase();
      const wait = await loginWait(loginKey, request.ip);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        throw new AppError('tooManyAttempts', { retryAfterSeconds: wait }, { seconds: wait }, 'errors.loginDelayed');
      }
      const user = await app.db.selectFrom('users').selectAll().where('login_key', '=', loginKey).executeTakeFirst();
      const valid = user ? await verifyPassword(user.password_hash, request.body.password) : (await spendVerifyTime(request.body.password), false);
      if (!user || !valid) {
        await app.db.insertInto('login_failures').values({ login_key: loginKey, ip: request.ip, at: new Date() }).execute();
        throw new AppError('badCredentials');
      }
      if (user.status !== 'active') throw new AppError('accountDisabled');
      // An exhibitor the organiser deactivated — and its team users and contractors — cannot log in.
      if (user.participation_id !== null) {
        const participation = await app.db.selectFrom('participations').select('status').where('id', '=', user.participation_id).executeTakeFirst();
        if (participation?.status !== 'active') throw new AppError('accountDisabled');
      }
      // The owner got in from here: earlier failures of this account from this address are forgiven.
      await app.db.deleteFrom('login_failures').where('login_key', '=', loginKey).where('ip', '=', request.ip).execute();
      const token = await createSession(app.db, user.id, request.ip);
      // The language the user works in, for the e-mails sent later without a request (decisions, reminders).
      if ((request.headers.language || request.headers['accept-language']) && user.language !== request.language) {
        await app.db.updateTable('users').set({ language: request.language }).where('id', '=', user.id).execute();
      }
      // The audit log holds every login (the request carries no session yet).
      const event = user.event_id ? await app.db.selectFrom('events').select(['organisation_id']).where('id', '=', user.event_id).executeTakeFirst() : undefined;
      await app.audit.record(
        {
          action: 'auth.login',
          subjectType: 'user',
          subjectId: user.id,
          actor: { id: user.id, name: user.display_name, role: user.role },
          eventId: user.event_id,
          participationId: user.participation_id,
          organisationId: user.organisation_id ?? event?.organisation_id ?? null,
        },
        { request },
      );
      return ok({ token, idleSeconds: config.session.idleSeconds, absoluteSeconds: config.session.absoluteSeconds });
    },
  );

  /** S1: seconds this account+address must still wait, from the failures counted in the window. */
  async function loginWait(loginKey: string, ip: string): Promise<number> {
    const now = Date.now();
    const row = await app.db
      .selectFrom('login_failures')
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere('login_key', '=', loginKey).as('pair_count'),
        eb.fn.max('at').filterWhere('login_key', '=', loginKey).as('pair_last'),
        eb.fn.countAll<number>().as('address_count'),
        eb.fn.max('at').as('address_last'),
        eb.fn.min('at').as('address_first'),
      ])
      .where('ip', '=', ip)
      .where('at', '>=', new Date(now - config.login.windowSeconds * 1000))
      .executeTakeFirstOrThrow();
    const time = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date).getTime());
    return loginWaitSeconds(
      { count: Number(row.pair_count), lastAt: time(row.pair_last), firstAt: null },
      { count: Number(row.address_count), lastAt: time(row.address_last), firstAt: time(row.address_first) },
      config.login,
      now,
    );
  }

  app.post(`${base}/logout`, { schema: { tags: ['auth'], summary: 'End this session on the server (S6)', body: NO_BODY, response: okEnvelope } }, async (request) => {
    await revokeSession(app.db, requireAuth(request).sessionId);
    return ok(null);
  });

  app.post(
    `${base}/keepalive`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Mark the session active ("stay signed in" after the inactivity warning)',
        body: NO_BODY,
        response: { 200: envelope({ type: 'object', properties: { idleSeconds: { type: 'integer' } } }) },
      },
    },
    async (request) => {
      await touchSession(app.db, requireAuth(request).sessionId);
      return ok({ idleSeconds: config.session.idleSeconds });
    },
  );

  app.post(
    `${base}/password/forgot`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Send a password reset link to the accounts using this e-mail (S2); same answer whether or not it exists',
        security: [],
        body: {
          type: 'object',
          required: ['email'],
          properties: { email: { type: 'string', minLength: 3, maxLength: 254 } },
          additionalProperties: false,
        },
        response: okEnvelope,
      },
    },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      if (!isEmailAddress(email)) throw new AppError('emailInvalid');
      const language = request.language;
      // Sent after answering, so the answer takes the same time whether or not the e-mail is known.
      setImmediate(() => {
        sendResetMails(email, language).catch((error: unknown) => app.log.error({ err: error }, 'reset mail failed'));
      });
      return ok(null);
    },
  );

  async function sendResetMails(email: string, language: string) {
    const users = await app.db
      .selectFrom('users')
      .select(['id', 'login', 'email', 'display_name'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .where('status', '=', 'active')
      .execute();
    for (const user of users) {
      const now = new Date();
      const recent = await app.db
        .selectFrom('password_resets')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', user.id)
        .where('created_at', '>=', new Date(now.getTime() - HOUR_MS))
        .executeTakeFirstOrThrow();
      if (Number(recent.count) >= RESETS_PER_ACCOUNT_HOUR) continue;
      const token = newToken();
      await app.db
        .insertInto('password_resets')
        .values({ user_id: user.id, token_hash: hashToken(token), created_at: now, expires_at: new Date(now.getTime() + config.resetTokenMinutes * 60_000) })
        .execute();
      const link = `${config.publicUrl}/reset-password?token=${token}`;
      const params = { name: user.display_name, account: user.login, link, minutes: config.resetTokenMinutes };
      await app.mailer.send({
        to: user.email,
        subject: translate(language, 'mail.reset.subject'),
        text: translate(language, 'mail.reset.text', params),
      });
    }
  }

  async function findValidReset(token: string) {
    return app.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['password_resets.id', 'password_resets.user_id', 'users.login', 'users.login_key'])
      .where('password_resets.token_hash', '=', hashToken(token))
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.expires_at', '>', new Date())
      .executeTakeFirst();
  }

  app.get(
    `${base}/password/reset`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Whether a reset link is still valid, and for which account',
        security: [],
        querystring: { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 200 } } },
        response: { 200: envelope({ type: 'object', required: ['account'], properties: { account: { type: 'string' } } }) },
      },
    },
    async (request) => {
      const reset = await findValidReset(request.query.token);
      if (!reset) throw new AppError('resetLinkInvalid');
      return ok({ account: reset.login });
    },
  );

  app.post(
    `${base}/password/reset`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link (single use, 1 hour); ends every session of the account',
        security: [],
        body: {
          type: 'object',
          required: ['token', 'password', 'confirmPassword'],
          properties: { token: { type: 'string', maxLength: 200 }, password: passwordField, confirmPassword: passwordField },
          additionalProperties: false,
        },
        response: okEnvelope,
      },
    },
    async (request) => {
      const { token, password, confirmPassword } = request.body;
      const reset = await findValidReset(token);
      if (!reset) throw new AppError('resetLinkInvalid');
      const problem = passwordLengthProblem(password);
      if (problem) throw new AppError(problem);
      if (password !== confirmPassword) throw new AppError('passwordMismatch');
      const passwordHash = await hashPassword(password);
      const now = new Date();
      const used = await app.db.transaction().execute(async (trx) => {
        // Marking it used first, conditionally, makes a second use of the same link fail even if both race.
        const marked = await trx.updateTable('password_resets').set({ used_at: now }).where('id', '=', reset.id).where('used_at', 'is', null).executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) return false;
        await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', reset.user_id).where('used_at', 'is', null).execute();
        await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', reset.user_id).execute();
        await revokeUserSessions(trx, reset.user_id, { now });
        // The rightful owner proved control of the mailbox: failures against the account are lifted.
        await trx.deleteFrom('login_failures').where('login_key', '=', reset.login_key).execute();
        return true;
      });
      if (!used) throw new AppError('resetLinkInvalid');
      return ok(null);
    },
  );
}
