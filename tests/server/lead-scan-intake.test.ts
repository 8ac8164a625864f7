import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type KyselyPlugin, type OperationNode, type RawNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHour } from '../../src/engine/leads';
import { batchStatement, scanIntake, type ScanOutcome, type Scanner, type StatementRow } from '../../src/server/modules/leads/scans';
import { createTestApp, ENGINES, HOUR, insertTeamUser, login, post, type TestApp } from './helpers';

// LD1 with the set-based scan statement: its cost grows with the scans, never with their square;
// on the embedded database the batches that arrive together are stored in one statement, with
// the answers each would get stored alone (a badge is one lead, a quota is kept, a resend is a resend).

describe.each(ENGINES)('LD1 scan intake on %s', (engine) => {
  let t: TestApp;
  let exhibitor: Scanner;
  let badges: string[];
  const run = randomBytes(3).toString('hex');
  let nextBadge = 0;
  const takeBadges = (n: number) => badges.slice(nextBadge, (nextBadge += n));
  const scanTime = (i: number) => new Date(Date.now() - 5 * HOUR + i * 60_000).toISOString();

  async function teamUser(name: string, quota: number | null): Promise<Scanner> {
    const userId = await insertTeamUser(t.app, { login: name, participationId: exhibitor.participationId, eventId: exhibitor.eventId, quota });
    return { ...exhibitor, userId, role: 'team_user' };
  }

  /**
   * The app's database, counting the scan statements it runs: the ones reading scans with
   * jsonb_to_recordset, or executing the prepared one (an EXECUTE refused because the connection
   * had not prepared it yet, and the PREPARE itself, store nothing and are not counted).
   */
  function countingDb() {
    const counter = { statements: 0 };
    const scanStatements = new Set<unknown>();
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        const text = (node: OperationNode): string =>
          node.kind === 'RawNode'
            ? (node as RawNode).sqlFragments.map((fragment, i) => fragment + ((node as RawNode).parameters[i] ? text((node as RawNode).parameters[i]!) : '')).join('')
            : '';
        const statement = text(args.node);
        if (!statement.startsWith('prepare ') && (statement.includes('jsonb_to_recordset') || statement.startsWith('execute lead_scan_batch_'))) scanStatements.add(args.queryId);
        return args.node;
      },
      transformResult: async (args) => {
        if (scanStatements.delete(args.queryId)) counter.statements++;
        return args.result;
      },
    };
    return { db: t.app.db.withPlugin(plugin), counter };
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    const demo = await t.app.db.selectFrom('users').select(['id', 'participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    const event = await t.app.db.selectFrom('events').select('utc_offset_minutes').where('id', '=', demo.event_id!).executeTakeFirstOrThrow();
    exhibitor = { userId: demo.id, role: 'exhibitor', participationId: demo.participation_id!, eventId: demo.event_id!, offsetMinutes: event.utc_offset_minutes };
    const rows = await t.app.db
      .selectFrom('visitors')
      .select('badge_code')
      .where('event_id', '=', exhibitor.eventId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', exhibitor.participationId)),
        ),
      )
      .orderBy('id')
      .limit(60)
      .execute();
    badges = rows.map((r) => r.badge_code);
    expect(badges.length).toBe(60);
  });
  afterAll(async () => t?.close());

  it('a badge scanned three times in one batch is one lead counting three scans, the latest one last', async () => {
    const token = await login(t.app, 'demo');
    const [badge] = takeBadges(1);
    const scans = [0, 1, 2].map((i) => ({ clientScanId: `thrice-${run}-${i}`, badgeCode: badge!, scannedAt: scanTime(i) }));
    const answer = await post<ScanOutcome>(t.app, '/oga/leads/scans', { scans }, token);
    expect(answer.data.results.map((r) => [r.status, r.reason])).toEqual([
      ['created', undefined],
      ['duplicate', 'alreadyScanned'],
      ['duplicate', 'alreadyScanned'],
    ]);
    const lead = await t.app.db.selectFrom('leads').select(['id', 'scan_count', 'last_scanned_at', 'last_scanned_by']).where('badge_code', '=', badge!).executeTakeFirstOrThrow();
    expect(lead.scan_count).toBe(3);
    expect(new Date(lead.last_scanned_at!).toISOString()).toBe(scans[2]!.scannedAt);
    expect(lead.last_scanned_by).toBe(exhibitor.userId);
    expect(answer.data.results.every((r) => r.leadId === Number(lead.id))).toBe(true);
  });

  it("a statement of 1,000 scans never compares each scan with every other (its plan's joins filter at most one row per scan)", async () => {
    const rows: StatementRow[] = Array.from({ length: 1000 }, (_, i) => {
      const scannedAt = scanTime(i % 200);
      return {
        idx: i,
        participation_id: exhibitor.participationId,
        user_id: exhibitor.userId,
        event_id: exhibitor.eventId,
        limited: false,
        client_scan_id: `plan-${run}-${i}`,
        // Half the scans repeat a badge of the other half: makers and later scans both.
        badge_code: `PLAN-${run}-${i % 500}`,
        scanned_at: scannedAt,
        event_hour: eventHour(scannedAt, exhibitor.offsetMinutes),
        lead_type: null,
        temperature: null,
        follow_up: null,
        notes: '',
        tag_answers: {},
        qualified: false,
        tags_ok: true,
        search_folded: '',
      };
    });
    const compiled = batchStatement(rows, Date.now()).compile(t.app.db);
    // EXPLAIN ANALYZE runs the inserts: inside a transaction that is rolled back.
    let plan = '';
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        const result = await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain (analyze, format text) ${compiled.sql}`, [...compiled.parameters]));
        plan = result.rows.map((row) => Object.values(row)[0]).join('\n');
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
    expect(plan).toContain('Insert on leads');
    const removed = [...plan.matchAll(/Rows Removed by Join Filter: (\d+)/g)].map((m) => Number(m[1]));
    for (const n of removed) expect(n).toBeLessThanOrEqual(rows.length);
    const made = await t.app.db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')).where('client_scan_id', 'like', `plan-${run}-%`).executeTakeFirstOrThrow();
    expect(made.n).toBe(0);
  });

  it.runIf(engine === 'pglite')('batches arriving together from several scanners are stored in one statement, each answered as if alone', async () => {
    const { db, counter } = countingDb();
    const intake = scanIntake(db, { oneStatementAtATime: true });
    const limited = await teamUser(`intake-q-${run}`, 2);
    const member = await teamUser(`intake-m-${run}`, null);
    const [shared, ...fresh] = takeBadges(12);
    const scans = (prefix: string, codes: string[]) => codes.map((badgeCode, i) => ({ clientScanId: `intake-${run}-${prefix}-${i}`, badgeCode, scannedAt: scanTime(i) }));
    const [exhibitorAnswer, limitedFirst, limitedSecond, memberAnswer, resend] = await Promise.all([
      intake.ingest(exhibitor, scans('ex', [shared!, fresh[0]!, fresh[1]!])),
      // The team user with a quota of 2 sends two batches of 3 new badges at once.
      intake.ingest(limited, scans('q1', fresh.slice(2, 5))),
      intake.ingest(limited, scans('q2', fresh.slice(5, 8))),
      // Another team user scans the exhibitor's shared badge too.
      intake.ingest(member, scans('m', [fresh[8]!, shared!])),
      // The exhibitor's app resends its first scan while the original is on its way.
      intake.ingest(exhibitor, scans('ex', [shared!])),
    ]);
    expect(counter.statements).toBe(1);

    expect(exhibitorAnswer.results.map((r) => r.status)).toEqual(['created', 'created', 'created']);
    expect(exhibitorAnswer.quota).toBeNull();
    // The quota holds across the two batches: two leads, the rest refused, nothing left.
    const limitedResults = [...limitedFirst.results, ...limitedSecond.results];
    expect(limitedResults.filter((r) => r.status === 'created')).toHaveLength(2);
    expect(limitedResults.filter((r) => r.status === 'quotaNotEnough')).toHaveLength(4);
    expect(limitedFirst).toMatchObject({ created: 2, quota: 2, remaining: 0 });
    expect(limitedSecond).toMatchObject({ created: 0, quota: 2, remaining: 0 });
    // The shared badge is one lead: the team user's scan is recorded on the exhibitor's.
    const sharedLead = exhibitorAnswer.results[0]!.leadId;
    expect(memberAnswer.results.map((r) => [r.status, r.reason ?? null, r.leadId === sharedLead])).toEqual([
      ['created', null, false],
      ['duplicate', 'alreadyScanned', true],
    ]);
    expect(resend.results[0]).toMatchObject({ status: 'duplicate', reason: 'resend', leadId: sharedLead });
    const lead = await t.app.db.selectFrom('leads').select(['scan_count', 'last_scanned_by']).where('id', '=', sharedLead!).executeTakeFirstOrThrow();
    expect(lead).toEqual({ scan_count: 2, last_scanned_by: member.userId });
  });

  it.runIf(engine === 'pglite')('a batch the database refuses fails alone: the batches stored with it are answered', async () => {
    const { db } = countingDb();
    const intake = scanIntake(db, { oneStatementAtATime: true });
    const [good, other] = takeBadges(2);
    const nowhere: Scanner = { ...exhibitor, participationId: 2_000_000_000 };
    const [ok, refused] = await Promise.allSettled([
      intake.ingest(exhibitor, [{ clientScanId: `fail-${run}-ok`, badgeCode: good!, scannedAt: scanTime(1) }]),
      intake.ingest(nowhere, [{ clientScanId: `fail-${run}-bad`, badgeCode: other!, scannedAt: scanTime(2) }]),
    ]);
    expect(ok.status === 'fulfilled' && ok.value.created).toBe(1);
    expect(refused.status).toBe('rejected');
  });
});
