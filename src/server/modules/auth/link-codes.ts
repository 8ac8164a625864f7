import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { hashToken, newToken } from '../../lib/tokens';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { createSession } from '../../plugins/sessions';

// S3 sign-in links as one-time exchange codes. A link `…/?token=<code>` carries a
// short-lived, single-use code, never a session token: the browser trades it for a session of
// its own (exchange), and can first ask whose it is (inspect) so that a signed-in user is asked
// before being switched to another account. Only the code's hash is stored.

const codeField = { type: 'string', minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as const;
const codeBody = { type: 'object', required: ['code'], properties: { code: codeField }, additionalProperties: false } as const;

export default async function linkCodeRoutes(app: ApiApp) {
  const config = app.config;
  const base = `${API_BASE}/auth/link-codes`;

  app.post(
    base,
    {
      schema: {
        tags: ['auth'],
        summary: 'A one-time sign-in link for this account (S3), e.g. to continue on a phone; single use, short-lived',
        body: NO_BODY,
        response: {
          200: envelope({
            type: 'object',
            required: ['code', 'link', 'expiresAt'],
            properties: { code: { type: 'string' }, link: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const code = newToken();
      const now = new Date();
      const expiresAt = new Date(now.getTime() + config.linkCodeMinutes * 60_000);
      await app.db
        .insertInto('link_codes')
        .values({ code_hash: hashToken(code), user_id: auth.user.id, created_at: now, expires_at: expiresAt })
        .execute();
      return ok({ code, link: `${config.publicUrl}/?token=${code}`, expiresAt: expiresAt.toISOString() });
    },
  );

  app.post(
    `${base}/inspect`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Whose sign-in link this is, without using it up (so a signed-in user can be asked before switching)',
        security: [],
        body: codeBody,
        response: {
          200: envelope({ type: 'object', required: ['account', 'name'], properties: { account: { type: 'string' }, name: { type: 'string' } } }),
        },
      },
    },
    async (request) => {
      const row = await app.db
        .selectFrom('link_codes')
        .innerJoin('users', 'users.id', 'link_codes.user_id')
        .select(['users.login', 'users.display_name'])
        .where('link_codes.code_hash', '=', hashToken(request.body.code))
        .where('link_codes.used_at', 'is', null)
        .where('link_codes.expires_at', '>', new Date())
        .where('users.status', '=', 'active')
        .executeTakeFirst();
      if (!row) throw new AppError('linkCodeInvalid');
      return ok({ account: row.login, name: row.display_name });
    },
  );

  app.post(
    `${base}/exchange`,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Trade a sign-in link code for a session of its own (single use); answers a bearer token',
        security: [],
        body: codeBody,
        response: {
          200: envelope({
            type: 'object',
            required: ['token', 'account', 'idleSeconds', 'absoluteSeconds'],
            properties: { token: { type: 'string' }, account: { type: 'string' }, idleSeconds: { type: 'integer' }, absoluteSeconds: { type: 'integer' } },
          }),
        },
      },
    },
    async (request) => {
      const now = new Date();
      // Marking it used is the claim: of two racing exchanges only one updates the row.
      const used = await app.db
        .updateTable('link_codes')
        .set({ used_at: now })
        .where('code_hash', '=', hashToken(request.body.code))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!used) throw new AppError('linkCodeInvalid');
      const user = await app.db.selectFrom('users').select(['id', 'login', 'status']).where('id', '=', used.user_id).executeTakeFirst();
      if (user?.status !== 'active') throw new AppError('linkCodeInvalid');
      const token = await createSession(app.db, user.id, request.ip, now);
      return ok({ token, account: user.login, idleSeconds: config.session.idleSeconds, absoluteSeconds: config.session.absoluteSeconds });
    },
  );
}
