import { retryTransient } from '../../db/transient';
import { sql, type Kysely } from 'kysely';
import { eventHour } from '../../../engine/leads';
import { checkScanTime, type ScanTimeProblem } from '../../../engine/leads-rules';
import type { Database } from '../../db/schema';

// LD1: the scanning app sends scans one by one or as its offline queue (a batch). Each scan has
// the app's own id; a resend of the same id never makes a second lead, and a second scan of a
// badge that already is a lead of the exhibitor (by anyone of it) is recorded against that lead
// (lead_scans: count, last seen, who) instead of making a second one. Issue 15: a batch is one
// set-based statement (batchStatement) — one round trip, whatever its size — inside a
// transaction only where the answer needs one (a team user's quota, a qualification merged).

/** A qualification the app may capture with the scan (qualify offline, one round trip). */
export interface ScanQualification {
  leadType?: string;
  temperature?: string;
  followUp?: string;
  notes?: string;
  tagAnswers?: Record<string, string[]>;
}

export interface ScanInput extends ScanQualification {
  clientScanId: string;
  badgeCode: string;
  scannedAt: string;
}

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

export type ScanStatus = 'created' | 'duplicate' | 'quotaNotEnough' | 'invalid';
/** Why a scan answered `duplicate`: its id was stored before, or its badge already is a lead. */
export type DuplicateReason = 'resend' | 'alreadyScanned';

export interface ScanResult {
  clientScanId: string;
  status: ScanStatus;
  /** The lead (new or already stored); null when the scan was not stored. */
  leadId: number | null;
  /** Whether the badge code matched a visitor of the event; null when not stored. */
  badgeKnown: boolean | null;
  visitorName: string | null;
  company: string | null;
  /** Only for `duplicate`. */
  reason?: DuplicateReason;
  /** Why an invalid scan was refused. */
  problem?: ScanTimeProblem | 'tagAnswers';
}

export interface Scanner {
  userId: number;
  role: string;
  participationId: number;
  eventId: number;
  offsetMinutes: number;
}

export interface ScanOutcome {
  results: ScanResult[];
  created: number;
  duplicates: number;
  refusedForQuota: number;
  invalid: number;
  /** The scanner's quota and what is left after this batch (null = no limit). */
  quota: number | null;
  remaining: number | null;
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

/** What the batch statement decided for one scan. */
type ScanKind = 'resend' | 'tags' | 'created' | 'later' | 'quota' | 'retry';

interface ScanRow {
  idx: number;
  kind: ScanKind;
  id: number | string | null;
  badge_known: boolean | null;
  visitor_name: string | null;
  company: string | null;
  used: number | null;
}

/**
 * Issue 15: one set-based statement for a batch. It finds resent ids and badges already leads,
 * counts the quota, inserts the new leads with the visitors' profiles (a later scan of a badge
 * this batch makes a lead of is counted on the new row), records the later scans and adds them
 * to their leads' counts, and answers what it did per scan. `retry`: a concurrent request stored
 * the same id or badge between this statement's snapshot and its insert; the statement is run
 * again for those scans, which then see what the other stored.
 */
function batchStatement(scanner: Scanner, quota: number | null, scans: object[], now: number) {
  const p = sql`${scanner.participationId}::int`;
  const u = sql`${scanner.userId}::int`;
  return sql<ScanRow>`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(scans)}::jsonb) as s(
        idx int, client_scan_id text, badge_code text, scanned_at timestamptz, event_hour int, lead_type text,
        temperature text, follow_up text, notes text, tag_answers jsonb, qualified boolean, tags_ok boolean)
    ),
    resent as (
      select distinct on (i.idx) i.idx, l.id, l.badge_known, l.visitor_name, l.company
      from input i
      join lateral (
        select l.id, l.badge_known, l.visitor_name, l.company, 1 as pick from leads l where l.participation_id = ${p} and l.client_scan_id = i.client_scan_id
        union all
        select l.id, l.badge_known, l.visitor_name, l.company, 0 from lead_scans s join leads l on l.id = s.lead_id
        where s.participation_id = ${p} and s.client_scan_id = i.client_scan_id
      ) l on true
      order by i.idx, l.pick
    ),
    fresh as (select i.* from input i where i.tags_ok and not exists (select 1 from resent r where r.idx = i.idx)),
    known as (
      select l.id, l.badge_code, l.badge_known, l.visitor_name, l.company from leads l
      where l.participation_id = ${p} and l.badge_code in (select f.badge_code from fresh f)
    ),
    makers as (
      select distinct on (f.badge_code) f.* from fresh f
      where not exists (select 1 from known k where k.badge_code = f.badge_code)
      order by f.badge_code, f.idx
    ),
    used as (
      select coalesce(sum(leads), 0)::int as n from lead_rollup
      where participation_id = ${p} and dimension = 'user' and key = ${String(scanner.userId)} and ${quota}::int is not null
    ),
    allowed as (
      select m.* from (select m.*, row_number() over (order by m.idx) as rank from makers m) m
      where ${quota}::int is null or m.rank <= ${quota}::int - (select n from used)
    ),
    extra as (
      select a.badge_code, count(*)::int as n, max(f.scanned_at) as at
      from allowed a join fresh f on f.badge_code = a.badge_code and f.idx <> a.idx
      group by a.badge_code
    ),
    inserted as (
      insert into leads (participation_id, client_scan_id, badge_code, visitor_id, badge_known, visitor_name, salutation, company,
        business_nature, job_title, country, mobile, email, phone, address, scanned_by, scanned_at, event_hour, lead_type,
        temperature, follow_up, notes, tag_answers, updated_at, updated_by, scan_count, last_scanned_at, last_scanned_by)
      select ${p}, a.client_scan_id, a.badge_code, v.id, v.id is not null, coalesce(v.name, ''), coalesce(v.salutation, ''),
        coalesce(v.company, ''), coalesce(v.business_nature, ''), coalesce(v.job_title, ''), coalesce(v.country, ''),
        coalesce(v.mobile, ''), coalesce(v.email, ''), coalesce(v.phone, ''), coalesce(v.address, ''), ${u}, a.scanned_at,
        a.event_hour, a.lead_type, a.temperature, a.follow_up, a.notes, a.tag_answers,
        case when a.qualified then ${new Date(now)}::timestamptz end, case when a.qualified then ${u} end,
        1 + coalesce(e.n, 0), e.at, case when e.n is not null then ${u} end
      from allowed a
      left join visitors v on v.event_id = ${scanner.eventId}::int and v.badge_code = a.badge_code
      left join extra e on e.badge_code = a.badge_code
      order by a.idx
      on conflict do nothing
      returning id, client_scan_id, badge_code, badge_known, visitor_name, company
    ),
    lead_of as (
      select id, badge_code, badge_known, visitor_name, company from known
      union all
      select id, badge_code, badge_known, visitor_name, company from inserted
    ),
    later as (
      select f.idx, f.client_scan_id, f.scanned_at, lo.id as lead_id
      from fresh f join lead_of lo on lo.badge_code = f.badge_code
      where not exists (select 1 from inserted x where x.client_scan_id = f.client_scan_id)
    ),
    recorded as (
      insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
      select ${p}, lead_id, client_scan_id, ${u}, scanned_at from later order by idx
      on conflict (participation_id, client_scan_id) do nothing
      returning lead_id, client_scan_id, scanned_at
    ),
    counted as (
      update leads set
        scan_count = leads.scan_count + c.n,
        last_scanned_by = case when leads.last_scanned_at is null or c.at >= leads.last_scanned_at then ${u} else leads.last_scanned_by end,
        last_scanned_at = greatest(leads.last_scanned_at, c.at)
      from (select lead_id, count(*)::int as n, max(scanned_at) as at from recorded group by lead_id) c
      where leads.id = c.lead_id and leads.participation_id = ${p}
      returning leads.id
    )
    select i.idx,
      case
        when r.idx is not null then 'resend'
        when not i.tags_ok then 'tags'
        when ins.id is not null then 'created'
        when rec.client_scan_id is not null then 'later'
        when lo.id is not null or exists (select 1 from allowed a where a.badge_code = i.badge_code) then 'retry'
        else 'quota'
      end as kind,
      coalesce(r.id, ins.id, lo.id) as id,
      coalesce(r.badge_known, ins.badge_known, lo.badge_known) as badge_known,
      coalesce(r.visitor_name, ins.visitor_name, lo.visitor_name) as visitor_name,
      coalesce(r.company, ins.company, lo.company) as company,
      (select n from used) as used
    from input i
    left join resent r on r.idx = i.idx
    left join inserted ins on ins.client_scan_id = i.client_scan_id
    left join recorded rec on rec.client_scan_id = i.client_scan_id
    left join lead_of lo on lo.badge_code = i.badge_code
    order by i.idx`;
}

/** Times a scan a concurrent request raced is looked at again before it is left unanswered. */
const RETRIES = 3;

export async function ingestScans(db: Kysely<Database>, scanner: Scanner, scans: ScanInput[], now = Date.now()): Promise<ScanOutcome> {
  const results: ScanResult[] = scans.map((scan) => ({ clientScanId: scan.clientScanId, status: 'invalid', leadId: null, badgeKnown: null, visitorName: null, company: null }));
  // Invalid times are answered per scan; a repeated id inside the batch is that scan's resend.
  const firstIndex = new Map<string, number>();
  const candidates: number[] = [];
  scans.forEach((scan, index) => {
    const problem = checkScanTime(scan.scannedAt, now);
    if (problem) {
      results[index]!.problem = problem;
      return;
    }
    if (firstIndex.has(scan.clientScanId)) return; // resolved below from the first
    firstIndex.set(scan.clientScanId, index);
    candidates.push(index);
  });
  const answer = (index: number, status: ScanStatus, lead: StoredLead | null, reason?: DuplicateReason) => {
    Object.assign(results[index]!, {
      status,
      leadId: lead?.id ?? null,
      badgeKnown: lead?.badge_known ?? null,
      visitorName: lead?.visitor_name ?? null,
      company: lead?.company ?? null,
      ...(reason ? { reason } : {}),
    });
  };

  const run = async (trx: Kysely<Database>, quota: number | null) => {
    // Tag answers carried by scans must be choices of the exhibitor's tags (as when qualifying).
    const tagAnswersOf = new Map<number, Record<string, string[]> | null>();
    if (candidates.some((i) => scans[i]!.tagAnswers && Object.keys(scans[i]!.tagAnswers!).length > 0)) {
      const rows = await trx.selectFrom('custom_tags').select(['id', 'choices']).where('participation_id', '=', scanner.participationId).execute();
      const tags = new Map(rows.map((row) => [String(row.id), Array.isArray(row.choices) ? (row.choices as string[]) : []]));
      for (const i of candidates) tagAnswersOf.set(i, checkedTagAnswers(scans[i]!.tagAnswers, tags));
    }
    const rowOf = (i: number) => {
      const scan = scans[i]!;
      return {
        idx: i,
        client_scan_id: scan.clientScanId,
        badge_code: scan.badgeCode,
        scanned_at: new Date(scan.scannedAt).toISOString(),
        event_hour: eventHour(scan.scannedAt, scanner.offsetMinutes),
        lead_type: scan.leadType ?? null,
        temperature: scan.temperature ?? null,
        follow_up: scan.followUp ?? null,
        notes: scan.notes?.trim() ?? '',
        tag_answers: tagAnswersOf.get(i) ?? {},
        qualified: carriesQualification(scan),
        tags_ok: tagAnswersOf.get(i) !== null,
      };
    };

    let used = 0;
    const laterQualifying: number[] = [];
    let pending = candidates;
    for (let attempt = 0; pending.length > 0 && attempt < RETRIES; attempt++) {
      const statement = batchStatement(scanner, quota, pending.map(rowOf), now);
      // Alone, the statement is its own transaction: one aborted for a deadlock stored nothing and
      // is run again. Inside a transaction, the whole transaction is (below).
      const rows = (trx === db ? await retryTransient(() => statement.execute(trx)) : await statement.execute(trx)).rows;
      if (attempt === 0) used = Number(rows[0]?.used ?? 0);
      const retry: number[] = [];
      for (const row of rows) {
        const i = row.idx;
        const lead = row.id === null ? null : leadOf(row as StoredLead & { id: number | string });
        if (row.kind === 'resend') answer(i, 'duplicate', lead, 'resend');
        else if (row.kind === 'created') answer(i, 'created', lead);
        else if (row.kind === 'later') {
          answer(i, 'duplicate', lead, 'alreadyScanned');
          if (carriesQualification(scans[i]!)) laterQualifying.push(i);
        } else if (row.kind === 'quota') answer(i, 'quotaNotEnough', null);
        else if (row.kind === 'tags') results[i]!.problem = 'tagAnswers';
        else retry.push(i);
      }
      pending = retry;
    }

    // Qualifications carried by later scans just recorded (not by resends) join their leads'.
    if (laterQualifying.length > 0) {
      const leadIds = [...new Set(laterQualifying.map((i) => results[i]!.leadId!))];
      const current = new Map(
        (await trx.selectFrom('leads').select(['id', 'lead_type', 'temperature', 'follow_up', 'notes', 'tag_answers']).where('id', 'in', leadIds).forUpdate().execute()).map(
          (row) => [Number(row.id), { ...row, tag_answers: (row.tag_answers ?? {}) as Record<string, string[]> }],
        ),
      );
      for (const i of laterQualifying) {
        const id = results[i]!.leadId!;
        current.set(id, { ...current.get(id)!, ...mergedQualification(current.get(id)!, { ...scans[i]!, tagAnswers: tagAnswersOf.get(i) ?? {} }) });
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
            updated_by: scanner.userId,
          })
          .where('id', '=', id)
          .execute();
      }
    }
    return used;
  };

  // The shortest transaction that keeps the answers right: a team user's batches are serialised
  // (its row locked) so two devices cannot both use the last of its quota; a batch carrying a
  // qualification is stored whole or not at all. Anything else is the one statement alone.
  let quota: number | null = null;
  let used = 0;
  const needsTransaction = scanner.role === 'team_user' || candidates.some((i) => carriesQualification(scans[i]!));
  if (candidates.length > 0 && needsTransaction) {
    await retryTransient(() =>
      db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['lead_quota']).where('id', '=', scanner.userId).forUpdate().executeTakeFirstOrThrow();
        quota = scanner.role === 'team_user' ? user.lead_quota : null;
        used = await run(trx, quota);
      }),
    );
  } else if (candidates.length > 0) used = await run(db, null);
  else if (scanner.role === 'team_user') {
    quota = (await db.selectFrom('users').select(['lead_quota']).where('id', '=', scanner.userId).executeTakeFirstOrThrow()).lead_quota;
    if (quota !== null) {
      const row = await db
        .selectFrom('lead_rollup')
        .select(sql<number>`coalesce(sum(leads), 0)::int`.as('used'))
        .where('participation_id', '=', scanner.participationId)
        .where('dimension', '=', 'user')
        .where('key', '=', String(scanner.userId))
        .executeTakeFirst();
      used = Number(row?.used ?? 0);
    }
  }

  // A repeated id inside the batch answers like its first occurrence (a resend of it).
  scans.forEach((scan, index) => {
    const first = firstIndex.get(scan.clientScanId);
    const result = results[index]!;
    if (first === undefined || first === index || result.problem) return;
    const original = results[first]!;
    if (original.status === 'created' || original.status === 'duplicate') {
      Object.assign(result, { ...original, clientScanId: scan.clientScanId, status: 'duplicate', reason: 'resend' });
    } else Object.assign(result, { ...original, clientScanId: scan.clientScanId });
  });

  const count = (status: ScanStatus) => results.filter((r) => r.status === status).length;
  const created = count('created');
  return {
    results,
    created,
    duplicates: count('duplicate'),
    refusedForQuota: count('quotaNotEnough'),
    invalid: count('invalid'),
    quota,
    remaining: quota === null ? null : Math.max(0, quota - used - created),
  };
}
