import { createHash } from 'node:crypto';
import { retryTransient } from '../../db/transient';
import { sql, type Kysely } from 'kysely';
import { eventHour, leadSearchText } from '../../../engine/leads';
import { checkScanTime } from '../../../engine/leads-rules';
import type { Database } from '../../db/schema';
import type { ScanInput, ScanOutcome, ScanQualification, ScanResult } from '../../../engine/schemas/scan';

// LD1: the scanning app sends scans one by one or as its offline queue (a batch). Each scan has
// the app's own id; a resend of the same id never makes a second lead, and a second scan of a
// badge that already is a lead of the exhibitor (by anyone of it) is recorded against that lead
// (lead_scans: count, last seen, who) instead of making a second one. A batch is one
// set-based statement (batchStatement) — one round trip, whatever its size — inside a
// transaction only where the answer needs one (a team user's quota on PostgreSQL, a qualification
// merged). On the embedded database the batches arriving together share one statement (scanIntake).

const carriesQualification = (scan: ScanQualification) =>
  Boolean(scan.leadType || scan.temperature || scan.followUp || scan.notes?.trim() || Object.values(scan.tagAnswers ?? {}).some((chosen) => chosen.length > 0));

/** Tag answers without empty tags, or null when one names no tag or a choice the tag lacks. */
function checkedTagAnswers(answers: Record<string, string[]> | undefined, tags: ReadonlyMap<string, readonly string[]>): Record<string, string[]> | null {
  const kept: Record<string, string[]> = {};
  for (const [tagId, chosen] of Object.entries(answers ?? {})) {
    const choices = tags.get(tagId);
    if (!choices || new Set(chosen).size !== chosen.length || chosen.some((c) => !choices.includes(c))) return null;
    if (chosen.length > 0) kept[tagId] = chosen;
  }
  return kept;
}

/**
 * A later scan's qualification added to the lead's: what the lead lacks is filled, notes are
 * appended, tag answers joined. What a colleague already decided is never overwritten.
 */
function mergedQualification(
  lead: { lead_type: string | null; temperature: string | null; follow_up: string | null; notes: string; tag_answers: Record<string, string[]> },
  scan: ScanQualification & { tagAnswers: Record<string, string[]> },
) {
  const note = scan.notes?.trim() ?? '';
  const tagAnswers: Record<string, string[]> = { ...lead.tag_answers };
  for (const [tagId, chosen] of Object.entries(scan.tagAnswers)) tagAnswers[tagId] = [...new Set([...(tagAnswers[tagId] ?? []), ...chosen])];
  return {
    lead_type: lead.lead_type ?? scan.leadType ?? null,
    temperature: lead.temperature ?? scan.temperature ?? null,
    follow_up: lead.follow_up ?? scan.followUp ?? null,
    notes: !note || lead.notes.includes(note) ? lead.notes : lead.notes ? `${lead.notes}\n${note}` : note,
    tag_answers: tagAnswers,
  };
}

export type { ScanOutcome, ScanResult };
export type ScanStatus = ScanResult['status'];
/** Why a scan answered `duplicate`: its id was stored before, or its badge already is a lead. */
export type DuplicateReason = NonNullable<ScanResult['reason']>;

export interface Scanner {
  userId: number;
  role: string;
  participationId: number;
  eventId: number;
  offsetMinutes: number;
  /**
   * A team user's lead quota as its sign-in read it (null: none). A team user without one sends
   * its batches without the lock that serialises them (the statement checks again: see `locked`).
   * Left out: not known, the batch is locked as for a quota.
   */
  leadQuota?: number | null;
}

interface StoredLead {
  id: number;
  badge_known: boolean;
  visitor_name: string;
  company: string;
}

const leadOf = (row: StoredLead & { id: number | string }): StoredLead => ({
  id: Number(row.id),
  badge_known: row.badge_known,
  visitor_name: row.visitor_name,
  company: row.company,
});

/** What the batch statement decided for one scan (`relock`: its scanner has a quota the statement was not run under the lock for). */
type ScanKind = 'resend' | 'tags' | 'created' | 'later' | 'quota' | 'retry' | 'relock';

interface ScanRow {
  idx: number;
  kind: ScanKind;
  id: number | string | null;
  badge_known: boolean | null;
  visitor_name: string | null;
  company: string | null;
  /** The scanner's quota (a team user's; null = no limit) and the leads it had made before the statement. */
  quota: number | null;
  used: number;
}

/** One scan as the statement reads it: who scanned it, for which participation, and what. */
export interface StatementRow {
  idx: number;
  participation_id: number;
  user_id: number;
  event_id: number;
  /** Whether the scanner's quota applies (team users). */
  limited: boolean;
  /**
   * Whether the statement runs where the scanner's quota cannot change meanwhile (its row locked,
   * or one statement at a time); left out: true. A scan of an unlocked scanner that turns out to
   * have a quota makes no lead: it answers `relock` and is stored again under the lock.
   */
  locked?: boolean;
  client_scan_id: string;
  badge_code: string;
  scanned_at: string;
  event_hour: number;
  /** The scan's qualification; left out: none (null, '', {}, false). */
  lead_type?: string | null;
  temperature?: string | null;
  follow_up?: string | null;
  notes?: string;
  tag_answers?: Record<string, string[]>;
  qualified?: boolean;
  /** Whether its tag answers are choices of the exhibitor's tags; left out: true. */
  tags_ok?: boolean;
  /** The lead's folded keyword text (`leadSearchText`) from the visitor as read before the statement. */
  search_folded: string;
  /** LD2: how the badge code was read (the lead's consent source). */
  consent_source?: string;
}

/**
 * One set-based statement for the scans of one or several batches, of one or several
 * scanners (each row names its participation and user). It finds resent ids and badges already
 * leads, counts each team user's quota, inserts the new leads with the visitors' profiles (later
 * scans of a badge the statement makes a lead of are counted on the new row), records the later
 * scans and adds them to their leads' counts, and answers what it did per scan. `retry`: a
 * concurrent request stored the same id or badge between this statement's snapshot and its
 * insert; the statement is run again for those scans, which then see what the other stored.
 * A visitor who withdrew consent (`visitors.consent_withdrawn_at`) gives a new lead none of its
 * fields, only the withdrawal.
 *
 * Its cost grows with the number of scans, never with its square: what the database holds is
 * found per scan by index lookups, the scans' own logic (which scan makes a badge's lead, what its
 * later scans add, what a quota allows) by window functions over one pass, and what a step made is
 * looked up by key in one aggregated value. Steps are never joined to each other: the planner
 * cannot know their sizes, guesses one row, and a nested loop over two steps of 1,000 scans was a
 * million comparisons (a burst of scans).
 */
export function batchStatement(rows: StatementRow[], now: number) {
  return sql<ScanRow>`
    with input as (
      select s.idx, s.participation_id, s.user_id, s.event_id, s.limited, coalesce(s.locked, true) as locked, s.client_scan_id, s.badge_code,
        s.scanned_at, s.event_hour, s.lead_type, s.temperature, s.follow_up, coalesce(s.notes, '') as notes,
        coalesce(s.tag_answers, '{}'::jsonb) as tag_answers, coalesce(s.qualified, false) as qualified, coalesce(s.tags_ok, true) as tags_ok,
        s.search_folded, s.consent_source
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as s(
        idx int, participation_id int, user_id int, event_id int, limited boolean, locked boolean, client_scan_id text, badge_code text,
        scanned_at timestamptz, event_hour int, lead_type text, temperature text, follow_up text, notes text, tag_answers jsonb,
        qualified boolean, tags_ok boolean, search_folded text, consent_source text)
    ),
    stored as (
      select i.*, r.id as resent_id, r.badge_known as resent_known, r.visitor_name as resent_name, r.company as resent_company,
        k.id as known_id, k.badge_known as known_known, k.visitor_name as known_name, k.company as known_company,
        i.tags_ok and r.id is null as fresh
      from input i
      left join lateral (
        select l.id, l.badge_known, l.visitor_name, l.company from (
          select l.id, l.badge_known, l.visitor_name, l.company, 1 as pick from leads l
          where l.participation_id = i.participation_id and l.client_scan_id = i.client_scan_id
          union all
          select l.id, l.badge_known, l.visitor_name, l.company, 0 from lead_scans s join leads l on l.id = s.lead_id
          where s.participation_id = i.participation_id and s.client_scan_id = i.client_scan_id
        ) l order by l.pick limit 1
      ) r on true
      left join lateral (
        select l.id, l.badge_known, l.visitor_name, l.company from leads l
        where i.tags_ok and r.id is null and l.participation_id = i.participation_id and l.badge_code = i.badge_code
      ) k on true
    ),
    ranked as (
      select s.*,
        s.fresh and s.known_id is null and row_number() over badge = 1 as maker,
        count(*) over (badge rows between unbounded preceding and unbounded following) as same_badge,
        max(s.scanned_at) over (badge rows between 1 following and unbounded following) as later_at,
        (max(array[extract(epoch from s.scanned_at), s.user_id]) over (badge rows between 1 following and unbounded following))[2]::int as later_by
      from stored s
      window badge as (partition by s.fresh, s.participation_id, s.badge_code order by s.idx)
    ),
    quotas as (
      select coalesce(jsonb_object_agg(q.participation_id || ':' || q.user_id, jsonb_build_object('quota', u.lead_quota, 'used', coalesce(r.n, 0))), '{}'::jsonb) as by_scanner
      from (select distinct participation_id, user_id from input where limited) q
      join users u on u.id = q.user_id
      left join lateral (
        select sum(leads)::int as n from lead_rollup
        where participation_id = q.participation_id and dimension = 'user' and key = q.user_id::text and u.lead_quota is not null
      ) r on true
    ),
    scanned as (
      select r.*, (select by_scanner from quotas) -> (r.participation_id || ':' || r.user_id) as scanner from ranked r
    ),
    decided as (
      select s.*,
        s.maker and (s.scanner ->> 'quota' is null
          or s.locked and row_number() over (partition by s.maker, s.participation_id, s.user_id order by s.idx) <= (s.scanner ->> 'quota')::int - (s.scanner ->> 'used')::int) as allowed
      from scanned s
    ),
    inserted as (
      insert into leads (participation_id, client_scan_id, badge_code, visitor_id, badge_known, visitor_name, salutation, company,
        business_nature, job_title, country, mobile, email, phone, address, scanned_by, scanned_at, event_hour, lead_type,
        temperature, follow_up, notes, tag_answers, updated_at, updated_by, scan_count, last_scanned_at, last_scanned_by, search_folded, consent_source, consent_withdrawn_at)
      select a.participation_id, a.client_scan_id, a.badge_code, w.id, w.id is not null, coalesce(v.name, ''), coalesce(v.salutation, ''),
        coalesce(v.company, ''), coalesce(v.business_nature, ''), coalesce(v.job_title, ''), coalesce(v.country, ''),
        coalesce(v.mobile, ''), coalesce(v.email, ''), coalesce(v.phone, ''), coalesce(v.address, ''), a.user_id, a.scanned_at,
        a.event_hour, a.lead_type, a.temperature, a.follow_up, a.notes, a.tag_answers,
        case when a.qualified then ${new Date(now)}::timestamptz end, case when a.qualified then a.user_id end,
        a.same_badge, a.later_at, a.later_by, a.search_folded, coalesce(a.consent_source, 'badgeScan'), w.consent_withdrawn_at
      from decided a
      left join visitors w on w.event_id = a.event_id and w.badge_code = a.badge_code
      left join visitors v on v.id = w.id and w.consent_withdrawn_at is null
      where a.allowed
      order by a.idx
      on conflict do nothing
      returning id, participation_id, client_scan_id, badge_code, badge_known, visitor_name, company
    ),
    later as (
      select d.idx, d.participation_id, d.user_id, d.client_scan_id, d.scanned_at, coalesce(d.known_id, x.id) as lead_id
      from decided d left join inserted x on x.participation_id = d.participation_id and x.badge_code = d.badge_code
      where d.fresh and (d.known_id is not null or x.client_scan_id is distinct from d.client_scan_id)
    ),
    recorded as (
      insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
      select l.participation_id, l.lead_id, l.client_scan_id, l.user_id, l.scanned_at from later l where l.lead_id is not null order by l.idx
      on conflict (participation_id, client_scan_id) do nothing
      returning lead_id, participation_id, client_scan_id, scanned_by, scanned_at
    ),
    counted as (
      update leads set
        scan_count = leads.scan_count + c.n,
        last_scanned_by = case when leads.last_scanned_at is null or c.at >= leads.last_scanned_at then c.by else leads.last_scanned_by end,
        last_scanned_at = greatest(leads.last_scanned_at, c.at)
      from (
        select lead_id, count(*)::int as n, max(scanned_at) as at, (array_agg(scanned_by order by scanned_at desc, scanned_by desc))[1] as by
        from recorded group by lead_id
      ) c
      where leads.id = c.lead_id
      returning leads.id
    ),
    settled as (
      select d.*, x.id as made_id, x.client_scan_id as made_scan, x.badge_known as made_known, x.visitor_name as made_name, x.company as made_company,
        r.client_scan_id is not null as recorded_now, bool_or(d.allowed) over (partition by d.participation_id, d.badge_code) as badge_allowed
      from decided d
      left join inserted x on x.participation_id = d.participation_id and x.badge_code = d.badge_code
      left join recorded r on r.participation_id = d.participation_id and r.client_scan_id = d.client_scan_id
    )
    select d.idx,
      case
        when d.resent_id is not null then 'resend'
        when not d.tags_ok then 'tags'
        when d.made_scan = d.client_scan_id then 'created'
        when d.recorded_now then 'later'
        when d.fresh and d.known_id is null and d.scanner ->> 'quota' is not null and not d.locked then 'relock'
        when d.known_id is not null or d.made_id is not null or d.badge_allowed then 'retry'
        else 'quota'
      end as kind,
      coalesce(d.resent_id, d.known_id, d.made_id) as id,
      coalesce(d.resent_known, d.known_known, d.made_known) as badge_known,
      coalesce(d.resent_name, d.known_name, d.made_name) as visitor_name,
      coalesce(d.resent_company, d.known_company, d.made_company) as company,
      (d.scanner ->> 'quota')::int as quota,
      coalesce((d.scanner ->> 'used')::int, 0) as used
    from settled d`;
}

/**
 * The batch statement's text with its two parameters ($1 the scans, $2 the time), and the name it
 * is prepared under: a hash of the text, so a changed statement is never run under an old plan.
 */
const prepared = (() => {
  let made: { name: string; text: string } | undefined;
  return (db: Kysely<Database>) => {
    if (!made) {
      const text = batchStatement([], 0).compile(db).sql;
      made = { name: `lead_scan_batch_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text };
    }
    return made;
  };
})();

/**
 * Runs the batch statement as a prepared statement of the connection (PREPARE once per
 * connection, then EXECUTE). Planning the statement (ten steps, two inserts, an update, the
 * triggers' tables) cost about as much as running it for 100 scans (measured: 20–50 ms planning
 * for 40 ms execution on PostgreSQL): prepared, a connection plans it once. EXECUTE takes no bind
 * parameters, so the scans' JSON and the time go in as SQL string literals (quotes doubled, as
 * Kysely writes every literal; standard_conforming_strings is on in both engines).
 * Used on both databases: the embedded database's intake shares one statement among the batches
 * arriving together, yet a few batches a statement still paid its planning each time.
 */
async function runBatchStatement(db: Kysely<Database>, rows: StatementRow[], now: number, inTransaction: boolean) {
  const { name, text } = prepared(db);
  const prepareOn = (connection: Kysely<Database>) => sql.raw(`prepare ${name} (jsonb, timestamptz) as ${text}`).execute(connection);
  const execute = async (connection: Kysely<Database>) =>
    (await sql<ScanRow>`execute ${sql.raw(name)}(${sql.lit(JSON.stringify(rows))}, ${sql.lit(new Date(now).toISOString())})`.execute(connection)).rows;
  if (inTransaction) {
    // A failed EXECUTE would abort the transaction: ask the connection whether it has the statement.
    const known = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where name = ${name}`.execute(db);
    if (Number(known.rows[0]?.n ?? 0) === 0) await prepareOn(db);
    return execute(db);
  }
  // Alone, EXECUTE is tried first (one round trip per batch, the statement is prepared on all but a
  // connection's first): a connection without it answers "prepared statement does not exist" and
  // stored nothing; it is prepared there and run again, on the same connection.
  return retryTransient(() =>
    db.connection().execute(async (connection) => {
      try {
        return await execute(connection);
      } catch (error) {
        if ((error as { code?: string }).code !== UNKNOWN_PREPARED_STATEMENT) throw error;
        await prepareOn(connection);
        return execute(connection);
      }
    }),
  );
}

/** PostgreSQL's error code for an EXECUTE of a name the connection has not prepared (invalid_sql_statement_name). */
const UNKNOWN_PREPARED_STATEMENT = '26000';

/** The visitors (name, company, e-mail) of the given badges, by `eventId:badgeCode`. */
async function visitorsOf(db: Kysely<Database>, badges: Array<{ eventId: number; badgeCode: string }>) {
  const found = new Map<string, { name: string; company: string; email: string }>();
  const byEvent = new Map<number, Set<string>>();
  for (const { eventId, badgeCode } of badges) byEvent.set(eventId, (byEvent.get(eventId) ?? new Set()).add(badgeCode));
  for (const [eventId, codes] of byEvent) {
    const rows = await db
      .selectFrom('visitors')
      .select(['badge_code', 'name', 'company', 'email'])
      .where('event_id', '=', eventId)
      .where('badge_code', 'in', [...codes])
      .where('consent_withdrawn_at', 'is', null)
      .execute();
    for (const row of rows) found.set(`${eventId}:${row.badge_code}`, row);
  }
  return found;
}

/** Times a scan a concurrent request raced is looked at again before it is left unanswered. */
const RETRIES = 3;

/** One request's batch, checked and ready for the statement. */
interface PreparedBatch {
  scanner: Scanner;
  scans: ScanInput[];
  results: ScanResult[];
  /** Index of each id's first scan in the batch: a repeated id is that scan's resend. */
  firstIndex: Map<string, number>;
  /** The scans sent to the statement: valid times, each id once. */
  candidates: number[];
  /** Tag answers checked against the exhibitor's tags (null: not valid); only for scans carrying some. */
  tagAnswersOf: Map<number, Record<string, string[]> | null>;
  quota: number | null;
  used: number;
}

function prepareBatch(scanner: Scanner, scans: ScanInput[], now: number): PreparedBatch {
  const results: ScanResult[] = scans.map((scan) => ({ clientScanId: scan.clientScanId, status: 'invalid', leadId: null, badgeKnown: null, visitorName: null, company: null }));
  const firstIndex = new Map<string, number>();
  const candidates: number[] = [];
  scans.forEach((scan, index) => {
    const problem = checkScanTime(scan.scannedAt, now);
    if (problem) {
      results[index]!.problem = problem;
      return;
    }
    if (firstIndex.has(scan.clientScanId)) return; // resolved at the end from the first
    firstIndex.set(scan.clientScanId, index);
    candidates.push(index);
  });
  return { scanner, scans, results, firstIndex, candidates, tagAnswersOf: new Map(), quota: null, used: 0 };
}

const answer = (result: ScanResult, status: ScanStatus, lead: StoredLead | null, reason?: DuplicateReason) => {
  Object.assign(result, {
    status,
    leadId: lead?.id ?? null,
    badgeKnown: lead?.badge_known ?? null,
    visitorName: lead?.visitor_name ?? null,
    company: lead?.company ?? null,
    ...(reason ? { reason } : {}),
  });
};

/** A scan sent again with an id already answered: a resend of the stored scan, or the same refusal. */
function answerAsResendOf(result: ScanResult, original: ScanResult) {
  if (original.status === 'created' || original.status === 'duplicate') {
    Object.assign(result, { ...original, clientScanId: result.clientScanId, status: 'duplicate', reason: 'resend' });
  } else Object.assign(result, { ...original, clientScanId: result.clientScanId });
}

/** A scan of another batch of the same statement with the same participation and id: answered like it. */
interface Echo {
  batch: PreparedBatch;
  index: number;
  of: { batch: PreparedBatch; index: number };
}

/**
 * Runs the statement for the candidates of every batch (retrying what concurrent requests raced),
 * fills their results, and returns the scans recorded as later scans of a lead that carry a
 * qualification (batches that carry one run alone, in a transaction: see ingestScans).
 */
async function storeBatches(db: Kysely<Database>, batches: PreparedBatch[], now: number, inTransaction: boolean, locked = true) {
  // Scan ids are unique per participation: the same id in two batches of one statement (a resend
  // racing its original) is answered from the first.
  const owner = new Map<string, { batch: PreparedBatch; index: number }>();
  const echoes: Echo[] = [];
  const slots: Array<{ batch: PreparedBatch; index: number }> = [];
  for (const batch of batches) {
    for (const index of batch.candidates) {
      const key = `${batch.scanner.participationId}:${batch.scans[index]!.clientScanId}`;
      const first = owner.get(key);
      if (first) echoes.push({ batch, index, of: first });
      else {
        owner.set(key, { batch, index });
        slots.push({ batch, index });
      }
    }
  }
  // The keyword text is folded here, by the engine's fold (the database has no such function):
  // from the visitors of the batch's badges, read once before the statement that copies them.
  const visitors = await visitorsOf(
    db,
    slots.map(({ batch, index }) => ({ eventId: batch.scanner.eventId, badgeCode: batch.scans[index]!.badgeCode })),
  );
  // A row names only what the scan carries: the statement reads a field left out as its default
  // (no qualification, tags fine, locked, a badge scan), so a plain scan's row is half as long.
  const rowOf = (slot: number): StatementRow => {
    const { batch, index } = slots[slot]!;
    const scan = batch.scans[index]!;
    const tagAnswers = batch.tagAnswersOf.get(index);
    const visitor = visitors.get(`${batch.scanner.eventId}:${scan.badgeCode}`);
    const row: StatementRow = {
      idx: slot,
      participation_id: batch.scanner.participationId,
      user_id: batch.scanner.userId,
      event_id: batch.scanner.eventId,
      limited: batch.scanner.role === 'team_user',
      client_scan_id: scan.clientScanId,
      badge_code: scan.badgeCode,
      scanned_at: new Date(scan.scannedAt).toISOString(),
      event_hour: eventHour(scan.scannedAt, batch.scanner.offsetMinutes),
      search_folded: leadSearchText({ visitorName: visitor?.name ?? '', company: visitor?.company ?? '', email: visitor?.email ?? '', badgeCode: scan.badgeCode }),
    };
    if (!locked) row.locked = false;
    if (scan.source && scan.source !== 'badgeScan') row.consent_source = scan.source;
    if (tagAnswers === null) row.tags_ok = false;
    else if (tagAnswers && Object.keys(tagAnswers).length > 0) row.tag_answers = tagAnswers;
    if (carriesQualification(scan)) {
      row.qualified = true;
      if (scan.leadType) row.lead_type = scan.leadType;
      if (scan.temperature) row.temperature = scan.temperature;
      if (scan.followUp) row.follow_up = scan.followUp;
      const notes = scan.notes?.trim();
      if (notes) row.notes = notes;
    }
    return row;
  };

  const laterQualifying: Array<{ batch: PreparedBatch; index: number }> = [];
  const relock: Array<{ batch: PreparedBatch; index: number }> = [];
  let pending = slots.map((_, slot) => slot);
  for (let attempt = 0; pending.length > 0 && attempt < RETRIES; attempt++) {
    // Alone, the statement is its own transaction: one aborted for a deadlock stored nothing and
    // is run again. Inside a transaction, the whole transaction is (see ingestScans).
    const rows = await runBatchStatement(db, pending.map(rowOf), now, inTransaction);
    const retry: number[] = [];
    for (const row of rows) {
      const { batch, index } = slots[row.idx]!;
      if (attempt === 0) {
        batch.quota = row.quota;
        batch.used = Number(row.used);
      }
      const result = batch.results[index]!;
      const lead = row.id === null ? null : leadOf(row as StoredLead & { id: number | string });
      if (row.kind === 'resend') answer(result, 'duplicate', lead, 'resend');
      else if (row.kind === 'created') answer(result, 'created', lead);
      else if (row.kind === 'later') {
        answer(result, 'duplicate', lead, 'alreadyScanned');
        if (carriesQualification(batch.scans[index]!)) laterQualifying.push({ batch, index });
      } else if (row.kind === 'quota') answer(result, 'quotaNotEnough', null);
      else if (row.kind === 'tags') result.problem = 'tagAnswers';
      else if (row.kind === 'relock') relock.push({ batch, index });
      else retry.push(row.idx);
    }
    pending = retry;
  }
  // A team user's batch whose scans all were another batch's ids got no row to read its quota from.
  for (const batch of batches) {
    if (batch.scanner.role === 'team_user' && !slots.some((slot) => slot.batch === batch)) Object.assign(batch, await quotaOf(db, batch.scanner));
  }
  for (const { batch, index, of } of echoes) answerAsResendOf(batch.results[index]!, of.batch.results[of.index]!);
  return { laterQualifying, relock };
}

/** Qualifications carried by later scans just recorded (not by resends) join their leads'. */
async function mergeLaterQualifications(trx: Kysely<Database>, batch: PreparedBatch, indexes: number[], now: number) {
  const leadIds = [...new Set(indexes.map((i) => batch.results[i]!.leadId!))];
  const current = new Map(
    (await trx.selectFrom('leads').select(['id', 'lead_type', 'temperature', 'follow_up', 'notes', 'tag_answers']).where('id', 'in', leadIds).forUpdate().execute()).map((row) => [
      Number(row.id),
      { ...row, tag_answers: (row.tag_answers ?? {}) as Record<string, string[]> },
    ]),
  );
  for (const i of indexes) {
    const id = batch.results[i]!.leadId!;
    current.set(id, { ...current.get(id)!, ...mergedQualification(current.get(id)!, { ...batch.scans[i]!, tagAnswers: batch.tagAnswersOf.get(i) ?? {} }) });
  }
  for (const id of leadIds) {
    const lead = current.get(id)!;
    await trx
      .updateTable('leads')
      .set({
        lead_type: lead.lead_type,
        temperature: lead.temperature,
        follow_up: lead.follow_up,
        notes: lead.notes,
        tag_answers: JSON.stringify(lead.tag_answers),
        updated_at: new Date(now),
        updated_by: batch.scanner.userId,
      })
      .where('id', '=', id)
      .execute();
  }
}

/** A team user's quota and the leads it has made, for a batch with nothing to store. */
async function quotaOf(db: Kysely<Database>, scanner: Scanner) {
  const quota = (await db.selectFrom('users').select(['lead_quota']).where('id', '=', scanner.userId).executeTakeFirstOrThrow()).lead_quota;
  if (quota === null) return { quota, used: 0 };
  const row = await db
    .selectFrom('lead_rollup')
    .select(sql<number>`coalesce(sum(leads), 0)::int`.as('used'))
    .where('participation_id', '=', scanner.participationId)
    .where('dimension', '=', 'user')
    .where('key', '=', String(scanner.userId))
    .executeTakeFirst();
  return { quota, used: Number(row?.used ?? 0) };
}

/** The batch's answer: repeated ids answered like their first, counts, and the quota left. */
function outcomeOf(batch: PreparedBatch, createdBefore = 0): ScanOutcome {
  batch.scans.forEach((scan, index) => {
    const first = batch.firstIndex.get(scan.clientScanId);
    const result = batch.results[index]!;
    if (first === undefined || first === index || result.problem) return;
    answerAsResendOf(result, batch.results[first]!);
  });
  const count = (status: ScanStatus) => batch.results.filter((r) => r.status === status).length;
  const created = count('created');
  const quota = batch.scanner.role === 'team_user' ? batch.quota : null;
  return {
    results: batch.results,
    created,
    duplicates: count('duplicate'),
    refusedForQuota: count('quotaNotEnough'),
    invalid: count('invalid'),
    quota,
    remaining: quota === null ? null : Math.max(0, quota - batch.used - createdBefore - created),
  };
}

/** Whether a batch must run alone, in a transaction: it carries a qualification (stored whole or not at all). */
function needsTransaction(batch: PreparedBatch) {
  return batch.candidates.some((i) => carriesQualification(batch.scans[i]!));
}

/**
 * A batch carrying a qualification, or a team user's on a database with several connections, in
 * the shortest transaction that keeps the answers right: a team user's batches are serialised (its
 * row locked) so two devices cannot both use the last of its quota; a qualification is stored whole
 * or not at all, and merged into the leads later scans of it are recorded on.
 */
async function storeInTransaction(db: Kysely<Database>, batch: PreparedBatch, now: number) {
  await retryTransient(() =>
    db.transaction().execute(async (trx) => {
      if (batch.scanner.role === 'team_user') await trx.selectFrom('users').select(['id']).where('id', '=', batch.scanner.userId).forUpdate().execute();
      if (batch.candidates.some((i) => batch.scans[i]!.tagAnswers && Object.keys(batch.scans[i]!.tagAnswers!).length > 0)) {
        // Tag answers carried by scans must be choices of the exhibitor's tags (as when qualifying).
        const rows = await trx.selectFrom('custom_tags').select(['id', 'choices']).where('participation_id', '=', batch.scanner.participationId).execute();
        const tags = new Map(rows.map((row) => [String(row.id), Array.isArray(row.choices) ? (row.choices as string[]) : []]));
        for (const i of batch.candidates) batch.tagAnswersOf.set(i, checkedTagAnswers(batch.scans[i]!.tagAnswers, tags));
      }
      const { laterQualifying } = await storeBatches(trx, [batch], now, true);
      if (laterQualifying.length > 0)
        await mergeLaterQualifications(
          trx,
          batch,
          laterQualifying.map((s) => s.index),
          now,
        );
    }),
  );
}

/** LD1: one request's batch of scans, stored on its own. */
export function ingestScans(db: Kysely<Database>, scanner: Scanner, scans: ScanInput[], now = Date.now()): Promise<ScanOutcome> {
  return storeAlone(db, prepareBatch(scanner, scans, now), now);
}

async function storeAlone(db: Kysely<Database>, batch: PreparedBatch, now: number): Promise<ScanOutcome> {
  const { scanner } = batch;
  if (batch.candidates.length === 0) {
    if (scanner.role === 'team_user') Object.assign(batch, await quotaOf(db, scanner));
  } else if (needsTransaction(batch) || (scanner.role === 'team_user' && scanner.leadQuota !== null)) await storeInTransaction(db, batch, now);
  else {
    // A team user without a quota (as signed in) needs no lock: one statement, one round trip.
    // Had a quota been set meanwhile, the scans that would make leads come back `relock` (nothing
    // stored for them) and are stored again under the lock, as a team user's with a quota.
    const { relock } = await storeBatches(db, [batch], now, false, scanner.role !== 'team_user');
    if (relock.length > 0) {
      const locked = { ...batch, candidates: relock.map((slot) => slot.index) };
      await storeInTransaction(db, locked, now);
      Object.assign(batch, { quota: locked.quota, used: locked.used });
    }
  }
  return outcomeOf(batch);
}

/**
 * The scan intake of a database that runs one statement at a time (the embedded one).
 * There every request's statement waits for the one before, so fifty devices sending at once wait
 * fifty statements. The intake gathers the batches that arrive while a statement runs and stores
 * them together in the next one (each row names its scanner; on one connection one statement is
 * atomic, so a team user's quota needs no lock). Answers are the same as stored alone. A batch
 * carrying a qualification still runs alone, in its transaction. With several connections
 * (PostgreSQL, `oneStatementAtATime: false`) each request runs its own statement concurrently.
 */
/**
 * Scans one statement of the intake stores at most (whole batches; one batch may be larger): ten
 * batches of the app's usual 100. The statement's cost grows with its scans, and the batches
 * behind it wait for all of it: fifty batches go as five statements of ~100 ms rather than one of
 * ~500 ms, so the first answers leave sooner at the same total work.
 */
const GROUP_SCANS = 1000;

/** Turns of the event loop the intake waits at most for more batches before a statement. */
const GATHER_TURNS = 20;

export interface ScanIntakeOptions {
  /** The database runs one statement at a time (the embedded one): the premise of sharing a statement, and of a team user's quota needing no lock. */
  oneStatementAtATime: boolean;
  /** Scans one statement stores at most (GROUP_SCANS). */
  maxScans?: number;
}

export function scanIntake(db: Kysely<Database>, options: ScanIntakeOptions) {
  const maxScans = options.maxScans ?? GROUP_SCANS;
  let waiting: Array<{ batch: PreparedBatch; now: number; done: (outcome: ScanOutcome) => void; failed: (error: unknown) => void }> = [];
  let running = false;

  // Requests that arrive together reach the intake over a few turns of the event loop (socket
  // read, body, hooks), and none while a statement runs (the embedded database runs in this
  // thread). So before each statement the intake lets the loop turn until no batch joined for two
  // turns (at most GATHER_TURNS): a turn with nothing to read takes microseconds.
  const gather = () =>
    new Promise<void>((resolve) => {
      let seen = waiting.length;
      let quiet = 0;
      let turns = 0;
      const turn = () => {
        quiet = waiting.length === seen ? quiet + 1 : 0;
        seen = waiting.length;
        if (quiet >= 2 || ++turns >= GATHER_TURNS) resolve();
        else setImmediate(turn);
      };
      setImmediate(turn);
    });

  const drain = async () => {
    running = true;
    try {
      while ((await gather(), waiting.length > 0)) {
        // The batches waiting, oldest first, up to maxScans scans (at least one batch).
        let size = 0;
        let take = 0;
        while (take < waiting.length && (take === 0 || size + waiting[take]!.batch.candidates.length <= maxScans)) size += waiting[take++]!.batch.candidates.length;
        const group = waiting.slice(0, take);
        waiting = waiting.slice(take);
        const now = Math.max(...group.map((entry) => entry.now));
        try {
          await storeBatches(
            db,
            group.map((entry) => entry.batch),
            now,
            false,
          );
        } catch (error) {
          if (group.length === 1) {
            group[0]!.failed(error);
            continue;
          }
          // One batch's failure must not fail the others: each is stored alone.
          for (const entry of group) {
            ingestScans(db, entry.batch.scanner, entry.batch.scans, entry.now).then(entry.done, entry.failed);
          }
          continue;
        }
        // A team user's quota left counts the leads its earlier batches of the statement made.
        const createdBy = new Map<string, number>();
        for (const entry of group) {
          const key = `${entry.batch.scanner.participationId}:${entry.batch.scanner.userId}`;
          const outcome = outcomeOf(entry.batch, createdBy.get(key) ?? 0);
          createdBy.set(key, (createdBy.get(key) ?? 0) + outcome.created);
          entry.done(outcome);
        }
      }
    } finally {
      running = false;
    }
  };

  return {
    ingest(scanner: Scanner, scans: ScanInput[], now = Date.now()): Promise<ScanOutcome> {
      const batch = prepareBatch(scanner, scans, now);
      if (!options.oneStatementAtATime || batch.candidates.length === 0 || needsTransaction(batch)) return storeAlone(db, batch, now);
      return new Promise((done, failed) => {
        waiting.push({ batch, now, done, failed });
        if (!running) void drain();
      });
    },
  };
}
