import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanIntake, type ScanOutcome as Outcome, type Scanner } from '../../src/server/modules/leads/scans';
import { createTestApp, ENGINES, insertTeamUser, login, post, type TestApp, unscannedVisitors } from './helpers';

// LD1 with the set-based scan statement: several devices syncing the same badges at the
// same moment (and resending each other's queues) still make one lead per badge, record every
// other scan once against it, count scans and quotas right, and answer every scan.

const HOUR = 3_600_000;
const DEVICES = 6;
const BADGES = 40;

describe.each(ENGINES)('LD1 concurrent scan batches on %s', (engine) => {
  let t: TestApp;
  let participationId: number;
  let eventId: number;
  let badges: string[];
  const tokens: string[] = [];
  const userIds: number[] = [];
  const run = randomBytes(3).toString('hex');

  async function teamUser(name: string, quota: number | null) {
    const id = await insertTeamUser(t.app, { login: name, participationId, eventId, quota });
    return { id, token: await login(t.app, name) };
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    const demo = await t.app.db.selectFrom('users').select(['id', 'participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    participationId = demo.participation_id!;
    eventId = demo.event_id!;
    tokens.push(await login(t.app, 'demo'));
    userIds.push(demo.id);
    for (let d = 1; d < DEVICES; d++) {
      const member = await teamUser(`race-${engine}-${run}-${d}`, null);
      tokens.push(member.token);
      userIds.push(member.id);
    }
    // Visitors the exhibitor has no lead of yet.
    const rows = await unscannedVisitors(t.app, eventId, participationId, BADGES + 5);
    badges = rows.map((r) => r.badge_code);
    expect(badges.length).toBeGreaterThanOrEqual(BADGES + 5);
  });
  afterAll(async () => t?.close());

  const scanTime = (i: number) => new Date(Date.now() - 5 * HOUR + i * 60_000).toISOString();
  const send = (token: string, scans: unknown[]) => post<Outcome>(t.app, '/oga/leads/scans', { scans }, token);

  it('the same badges from every device at once: one lead each, every other scan recorded once and counted', async () => {
    // Each device scans every badge, starting at its own place, and the batches go out all at once.
    const batches = tokens.map((_, d) =>
      Array.from({ length: BADGES }, (_, i) => {
        const b = (i + d * 7) % BADGES;
        return { clientScanId: `race-${run}-${d}-${b}`, badgeCode: badges[b]!, scannedAt: scanTime(d * BADGES + i) };
      }),
    );
    const answers = await Promise.all(batches.map((batch, d) => send(tokens[d]!, batch)));
    for (const answer of answers) expect(answer.code, JSON.stringify(answer).slice(0, 300)).toBe(200);
    const results = answers.flatMap((a) => a.data.results);
    // Every scan is answered: one `created` per badge across all devices, the rest recorded on it.
    expect(results.filter((r) => r.status === 'created')).toHaveLength(BADGES);
    expect(results.filter((r) => r.status === 'duplicate' && r.reason === 'alreadyScanned')).toHaveLength(BADGES * (DEVICES - 1));
    expect(results.every((r) => r.leadId !== null)).toBe(true);

    const leads = await t.app.db
      .selectFrom('leads')
      .select(['id', 'badge_code', 'scan_count', 'last_scanned_at'])
      .where('participation_id', '=', participationId)
      .where('badge_code', 'in', badges.slice(0, BADGES))
      .execute();
    expect(leads).toHaveLength(BADGES);
    const leadOfBadge = new Map(leads.map((l) => [l.badge_code, Number(l.id)]));
    // Each answer names the badge's one lead.
    batches.forEach((batch, d) => batch.forEach((scan, i) => expect(answers[d]!.data.results[i]!.leadId).toBe(leadOfBadge.get(scan.badgeCode))));
    for (const lead of leads) expect(lead.scan_count).toBe(DEVICES);
    const recorded = await t.app.db
      .selectFrom('lead_scans')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('participation_id', '=', participationId)
      .where(
        'lead_id',
        'in',
        leads.map((l) => l.id),
      )
      .executeTakeFirstOrThrow();
    expect(recorded.n).toBe(BADGES * (DEVICES - 1));
    // The rollup counts each visitor once.
    const rollup = await t.app.db
      .selectFrom('lead_rollup')
      .select(sql<number>`coalesce(sum(leads), 0)::int`.as('n'))
      .where('participation_id', '=', participationId)
      .where('dimension', '=', 'all')
      .executeTakeFirstOrThrow();
    const stored = await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('participation_id', '=', participationId).executeTakeFirstOrThrow();
    expect(rollup.n).toBe(stored.n);

    // Every device resends its whole queue at once: nothing new, every scan a resend of its lead.
    const again = await Promise.all(batches.map((batch, d) => send(tokens[d]!, batch)));
    for (const [d, answer] of again.entries()) {
      expect(answer.data).toMatchObject({ created: 0, duplicates: BADGES });
      answer.data.results.forEach((r, i) => expect(r).toMatchObject({ status: 'duplicate', reason: 'resend', leadId: leadOfBadge.get(batches[d]![i]!.badgeCode) }));
    }
    const after = await t.app.db
      .selectFrom('leads')
      .select(['scan_count'])
      .where('participation_id', '=', participationId)
      .where('badge_code', 'in', badges.slice(0, BADGES))
      .execute();
    expect(after.every((l) => l.scan_count === DEVICES)).toBe(true);
  });

  it('one team user on two devices at once never goes past its quota', async () => {
    const member = await teamUser(`race-quota-${engine}-${run}`, 3);
    const fresh = badges.slice(BADGES, BADGES + 5);
    const device = (prefix: string) => fresh.map((badgeCode, i) => ({ clientScanId: `race-${run}-${prefix}-${i}`, badgeCode, scannedAt: scanTime(i) }));
    const [one, two] = await Promise.all([send(member.token, device('a')), send(member.token, device('b'))]);
    const all = [...(one.data?.results ?? []), ...(two.data?.results ?? [])];
    expect(all.filter((r) => r.status === 'created')).toHaveLength(3);
    const made = await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('scanned_by', '=', member.id).executeTakeFirstOrThrow();
    expect(made.n).toBe(3);
    // The device whose batch went second saw the quota used: its answer says nothing remains.
    expect([one.data.remaining, two.data.remaining]).toContain(0);
  });

  it('a team user signed in without a quota and given one meanwhile: its batches at once still never go past it', async () => {
    // A team user without a quota sends its batches unlocked; the statement itself finds the quota
    // set since the sign-in and the scans go again under the lock.
    const member = await teamUser(`race-late-quota-${engine}-${run}`, null);
    await t.app.db.updateTable('users').set({ lead_quota: 2 }).where('id', '=', member.id).execute();
    const event = await t.app.db.selectFrom('events').select('utc_offset_minutes').where('id', '=', eventId).executeTakeFirstOrThrow();
    const scanner: Scanner = { userId: member.id, role: 'team_user', participationId, eventId, offsetMinutes: event.utc_offset_minutes, leadQuota: null };
    const intake = scanIntake(t.app.db, { oneStatementAtATime: false });
    const fresh = (await unscannedVisitors(t.app, eventId, participationId, 6)).map((r) => r.badge_code);
    const device = (prefix: string, codes: string[]) => codes.map((badgeCode, i) => ({ clientScanId: `race-${run}-${prefix}-${i}`, badgeCode, scannedAt: scanTime(i) }));
    const [one, two] = await Promise.all([intake.ingest(scanner, device('late-a', fresh.slice(0, 3))), intake.ingest(scanner, device('late-b', fresh.slice(3, 6)))]);
    const all = [...one.results, ...two.results];
    expect(all.filter((r) => r.status === 'created')).toHaveLength(2);
    expect(all.filter((r) => r.status === 'quotaNotEnough')).toHaveLength(4);
    const made = await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('scanned_by', '=', member.id).executeTakeFirstOrThrow();
    expect(made.n).toBe(2);
    expect([one.quota, two.quota]).toEqual([2, 2]);
    expect([one.remaining, two.remaining]).toContain(0);
  });
});
