import type { FastifyInstance } from 'fastify';
import type { Language } from '../../../engine/language';
import type { Config } from '../../config';
import type { EventRow, Exhibitor, User } from '../../db/schema';
import { translate } from '../../lib/messages';
import { createSetPasswordLink } from '../../lib/set-password-link';

// The activation e-mail of a team user or contractor login (LD5 "activation email after
// saving", P1): account ID, event, who granted it, and a single-use link to set their own
// password. The link is a password-reset token (same table, same /reset-password page), valid
// longer than a reset link because the person may open it days later.

export const ACTIVATION_LINK_HOURS = 72;
const HOUR_MS = 60 * 60 * 1000;

export interface ActivationMail {
  user: User;
  event: EventRow;
  exhibitor: Exhibitor | null;
  language: Language;
}

/** Links created for this user in the last hour (activation and reset alike). */
export async function linksLastHour(app: FastifyInstance, userId: number): Promise<number> {
  const row = await app.db
    .selectFrom('password_resets')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', new Date(Date.now() - HOUR_MS))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function sendActivationMail(app: FastifyInstance, config: Config, { user, event, exhibitor, language }: ActivationMail): Promise<void> {
  const link = await createSetPasswordLink(app.db, config.publicUrl, user.id, ACTIVATION_LINK_HOURS);
  const kind = user.role === 'contractor' ? 'contractor' : 'teamUser';
  const params = {
    name: user.display_name,
    account: user.login,
    event: event.name,
    exhibitor: exhibitor?.name ?? '',
    link,
    hours: ACTIVATION_LINK_HOURS,
    login: `${config.publicUrl}/login?exhibitCode=${encodeURIComponent(event.code)}`,
  };
  await app.mailer.send({
    to: user.email,
    subject: translate(language, `members.mail.${kind}.subject`, params),
    text: translate(language, `members.mail.${kind}.text`, params),
  });
}
