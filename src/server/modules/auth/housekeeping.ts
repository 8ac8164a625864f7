import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Config } from '../../config';

// Housekeeping of the auth tables: what can no longer be used is deleted on a
// schedule. Expired and ended sessions stay a day so a returning browser still hears why its
// session ended (inactivity vs. sign-out) before the row goes.

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgeCounts {
  sessions: number;
  loginFailures: number;
  passwordResets: number;
  linkCodes: number;
}

export async function purgeAuthLeftovers(db: Kysely<Database>, config: Config, now = new Date()): Promise<PurgeCounts> {
  const graceCutoff = new Date(now.getTime() - DAY_MS);
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('revoked_at', '<', graceCutoff),
        eb('last_seen_at', '<', new Date(graceCutoff.getTime() - config.session.idleSeconds * 1000)),
        eb('created_at', '<', new Date(graceCutoff.getTime() - config.session.absoluteSeconds * 1000)),
      ]),
    )
    .executeTakeFirst();
  const loginFailures = await db
    .deleteFrom('login_failures')
    .where('at', '<', new Date(now.getTime() - config.login.windowSeconds * 1000))
    .executeTakeFirst();
  // Reset links are counted per hour to cap how many are sent: keep a day of them.
  const passwordResets = await db
    .deleteFrom('password_resets')
    .where((eb) => eb.or([eb('expires_at', '<', graceCutoff), eb('used_at', '<', graceCutoff)]))
    .executeTakeFirst();
  const linkCodes = await db.deleteFrom('link_codes').where('expires_at', '<', now).executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    loginFailures: Number(loginFailures.numDeletedRows),
    passwordResets: Number(passwordResets.numDeletedRows),
    linkCodes: Number(linkCodes.numDeletedRows),
  };
}
