import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isLanguage, type Language } from '../../engine/language';
import { emailProblem, loginProblem } from '../../engine/members';
import type { Config } from '../config';
import { translate } from '../lib/messages';
import { hashPassword } from '../lib/passwords';
import { createSetPasswordLink } from '../lib/set-password-link';
import { newToken } from '../lib/tokens';

// The first organiser of a real show, made from the command line on an empty
// database (no demo, nobody to log in as). The organiser gets a single-use link to set its own
// password, printed and e-mailed; it then creates events and exhibitors in the console.

/** The first organiser's link has the members' activation validity: it may be opened days later. */
export const ORGANISER_LINK_HOURS = 72;
/** The outbox kind of the organiser's activation e-mail (ref: the user's id). */
export const ORGANISER_MAIL_KIND = 'organiserActivation';

/** How the organiser's activation e-mail stands in the outbox. */
export async function organiserMailStatus(app: FastifyInstance, userId: number) {
  return app.db
    .selectFrom('mail_outbox')
    .select(['status', 'last_error', 'to_address'])
    .where('kind', '=', ORGANISER_MAIL_KIND)
    .where('ref_id', '=', String(userId))
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export interface CreateOrganiserInput {
  email: string;
  name: string;
  /** The organisation's name: joined when one of that name exists, created otherwise (default: the name). */
  organisation?: string;
  /** The account ID (default: the e-mail address). */
  login?: string;
  /** The e-mail's language. */
  language?: string;
}

export interface CreatedOrganiser {
  userId: number;
  login: string;
  organisationId: number;
  organisationName: string;
  organisationCreated: boolean;
  link: string;
}

/** A problem the operator can fix by changing the command's arguments. */
export class AdminInputError extends Error {}

export async function createOrganiser(app: FastifyInstance, config: Config, input: CreateOrganiserInput): Promise<CreatedOrganiser> {
  const email = input.email.trim();
  const name = input.name.trim();
  const login = (input.login ?? email).trim();
  const organisationName = (input.organisation ?? name).trim();
  const language: Language =
    input.language === undefined
      ? 'en'
      : isLanguage(input.language)
        ? input.language
        : (() => {
            throw new AdminInputError(`--language must be one of en, cn, ja, vi (got "${input.language}")`);
          })();
  if (emailProblem(email)) throw new AdminInputError(`--email "${email}" is not a valid e-mail address`);
  if (!name) throw new AdminInputError('--name must not be empty');
  if (!organisationName) throw new AdminInputError('--organisation must not be empty');
  if (loginProblem(login)) {
    throw new AdminInputError(`the account ID "${login}" may hold only letters, digits and . _ @ - (3 to 64, starting with a letter or digit); choose one with --login`);
  }
  const loginKey = login.toLowerCase();
  // Nobody can log in before the link is used: the password is a random secret nobody knows.
  const passwordHash = await hashPassword(newToken());

  const created = await app.db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('users').select('id').where('login_key', '=', loginKey).executeTakeFirst();
    if (taken) throw new AdminInputError(`the account ID "${login}" is taken; choose another with --login`);
    const existing = await trx
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where(sql<string>`lower(name)`, '=', organisationName.toLowerCase())
      .orderBy('id')
      .executeTakeFirst();
    const organisation = existing ?? (await trx.insertInto('organisations').values({ name: organisationName }).returning(['id', 'name']).executeTakeFirstOrThrow());
    const user = await trx
      .insertInto('users')
      .values({
        login,
        login_key: loginKey,
        email,
        display_name: name,
        password_hash: passwordHash,
        role: 'organiser',
        participation_id: null,
        event_id: null,
        organisation_id: organisation.id,
        status: 'active',
        lead_quota: null,
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.audit.record(
      {
        action: 'organiser.create',
        actor: null,
        organisationId: organisation.id,
        subjectType: 'user',
        subjectId: String(user.id),
        after: { login, email, name, organisation: organisation.name, via: 'admin command' },
      },
      { db: trx },
    );
    return { userId: user.id, organisation, organisationCreated: !existing };
  });

  const link = await createSetPasswordLink(app.db, config.publicUrl, created.userId, ORGANISER_LINK_HOURS);
  const params = { name, organisation: created.organisation.name, account: login, hours: ORGANISER_LINK_HOURS, link, login: `${config.publicUrl}/login` };
  await app.mailer.send({
    kind: ORGANISER_MAIL_KIND,
    refId: created.userId,
    to: email,
    subject: translate(language, 'mail.organiserActivation.subject', params),
    text: translate(language, 'mail.organiserActivation.text', params),
  });
  return {
    userId: created.userId,
    login,
    organisationId: created.organisation.id,
    organisationName: created.organisation.name,
    organisationCreated: created.organisationCreated,
    link,
  };
}
