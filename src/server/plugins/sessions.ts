import type { Kysely, SelectQueryBuilder } from 'kysely';
import { modulesForRole, ORGANISER_MODULES } from '../../engine/roles';
import { sessionState, type SessionPolicy } from '../../engine/session-rules';
import type { Database, EventRow, Exhibitor, Participation, User } from '../db/schema';
import { effectiveSettingsSql, parseSettings } from '../lib/participation-settings';
import { hashToken, newToken } from '../lib/tokens';

// Server-side sessions (S3–S6): an opaque token goes to the browser, only its hash is stored.

export interface AuthContext {
  user: User;
  sessionId: number;
  createdAt: Date;
  lastSeenAt: Date;
  /** LD1: the scanning device this token belongs to (null for a browser sign-in). */
  device: { name: string } | null;
  participation: Participation | null;
  /** The exhibitor of the participation (none for an organiser). */
  exhibitor: Exhibitor | null;
  /** The user's event; null only for an organiser that has no event yet. */
  event: EventRow | null;
  displayedModules: string[];
  /** O2: the participation's effective deadlines and quotas by name (empty for organisers). */
  deadlines: Record<string, Date>;
  quotas: Record<string, number>;
  /** LD2: set when the request came with an exhibitor's API key (plugins/api-keys.ts): its id and scopes. */
  apiKey?: { id: number; scopes: readonly string[] };
}

export type Resolution = { status: 'active'; auth: AuthContext } | { status: 'invalid' } | { status: 'idle-expired' };

/**
 * Writes of last_seen_at are skipped when the last one is this recent, to spare the database;
 * never coarser than a tenth of the idle time, so a short idle time stays accurate.
 */
export function touchGranularityMs(policy: SessionPolicy): number {
  return Math.min(5_000, policy.idleSeconds * 100);
}

export async function createSession(db: Kysely<Database>, userId: number, ip: string, now = new Date()): Promise<string> {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_seen_at: now, ip })
    .execute();
  return token;
}

/** LD1: a scanning device's long-lived token for a user (shown once; only its hash is kept). */
export async function createDeviceSession(db: Kysely<Database>, userId: number, name: string, ip: string, now = new Date()): Promise<{ id: number; token: string }> {
  const token = newToken();
  const row = await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_seen_at: now, ip, device_name: name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

export async function resolveSession(db: Kysely<Database>, token: string, policy: SessionPolicy, now = new Date()): Promise<Resolution> {
  const row = await withAuthContext(db.selectFrom('users'))
    .innerJoin('sessions', 'sessions.user_id', 'users.id')
    .select(['sessions.id as session_id', 'sessions.created_at as session_created_at', 'sessions.last_seen_at', 'sessions.revoked_at', 'sessions.device_name'])
    .where('sessions.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at || row.status !== 'active') return { status: 'invalid' };
  const times = { createdAt: new Date(row.session_created_at).getTime(), lastSeenAt: new Date(row.last_seen_at).getTime() };
  // A device token has no idle or absolute limit: it lives until revoked (or its user is off).
  const state = row.device_name !== null ? 'active' : sessionState(times, policy, now.getTime());
  if (state !== 'active') {
    await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', row.session_id).execute();
    return state === 'idle-expired' ? { status: 'idle-expired' } : { status: 'invalid' };
  }
  if (now.getTime() - times.lastSeenAt >= touchGranularityMs(policy)) {
    // Without the write observer: the time of last use changes nothing a cache holds but that
    // time, and telling the session cache would empty it (and drop this very lookup's answer).
    await db.withoutPlugins().updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.session_id).execute();
    times.lastSeenAt = now.getTime();
  }
  const { session_id, session_created_at, last_seen_at, revoked_at, device_name, ...rest } = row;
  const auth = authContextOf(rest, {
    sessionId: session_id,
    createdAt: new Date(times.createdAt),
    lastSeenAt: new Date(times.lastSeenAt),
    device: device_name !== null ? { name: device_name } : null,
  });
  return auth ? { status: 'active', auth } : { status: 'invalid' };
}

/**
 * The user's event, participation, exhibitor and effective settings joined to a query that has
 * `users` (a session's, an API key's): what an auth context is built from (authContextOf).
 */
export function withAuthContext(query: SelectQueryBuilder<Database, 'users', object>) {
  return query
    .leftJoin('events', 'events.id', 'users.event_id')
    .leftJoin('participations', 'participations.id', 'users.participation_id')
    .leftJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .selectAll('users')
    .select((eb) => [
      eb.fn.toJson('events').as('event'),
      eb.fn.toJson('participations').as('participation'),
      eb.fn.toJson('exhibitors').as('exhibitor'),
      effectiveSettingsSql('deadlines', 'participations.id', 'participations.event_id').as('deadlines'),
      effectiveSettingsSql('quotas', 'participations.id', 'participations.event_id').as('quotas'),
    ]);
}

type AuthContextRow = User & { event: unknown; participation: unknown; exhibitor: unknown; deadlines: unknown; quotas: unknown };

/** An auth context from a row of withAuthContext; null when the participation is disabled. */
export function authContextOf(row: AuthContextRow, access: Pick<AuthContext, 'sessionId' | 'createdAt' | 'lastSeenAt' | 'device' | 'apiKey'>): AuthContext | null {
  const { event, participation, exhibitor, deadlines, quotas, ...user } = row;
  const parsedEvent = event ? reviveDates(event as unknown as EventRow, ['starts_at', 'ends_at', 'created_at']) : null;
  const parsedParticipation = participation ? reviveDates(participation as unknown as Participation, ['created_at']) : null;
  // A participation the organiser disabled signs its people out (O2).
  if (parsedParticipation && parsedParticipation.status !== 'active') return null;
  const settings = parseSettings(deadlines, quotas);
  return {
    ...access,
    user: user as User,
    participation: parsedParticipation,
    exhibitor: (exhibitor as unknown as Exhibitor | null) ?? null,
    event: parsedEvent,
    displayedModules: parsedParticipation ? modulesForRole(user.role, parsedParticipation.displayed_modules) : user.role === 'organiser' ? [...ORGANISER_MODULES] : [],
    deadlines: settings.deadlines,
    quotas: settings.quotas,
  };
}

/** to_json turns timestamps into strings; give callers Dates as from a plain select. */
function reviveDates<T extends object>(row: T, fields: Array<keyof T>): T {
  const copy = { ...row };
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'string') (copy as Record<keyof T, unknown>)[field] = new Date(value);
  }
  return copy;
}

export async function revokeSession(db: Kysely<Database>, sessionId: number, now = new Date()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

export async function revokeUserSessions(db: Kysely<Database>, userId: number, options: { except?: number; now?: Date } = {}): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: options.now ?? new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (options.except !== undefined) query = query.where('id', '!=', options.except);
  await query.execute();
}

/** "Stay signed in": the session counts as active from now, whatever the write granularity. */
export async function touchSession(db: Kysely<Database>, sessionId: number, now = new Date()): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}
