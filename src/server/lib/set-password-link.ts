import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { hashToken, newToken } from './tokens';

// A single-use link to set one's own password: a password-reset token (same table, same
// /reset-password page). Activation e-mails of members, the first organiser and the
// organiser's "send activation" all make their links here.

const HOUR_MS = 60 * 60 * 1000;

export async function createSetPasswordLink(db: Kysely<Database>, publicUrl: string, userId: number, validHours: number, now = new Date()): Promise<string> {
  const token = newToken();
  await db
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: hashToken(token), created_at: now, expires_at: new Date(now.getTime() + validHours * HOUR_MS) })
    .execute();
  return `${publicUrl}/reset-password?token=${token}`;
}
