import { sql, type Kysely } from 'kysely';
import { eventHour } from '../../../engine/leads';
import { checkScanTime, type ScanTimeProblem } from '../../../engine/leads-rules';
import type { Database } from '../../db/schema';

// LD1: the scanning app sends scans one by one or as its offline queue (a batch). Each scan has
// the app's own id; a resend of the same id never makes a second lead, and a second scan of a
// badge that already is a lead of the exhibitor (by anyone of it) is recorded against that lead
// (lead_scans: count, last seen, who) instead of making a second one. Per batch the database
// sees a constant number of statements whatever its size: lock the scanner, find the ids already
// stored, find the badges already leads, count the quota, look the badges up, one multi-row
// insert of leads, one of later scans, one update of their leads (plus one per lead whose later
// scan carries a qualification).

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

  return db.transaction().execute(async (trx) => {
    // Serialises one scanner's batches, so two devices of one team user cannot both use the last
    // of its quota.
    const user = await trx.selectFrom('users').select(['lead_quota']).where('id', '=', scanner.userId).forUpdate().executeTakeFirstOrThrow();
    const quota = scanner.role === 'team_user' ? user.lead_quota : null;

    // Scans whose id is already stored (earlier sends): as a lead's first scan or a later one.
    const resent = new Map<string, StoredLead>();
    const findResent = async (ids: string[]) => {
      if (ids.length === 0) return;
      const firsts = await trx
        .selectFrom('leads')
        .select(['id', 'client_scan_id', 'badge_known', 'visitor_name', 'company'])
        .where('participation_id', '=', scanner.participationId)
        .where('client_scan_id', 'in', ids)
        .execute();
      for (const row of firsts) resent.set(row.client_scan_id, leadOf(row));
      const laters = await trx
        .selectFrom('lead_scans')
        .innerJoin('leads', 'leads.id', 'lead_scans.lead_id')
        .select(['leads.id', 'lead_scans.client_scan_id', 'leads.badge_known', 'leads.visitor_name', 'leads.company'])
        .where('lead_scans.participation_id', '=', scanner.participationId)
        .where('lead_scans.client_scan_id', 'in', ids)
        .execute();
      for (const row of laters) resent.set(row.client_scan_id, leadOf(row));
    };
    // Badges that already are leads of the exhibitor, whoever scanned them.
    const byBadge = new Map<string, StoredLead>();
    const findBadges = async (codes: string[]) => {
      if (codes.length === 0) return;
      const rows = await trx
        .selectFrom('leads')
        .select(['id', 'badge_code', 'badge_known', 'visitor_name', 'company'])
        .where('participation_id', '=', scanner.participationId)
        .where('badge_code', 'in', codes)
        .execute();
      for (const row of rows) byBadge.set(row.badge_code, leadOf(row));
    };

    await findResent(candidates.map((i) => scans[i]!.clientScanId));
    for (const i of candidates) {
      const stored = resent.get(scans[i]!.clientScanId);
      if (stored) answer(i, 'duplicate', stored, 'resend');
    }
    const fresh = candidates.filter((i) => !resent.has(scans[i]!.clientScanId));
    // Tag answers carried by scans must be choices of the exhibitor's tags (as when qualifying).
    const tagAnswersOf = new Map<number, Record<string, string[]>>();
    if (fresh.some((i) => scans[i]!.tagAnswers && Object.keys(scans[i]!.tagAnswers!).length > 0)) {
      const rows = await trx.selectFrom('custom_tags').select(['id', 'choices']).where('participation_id', '=', scanner.participationId).execute();
      const tags = new Map(rows.map((row) => [String(row.id), Array.isArray(row.choices) ? (row.choices as string[]) : []]));
      for (const i of [...fresh]) {
        const checked = checkedTagAnswers(scans[i]!.tagAnswers, tags);
        if (checked) tagAnswersOf.set(i, checked);
        else {
          results[i]!.problem = 'tagAnswers';
          fresh.splice(fresh.indexOf(i), 1);
        }
      }
    }

    await findBadges([...new Set(fresh.map((i) => scans[i]!.badgeCode))]);

    // The first scan of each badge that is not a lead yet would make one; the quota decides.
    const makers: number[] = [];
    const seenBadges = new Set<string>();
    for (const i of fresh) {
      const code = scans[i]!.badgeCode;
      if (byBadge.has(code) || seenBadges.has(code)) continue;
      seenBadges.add(code);
      makers.push(i);
    }
    let allowed = makers;
    let used = 0;
    if (quota !== null) {
      const row = await trx
        .selectFrom('lead_rollup')
        .select(sql<number>`coalesce(sum(leads), 0)::int`.as('used'))
        .where('participation_id', '=', scanner.participationId)
        .where('dimension', '=', 'user')
        .where('key', '=', String(scanner.userId))
        .executeTakeFirst();
      used = Number(row?.used ?? 0);
      allowed = makers.slice(0, Math.max(0, quota - used));
    }
    const refusedBadges = new Set(makers.filter((i) => !allowed.includes(i)).map((i) => scans[i]!.badgeCode));

    const codes = [...new Set(allowed.map((i) => scans[i]!.badgeCode))];
    const visitors = new Map<
      string,
      {
        id: number;
        name: string;
        salutation: string;
        company: string;
        business_nature: string;
        job_title: string;
        country: string;
        mobile: string;
        email: string;
        phone: string;
        address: string;
      }
    >();
    if (codes.length > 0) {
      const rows = await trx
        .selectFrom('visitors')
        .select(['id', 'badge_code', 'name', 'salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'])
        .where('event_id', '=', scanner.eventId)
        .where('badge_code', 'in', codes)
        .execute();
      for (const { badge_code, ...visitor } of rows) visitors.set(badge_code, visitor);
    }

    const createdBy = new Set<number>();
    if (allowed.length > 0) {
      const values = allowed.map((i) => {
        const scan = scans[i]!;
        const visitor = visitors.get(scan.badgeCode);
        return {
          participation_id: scanner.participationId,
          client_scan_id: scan.clientScanId,
          badge_code: scan.badgeCode,
          visitor_id: visitor?.id ?? null,
          badge_known: visitor !== undefined,
          visitor_name: visitor?.name ?? '',
          salutation: visitor?.salutation ?? '',
          company: visitor?.company ?? '',
          business_nature: visitor?.business_nature ?? '',
          job_title: visitor?.job_title ?? '',
          country: visitor?.country ?? '',
          mobile: visitor?.mobile ?? '',
          email: visitor?.email ?? '',
          phone: visitor?.phone ?? '',
          address: visitor?.address ?? '',
          scanned_by: scanner.userId,
          scanned_at: new Date(scan.scannedAt),
          event_hour: eventHour(scan.scannedAt, scanner.offsetMinutes),
          lead_type: scan.leadType ?? null,
          temperature: scan.temperature ?? null,
          follow_up: scan.followUp ?? null,
          notes: scan.notes?.trim() ?? '',
          tag_answers: JSON.stringify(tagAnswersOf.get(i) ?? {}),
          ...(carriesQualification(scan) ? { updated_at: new Date(now), updated_by: scanner.userId } : {}),
        };
      });
      // Either uniqueness (a resend, or the same badge stored meanwhile by a colleague) skips a row.
      const inserted = await trx
        .insertInto('leads')
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .returning(['id', 'client_scan_id', 'badge_code', 'badge_known', 'visitor_name', 'company'])
        .execute();
      const madeBy = new Map(allowed.map((i) => [scans[i]!.clientScanId, i]));
      for (const row of inserted) {
        const index = madeBy.get(row.client_scan_id)!;
        createdBy.add(index);
        byBadge.set(row.badge_code, leadOf(row));
        answer(index, 'created', leadOf(row));
      }
      // Skipped by a concurrent request between our look-ups and the insert: find what it stored.
      const skipped = allowed.filter((i) => !createdBy.has(i));
      await findResent(skipped.map((i) => scans[i]!.clientScanId));
      await findBadges(skipped.filter((i) => !resent.has(scans[i]!.clientScanId)).map((i) => scans[i]!.badgeCode));
    }

    // Every other fresh scan of a badge that is a lead now is a later scan of that lead.
    const later: number[] = [];
    for (const i of fresh) {
      if (createdBy.has(i)) continue;
      const scan = scans[i]!;
      const stored = resent.get(scan.clientScanId);
      if (stored) answer(i, 'duplicate', stored, 'resend');
      else if (byBadge.has(scan.badgeCode)) later.push(i);
      else if (refusedBadges.has(scan.badgeCode)) answer(i, 'quotaNotEnough', null);
    }
    if (later.length > 0) {
      const recorded = await trx
        .insertInto('lead_scans')
        .values(
          later.map((i) => ({
            participation_id: scanner.participationId,
            lead_id: byBadge.get(scans[i]!.badgeCode)!.id,
            client_scan_id: scans[i]!.clientScanId,
            scanned_by: scanner.userId,
            scanned_at: new Date(scans[i]!.scannedAt),
          })),
        )
        .onConflict((oc) => oc.columns(['participation_id', 'client_scan_id']).doNothing())
        .returning(['lead_id', 'scanned_at', 'client_scan_id'])
        .execute();
      // Qualifications carried by the later scans just recorded (not by resends) join the lead's.
      const recordedIds = new Set(recorded.map((row) => row.client_scan_id));
      const qualifying = later.filter((i) => recordedIds.has(scans[i]!.clientScanId) && carriesQualification(scans[i]!));
      if (qualifying.length > 0) {
        const leadIds = [...new Set(qualifying.map((i) => byBadge.get(scans[i]!.badgeCode)!.id))];
        const current = new Map(
          (await trx.selectFrom('leads').select(['id', 'lead_type', 'temperature', 'follow_up', 'notes', 'tag_answers']).where('id', 'in', leadIds).execute()).map((row) => [
            Number(row.id),
            { ...row, tag_answers: (row.tag_answers ?? {}) as Record<string, string[]> },
          ]),
        );
        for (const i of qualifying) {
          const id = byBadge.get(scans[i]!.badgeCode)!.id;
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
      for (const i of later) answer(i, 'duplicate', byBadge.get(scans[i]!.badgeCode)!, 'alreadyScanned');
      // Count, last seen and who on each lead: one statement for the batch.
      const perLead = new Map<number, { n: number; at: Date }>();
      for (const row of recorded) {
        const id = Number(row.lead_id);
        const at = new Date(row.scanned_at);
        const entry = perLead.get(id);
        if (!entry) perLead.set(id, { n: 1, at });
        else {
          entry.n += 1;
          if (at > entry.at) entry.at = at;
        }
      }
      if (perLead.size > 0) {
        const rows = sql.join([...perLead].map(([id, { n, at }]) => sql`(${id}::bigint, ${n}::int, ${at}::timestamptz)`));
        await sql`
          update leads set
            scan_count = leads.scan_count + v.n,
            last_scanned_by = case when leads.last_scanned_at is null or v.at >= leads.last_scanned_at then ${scanner.userId}::int else leads.last_scanned_by end,
            last_scanned_at = greatest(leads.last_scanned_at, v.at)
          from (values ${rows}) as v(id, n, at)
          where leads.id = v.id and leads.participation_id = ${scanner.participationId}`.execute(trx);
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
  });
}
