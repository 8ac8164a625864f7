import type { Kysely } from 'kysely';
import { API_KEY_PREFIX, API_KEY_SHOWN_CHARS, type ApiKeyScope } from '../../engine/api-keys';
import type { Database } from '../db/schema';
import { hashToken, newToken } from '../lib/tokens';
import { authContextOf, withAuthContext, type AuthContext } from './sessions';

// LD2: an exhibitor's API keys, the bearer credential of its own systems (CRM sync). A key is
// shown once; only its hash is stored. It acts for the exhibitor account that made it, narrowed
// to its scopes and to the routes that accept API keys (the auth hook): it stops working when
// revoked, when that account is deactivated or the participation disabled.

/** A bearer credential that is an API key (by its prefix) rather than a session token. */
export function isApiKey(bearer: string): boolean {
  return bearer.startsWith(API_KEY_PREFIX);
}

/** Last-use times are written at most this often per key. */
const TOUCH_MS = 60_000;

export async function createApiKey(
  db: Kysely<Database>,
  values: { participationId: number; userId: number; name: string; scopes: readonly ApiKeyScope[] },
  now = new Date(),
): Promise<{ id: number; key: string; prefix: string }> {
  const key = `${API_KEY_PREFIX}${newToken()}`;
  const prefix = key.slice(0, API_KEY_SHOWN_CHARS);
  const row = await db
    .insertInto('api_keys')
    .values({
      participation_id: values.participationId,
      created_by: values.userId,
      name: values.name,
      prefix,
      token_hash: hashToken(key),
      scopes: JSON.stringify(values.scopes),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key, prefix };
}

/** The auth context of an API key, or null when it is unknown, revoked or its account is off. */
export async function resolveApiKey(db: Kysely<Database>, key: string, now = new Date()): Promise<AuthContext | null> {
  const row = await withAuthContext(db.selectFrom('users'))
    .innerJoin('api_keys', 'api_keys.created_by', 'users.id')
    .select(['api_keys.id as key_id', 'api_keys.scopes', 'api_keys.created_at as key_created_at', 'api_keys.last_used_at', 'api_keys.participation_id as key_participation'])
    .where('api_keys.token_hash', '=', hashToken(key))
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.status !== 'active' || row.role !== 'exhibitor' || row.participation_id !== row.key_participation) return null;
  const { key_id, scopes, key_created_at, last_used_at, key_participation, ...rest } = row;
  const lastUsed = last_used_at ? new Date(last_used_at) : null;
  if (!lastUsed || now.getTime() - lastUsed.getTime() >= TOUCH_MS) {
    // Without the write observer: the time of last use changes nothing any cache holds.
    await db.withoutPlugins().updateTable('api_keys').set({ last_used_at: now }).where('id', '=', key_id).execute();
  }
  return authContextOf(rest, {
    sessionId: 0,
    createdAt: new Date(key_created_at),
    lastSeenAt: now,
    device: null,
    apiKey: { id: key_id, scopes: Array.isArray(scopes) ? scopes : [] },
  });
}
