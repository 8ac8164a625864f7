import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema';
import { rawWrittenTables } from '../db/write-observer';
import { SessionCache } from './session-cache';
import type { AuthContext, Resolution } from './sessions';

// What makes the session cache go to the database. The lookup is counted, not run.

const POLICY = { idleSeconds: 3600, absoluteSeconds: 86_400 };

function countingLookup() {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const lookup = async (_db: unknown, token: string, _policy: unknown, now = new Date()): Promise<Resolution> => {
    calls.push(token);
    await gate;
    const auth = { sessionId: 1, device: null, createdAt: now, lastSeenAt: now, user: { id: 7 } } as unknown as AuthContext;
    return { status: 'active', auth };
  };
  return {
    calls,
    lookup: lookup as unknown as ConstructorParameters<typeof SessionCache>[2],
    /** Holds every lookup until `release()`: requests that arrive meanwhile are concurrent. */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

const TOKEN = 'a'.repeat(43);
const db = {} as Kysely<Database>;

describe('SessionCache', () => {
  it('concurrent requests of one token share one lookup', async () => {
    const counting = countingLookup();
    const cache = new SessionCache(db, POLICY, counting.lookup);
    counting.hold();
    const answers = Array.from({ length: 20 }, () => cache.resolve(TOKEN));
    counting.release();
    const resolved = await Promise.all(answers);
    expect(counting.calls).toHaveLength(1);
    expect(resolved.every((r) => r.status === 'active')).toBe(true);
    // Kept afterwards too.
    await cache.resolve(TOKEN);
    expect(counting.calls).toHaveLength(1);
  });

  it('a lookup started before a write to a session table is not joined by a request after it', async () => {
    const counting = countingLookup();
    const cache = new SessionCache(db, POLICY, counting.lookup);
    counting.hold();
    const before = cache.resolve(TOKEN);
    cache.forget(new Set(['users']));
    const after = cache.resolve(TOKEN);
    counting.release();
    await Promise.all([before, after]);
    expect(counting.calls).toHaveLength(2);
  });

  it("a scan batch's raw statement keeps the cache; a raw write to a session table empties it", async () => {
    const counting = countingLookup();
    const cache = new SessionCache(db, POLICY, counting.lookup);
    await cache.resolve(TOKEN);
    cache.forget(rawWrittenTables('with inserted as (insert into leads (id) values (1) returning id) insert into lead_scans (lead_id) select id from inserted')!);
    await cache.resolve(TOKEN);
    expect(counting.calls).toHaveLength(1);
    cache.forget(rawWrittenTables("update users set status = 'disabled' where id = 7")!);
    await cache.resolve(TOKEN);
    expect(counting.calls).toHaveLength(2);
  });
});
