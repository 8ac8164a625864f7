import type { ApiApp } from '../../lib/api-app';
import type { Kysely, Transaction } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { LANGUAGES, type Language } from '../../../engine/language';
import type { Database, User } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { effectiveQuota } from '../../lib/participation-settings';
import { hashPassword } from '../../lib/passwords';
import { envelope } from '../../lib/schemas';
import { nameText } from '../../../engine/schemas/json-schema';
import { newToken } from '../../lib/tokens';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import type { AuthContext } from '../../plugins/sessions';
import { revokeUserSessions } from '../../plugins/sessions';
import { linksLastHour, sendActivationMail } from './activation';
import { emailProblem, initialPasswordProblem, LEAD_QUOTA_MAX, leadQuotaProblem, loginProblem, memberLogin, chosenLoginPart } from '../../../engine/members';

// LD5 team users and P1 contractor logins: people an exhibitor grants a login under its own
// participation. Only the exhibitor manages them (team users and contractors get 403), only its
// own (another exhibitor's ids answer "not found"), and never more active ones than its quota.

type MemberRole = 'team_user' | 'contractor';

/** Activation e-mails a member may be sent per hour through the resend button. */
const LINKS_PER_ACCOUNT_HOUR = 5;

interface Kind {
  role: MemberRole;
  /** Path segment under /oga/members. */
  path: string;
  screen: 'teamUser' | 'contractorAccess';
  /** O2: the quota (by name) of active members of this kind. */
  quota: string;
}

const KINDS: Kind[] = [
  { role: 'team_user', path: 'team-users', screen: 'teamUser', quota: 'teamUsers' },
  { role: 'contractor', path: 'contractors', screen: 'contractorAccess', quota: 'contractors' },
];

const memberSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    account: { type: 'string', description: 'Login ID (the user name)' },
    name: { type: 'string', description: 'Contact person (contractors); the name shown for a team user (its user name when none was given)' },
    company: { type: 'string' },
    email: { type: 'string' },
    status: { type: 'string', enum: ['active', 'disabled'] },
    leadQuota: { type: ['integer', 'null'], description: 'Leads a team user may scan; null = no limit' },
    createdAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'account', 'name', 'company', 'email', 'status', 'leadQuota', 'createdAt'],
} as const;

const listSchema = envelope({
  ...pageSchema(memberSchema, {
    quota: { type: 'integer', description: 'How many may be active at once' },
    active: { type: 'integer', description: 'How many are active now' },
  }),
  required: ['total', 'page', 'limit', 'items', 'quota', 'active'],
} as const);

const savedSchema = envelope({
  type: 'object',
  properties: { member: memberSchema, mailSent: { type: ['boolean', 'null'], description: 'Whether the activation e-mail went out (null: none was due)' } },
  required: ['member', 'mailSent'],
});

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const leadQuotaField = { type: ['integer', 'null'], minimum: 0, maximum: LEAD_QUOTA_MAX } as const;
const languageField = { type: 'string', enum: [...LANGUAGES], description: 'Language of the activation e-mail (default: the request language)' } as const;

function toMember(user: User) {
  return {
    id: user.id,
    account: user.login,
    name: user.display_name,
    company: user.company,
    email: user.email,
    status: user.status,
    leadQuota: user.lead_quota,
    createdAt: new Date(user.created_at).toISOString(),
  };
}

function participationIdOf(auth: AuthContext): number {
  if (!auth.participation) throw new AppError('noPermission');
  return auth.participation.id;
}

/** Trimmed, required text; `required` otherwise. */
function requiredText(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) throw new AppError('required');
  return trimmed;
}

function checkEmail(value: string): string {
  const email = value.trim();
  const problem = emailProblem(email);
  if (problem) throw new AppError(problem);
  return email;
}

export default async function membersRoutes(app: ApiApp) {
  const config = app.config;
  /** Active members of this kind under the participation, counted inside the transaction that adds one. */
  async function activeCount(db: Kysely<Database> | Transaction<Database>, participationId: number, role: MemberRole): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('participation_id', '=', participationId)
      .where('role', '=', role)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Runs `change` with the participation row locked, after checking one more active member of
   * this kind fits the quota: two simultaneous additions cannot both take the last place.
   */
  async function withinQuota<T>(kind: Kind, auth: AuthContext, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const participationId = participationIdOf(auth);
    return app.db.transaction().execute(async (trx) => {
      const locked = await trx.selectFrom('participations').select(['event_id']).where('id', '=', participationId).forUpdate().executeTakeFirstOrThrow();
      const quota = await effectiveQuota(trx, locked.event_id, participationId, kind.quota);
      if ((await activeCount(trx, participationId, kind.role)) >= quota) throw new AppError('quotaNotEnough');
      return change(trx);
    });
  }

  /** The member, if it is this exhibitor's and of this kind; "not found" for anything else (P5). */
  async function ownMember(kind: Kind, auth: AuthContext, id: number): Promise<User> {
    const user = await app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('participation_id', '=', participationIdOf(auth))
      .where('role', '=', kind.role)
      .executeTakeFirst();
    if (!user) throw new AppError('notFound');
    return user;
  }

  async function mail(user: User, auth: AuthContext, language: Language): Promise<boolean> {
    try {
      await sendActivationMail(app, config, { user, event: eventOf(auth), exhibitor: auth.exhibitor, language });
      return true;
    } catch (error) {
      app.log.error({ err: error, userId: user.id }, 'activation mail failed');
      return false;
    }
  }

  for (const kind of KINDS) {
    const base = `${API_BASE}/members/${kind.path}`;
    const who = kind.role === 'team_user' ? 'team user (LD5)' : 'contractor login (P1)';
    const routeConfig = { screen: kind.screen };
    const tags = ['members'];

    app.get(
      base,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `The exhibitor's ${who}s, newest first, one page at a time (Y8), with the quota`,
          querystring: pageQuerySchema,
          response: { 200: listSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const participationId = participationIdOf(auth);
        const mine = app.db.selectFrom('users').where('participation_id', '=', participationId).where('role', '=', kind.role);
        const totals = await mine
          .select((eb) => [eb.fn.countAll<string>().as('total'), eb.fn.countAll<string>().filterWhere('status', '=', 'active').as('active')])
          .executeTakeFirstOrThrow();
        const total = Number(totals.total);
        const { page, limit, offset } = pageOf(request.query, total);
        const rows = await mine.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
        return ok({ items: rows.map(toMember), total, page, limit, quota: auth.quotas[kind.quota] ?? 0, active: Number(totals.active) });
      },
    );

    app.post(
      base,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `Add a ${who}; an activation e-mail with a link to set their password goes out. Refused beyond the quota`,
          body: {
            type: 'object',
            required: ['account', 'email'],
            properties: {
              account: text(64),
              email: text(254),
              name: nameText(100),
              company: nameText(200),
              password: text(256),
              leadQuota: leadQuotaField,
              language: languageField,
            },
            additionalProperties: false,
          },
          response: { 200: savedSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const body = request.body;
        // The ID is chosen inside the exhibitor's own namespace (see memberLogin).
        const chosen = body.account.trim();
        const account = memberLogin(auth.user.login, chosen);
        const loginIssue = loginProblem(chosenLoginPart(account));
        if (loginIssue) throw new AppError(loginIssue);
        const email = checkEmail(body.email);
        const passwordIssue = initialPasswordProblem(body.password);
        if (passwordIssue) throw new AppError(passwordIssue);
        const contractor = kind.role === 'contractor';
        const company = contractor ? requiredText(body.company) : '';
        // A team user's name is shown on the leaderboard and "By user"; without one, its user name.
        const name = contractor ? requiredText(body.name) : body.name?.trim() || chosenLoginPart(account);
        const leadQuota = contractor ? null : (body.leadQuota ?? null);
        const quotaIssue = leadQuotaProblem(leadQuota);
        if (quotaIssue) throw new AppError(quotaIssue);
        // Without an initial password the account cannot be logged into until the link is used.
        const passwordHash = await hashPassword(body.password ? body.password : newToken());
        const loginKey = account.toLowerCase();
        const user = await withinQuota(kind, auth, async (trx) => {
          const taken = await trx.selectFrom('users').select('id').where('login_key', '=', loginKey).executeTakeFirst();
          if (taken) throw new AppError('memberLoginTaken');
          const inserted = await trx
            .insertInto('users')
            .values({
              login: account,
              login_key: loginKey,
              email,
              display_name: name,
              company,
              password_hash: passwordHash,
              role: kind.role,
              participation_id: participationIdOf(auth),
              event_id: eventOf(auth).id,
              status: 'active',
              lead_quota: leadQuota,
              created_by: auth.user.id,
            })
            .onConflict((oc) => oc.column('login_key').doNothing())
            .returningAll()
            .executeTakeFirst();
          // The same ID taken by someone else between the check and the insert.
          if (!inserted) throw new AppError('memberLoginTaken');
          return inserted;
        });
        const mailSent = await mail(user, auth, body.language ?? request.language);
        return ok({ member: toMember(user), mailSent });
      },
    );

    app.put(
      `${base}/:id`,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `Edit a ${who} (the login ID stays); a new password, when given, ends their sessions`,
          params: idParams,
          body: {
            type: 'object',
            required: ['email'],
            properties: { email: text(254), name: nameText(100), company: nameText(200), password: text(256), leadQuota: leadQuotaField },
            additionalProperties: false,
          },
          response: { 200: savedSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const current = await ownMember(kind, auth, request.params.id);
        const body = request.body;
        const email = checkEmail(body.email);
        const passwordIssue = initialPasswordProblem(body.password);
        if (passwordIssue) throw new AppError(passwordIssue);
        const contractor = kind.role === 'contractor';
        const changes: Partial<Pick<User, 'email' | 'display_name' | 'company' | 'lead_quota' | 'password_hash' | 'password_changed_at'>> = { email };
        if (contractor) {
          changes.display_name = requiredText(body.name);
          changes.company = requiredText(body.company);
        } else {
          // What is not sent keeps its value (null, sent, means no limit).
          if (body.name?.trim()) changes.display_name = body.name.trim();
          if (body.leadQuota !== undefined) {
            const quotaIssue = leadQuotaProblem(body.leadQuota);
            if (quotaIssue) throw new AppError(quotaIssue);
            changes.lead_quota = body.leadQuota;
          }
        }
        const now = new Date();
        if (body.password) {
          changes.password_hash = await hashPassword(body.password);
          changes.password_changed_at = now;
        }
        const updated = await app.db.transaction().execute(async (trx) => {
          const row = await trx.updateTable('users').set(changes).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
          if (body.password) await revokeUserSessions(trx, current.id, { now });
          return row;
        });
        return ok({ member: toMember(updated), mailSent: null });
      },
    );

    app.post(
      `${base}/:id/status`,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `Activate (within the quota, with a new activation e-mail) or deactivate (ends their sessions and links) a ${who}`,
          params: idParams,
          body: {
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['active', 'disabled'] }, language: languageField },
            additionalProperties: false,
          },
          response: { 200: savedSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const current = await ownMember(kind, auth, request.params.id);
        const { status } = request.body;
        if (current.status === status) return ok({ member: toMember(current), mailSent: null });
        const now = new Date();
        if (status === 'disabled') {
          const updated = await app.db.transaction().execute(async (trx) => {
            const row = await trx.updateTable('users').set({ status }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
            await revokeUserSessions(trx, current.id, { now });
            // Links sent earlier must not work for an account the exhibitor switched off.
            await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', current.id).where('used_at', 'is', null).execute();
            return row;
          });
          return ok({ member: toMember(updated), mailSent: null });
        }
        const updated = await withinQuota(kind, auth, (trx) => trx.updateTable('users').set({ status }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow());
        const mailSent = await mail(updated, auth, request.body.language ?? request.language);
        return ok({ member: toMember(updated), mailSent });
      },
    );

    app.post(
      `${base}/:id/activation-mail`,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `Send an active ${who} a new activation e-mail (a new link to set their password)`,
          params: idParams,
          body: { type: 'object', properties: { language: languageField }, additionalProperties: false },
          response: { 200: savedSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const current = await ownMember(kind, auth, request.params.id);
        if (current.status !== 'active') throw new AppError('accountDisabled');
        // Same limit as password reset links, so the button cannot flood a mailbox.
        if ((await linksLastHour(app, current.id)) >= LINKS_PER_ACCOUNT_HOUR) throw new AppError('tooManyAttempts');
        const mailSent = await mail(current, auth, request.body?.language ?? request.language);
        return ok({ member: toMember(current), mailSent });
      },
    );
  }
}
