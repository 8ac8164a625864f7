import { sql, type Kysely } from 'kysely';
import { eventHour } from '../../../engine/leads';
import { checkScanTime, type ScanTimeProblem } from '../../../engine/leads-rules';
import type { Database } from '../../db/schema';

// LD1: the scanning app sends scans one by one or as its offline queue (a batch). Each scan has
// the app's own id; a resend of the same id never makes a second lead. Per batch the database
// sees a constant number of statements whatever its size: lock the scanner, count its quota,
// find the ids already stored, look the badges up, one multi-row insert.

export interface ScanInput {
  clientScanId: string;
  badgeCode: string;
  scannedAt: string;
}

export type ScanStatus = 'created' | 'duplicate' | 'quotaNotEnough' | 'invalid';

export interface ScanResult {
  clientScanId: string;
  status: ScanStatus;
  /** The lead (new or already stored); null when the scan was not stored. */
  leadId: number | null;
  /** Whether the badge code matched a visitor of the event; null when not stored. */
  badgeKnown: boolean | null;
  visitorName: string | null;
  company: string | null;
  /** Why an invalid scan was refused. */
  problem?: ScanTimeProblem;
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
    if (firstIndex.has(scan.clientScanId)) return; // resolved below as a duplicate of the first
    firstIndex.set(scan.clientScanId, index);
    candidates.push(index);
  });

  return db.transaction().execute(async (trx) => {
    // Serialises one scanner's batches, so two devices of one team user cannot both use the last
    // of its quota.
    const user = await trx.selectFrom('users').select(['lead_quota']).where('id', '=', scanner.userId).forUpdate().executeTakeFirstOrThrow();
    const quota = scanner.role === 'team_user' ? user.lead_quota : null;

    // The scans of these ids already stored (earlier sends), added to `existing`.
    const existing = new Map<string, { id: number; badge_known: boolean; visitor_name: string; company: string }>();
    const findStored = async (ids: string[]) => {
      if (ids.length === 0) return;
      const rows = await trx
        .selectFrom('leads')
        .select(['id', 'client_scan_id', 'badge_known', 'visitor_name', 'company'])
        .where('participation_id', '=', scanner.participationId)
        .where('client_scan_id', 'in', ids)
        .execute();
      for (const row of rows) existing.set(row.client_scan_id, { ...row, id: Number(row.id) });
    };
    await findStored(candidates.map((i) => scans[i]!.clientScanId));
    const fresh = candidates.filter((i) => !existing.has(scans[i]!.clientScanId));

    let allowed = fresh;
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
      allowed = fresh.slice(0, Math.max(0, quota - used));
    }
    const allowedSet = new Set(allowed);
    for (const i of fresh) if (!allowedSet.has(i)) results[i]!.status = 'quotaNotEnough';

    const codes = [...new Set(allowed.map((i) => scans[i]!.badgeCode))];
    const visitors = new Map<string, { id: number; name: string; salutation: string; company: string; business_nature: string; job_title: string; country: string; mobile: string; email: string; phone: string; address: string }>();
    if (codes.length > 0) {
      const rows = await trx
        .selectFrom('visitors')
        .select(['id', 'badge_code', 'name', 'salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'])
        .where('event_id', '=', scanner.eventId)
        .where('badge_code', 'in', codes)
        .execute();
      for (const { badge_code, ...visitor } of rows) visitors.set(badge_code, visitor);
    }

    let inserted: Array<{ id: number; client_scan_id: string }> = [];
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
        };
      });
      inserted = (
        await trx
          .insertInto('leads')
          .values(values)
          .onConflict((oc) => oc.columns(['participation_id', 'client_scan_id']).doNothing())
          .returning(['id', 'client_scan_id'])
          .execute()
      ).map((row) => ({ id: Number(row.id), client_scan_id: row.client_scan_id }));
    }
    const insertedIds = new Map(inserted.map((row) => [row.client_scan_id, row.id]));
    // A concurrent resend may have stored one of ours between our look-up and the insert: the
    // conflict skipped it; it is a duplicate, found here.
    await findStored(allowed.filter((i) => !insertedIds.has(scans[i]!.clientScanId)).map((i) => scans[i]!.clientScanId));

    for (const i of allowed) {
      const scan = scans[i]!;
      const id = insertedIds.get(scan.clientScanId);
      const visitor = visitors.get(scan.badgeCode);
      if (id !== undefined) {
        Object.assign(results[i]!, { status: 'created', leadId: id, badgeKnown: visitor !== undefined, visitorName: visitor?.name ?? '', company: visitor?.company ?? '' });
      }
    }
    scans.forEach((scan, index) => {
      const result = results[index]!;
      if (result.status === 'created' || result.status === 'quotaNotEnough' || result.problem) return;
      const stored = existing.get(scan.clientScanId) ?? (insertedIds.has(scan.clientScanId) ? null : undefined);
      const id = stored?.id ?? insertedIds.get(scan.clientScanId);
      if (id === undefined) {
        // A repeat inside the batch of a scan refused for its quota.
        const first = results[firstIndex.get(scan.clientScanId)!]!;
        Object.assign(result, { status: first.status, leadId: first.leadId, badgeKnown: first.badgeKnown, visitorName: first.visitorName, company: first.company });
        return;
      }
      const first = firstIndex.has(scan.clientScanId) ? results[firstIndex.get(scan.clientScanId)!]! : null;
      Object.assign(result, {
        status: 'duplicate',
        leadId: id,
        badgeKnown: stored?.badge_known ?? first?.badgeKnown ?? null,
        visitorName: stored?.visitor_name ?? first?.visitorName ?? null,
        company: stored?.company ?? first?.company ?? null,
      });
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
