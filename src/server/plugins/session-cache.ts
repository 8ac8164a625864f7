import type { Kysely } from 'kysely';
import { sessionState, type SessionPolicy } from '../../engine/session-rules';
import type { Database } from '../db/schema';
import type { WrittenTables } from '../db/write-observer';
import { hashToken } from '../lib/tokens';
import { resolveSession, touchGranularityMs, type AuthContext, type Resolution } from './sessions';

// For speed: resolving a session joins six tables on every API call, and on a busy
// PostgreSQL that round trip was most of an account-info request (1,661 req/s next to 29,978
// for a bare route). A resolved, active session is kept here for a short while.
//
// Staleness is bounded twice: any write through this process to a table the context is read
// from empties the cache at once (WriteObserver), and an entry is never older than ENTRY_TTL_MS,
// so a sign-out, a password change or a disabled exhibitor made through another instance on
// the same PostgreSQL takes effect there within that time too.

/** Tables a resolved session is read from: a write to any of them may change or revoke it. */
export const SESSION_SOURCE_TABLES: ReadonlySet<string> = new Set(['sessions', 'users', 'events', 'participations', 'exhibitors', 'deadlines', 'quotas']);

const ENTRY_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  auth: AuthContext;
  fetchedAt: number;
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /**
   * Lookups under way, by token hash: concurrent requests of one token (a scanning app's burst,
   * a page's parallel calls) share one database lookup instead of queueing one each.
   */
  readonly #inFlight = new Map<string, { generation: number; resolution: Promise<Resolution> }>();
  /** Bumped by every relevant write: a lookup started before it must not store its answer. */
  #generation = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: SessionPolicy,
    /** The database lookup (a test counts the calls). */
    private readonly lookup: typeof resolveSession = resolveSession,
  ) {}

  /** WriteObserver listener. */
  readonly forget = (tables: WrittenTables) => {
    if (tables !== 'all' && ![...tables].some((table) => SESSION_SOURCE_TABLES.has(table))) return;
    this.#generation++;
    this.#entries.clear();
  };

  async resolve(token: string, now = new Date()): Promise<Resolution> {
    const key = hashToken(token);
    const entry = this.#entries.get(key);
    if (entry && now.getTime() - entry.fetchedAt < ENTRY_TTL_MS) {
      const cached = await this.#fromEntry(entry, now);
      if (cached) return cached;
    }
    const generation = this.#generation;
    // Joined only when started after the last relevant write (the same rule as storing an answer).
    const pending = this.#inFlight.get(key);
    if (pending && pending.generation === generation) return pending.resolution;
    const resolution = this.#lookup(key, token, now, generation);
    this.#inFlight.set(key, { generation, resolution });
    try {
      return await resolution;
    } finally {
      if (this.#inFlight.get(key)?.resolution === resolution) this.#inFlight.delete(key);
    }
  }

  async #lookup(key: string, token: string, now: Date, generation: number): Promise<Resolution> {
    const resolution = await this.lookup(this.db, token, this.policy, now);
    this.#entries.delete(key);
    if (resolution.status === 'active' && generation === this.#generation) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { auth: resolution.auth, fetchedAt: now.getTime() });
    }
    return resolution;
  }

  /** A cached session still within its idle and absolute limits; null sends the caller to the database. */
  async #fromEntry(entry: Entry, now: Date): Promise<Resolution | null> {
    const { auth } = entry;
    const times = { createdAt: auth.createdAt.getTime(), lastSeenAt: auth.lastSeenAt.getTime() };
    if (!auth.device && sessionState(times, this.policy, now.getTime()) !== 'active') return null;
    if (now.getTime() - times.lastSeenAt >= touchGranularityMs(this.policy)) {
      // The same touch as resolveSession's; made without the observer, as it changes nothing cached but this time.
      // The entry says so before the write: the requests that arrive while it is queued do not touch again.
      entry.auth = { ...auth, lastSeenAt: now };
      await this.db.withoutPlugins().updateTable('sessions').set({ last_seen_at: now }).where('id', '=', auth.sessionId).where('revoked_at', 'is', null).execute();
    }
    return { status: 'active', auth: entry.auth };
  }
}
