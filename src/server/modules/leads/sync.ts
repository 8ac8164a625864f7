import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { isIsoInstant, type LeadFilters } from '../../../engine/leads-rules';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { LEAD_COLUMNS, leadConditions, type LeadScope } from './query';

// LD2: incremental sync of the leads API. Leads come in the order they last changed, by a keyset
// cursor on (changed_at, id) (migration 0044: a trigger sets changed_at to the writing
// transaction's start time on every insert and update).
//
// The guarantee: a client that keeps passing `next` receives every lead at least once after each
// change of it, with its state at the time of the read, and never the same change twice; a lead
// changed while the client is paging comes again later in the sequence, once, with its new
// state. To keep that under concurrent writes, a read serves only leads changed before the
// start of the oldest transaction still open on the database (read in a statement of its own,
// before the page is read): a write still in flight carries its transaction's start time, so
// the cursor never passes a change that is not committed yet. A transaction held open for long
// holds the sync back (never loses leads) until it ends. Erased leads are not answered again.

/** A sync cursor: the last lead read, its change time exact to the microsecond as the database keeps it. */
interface SyncPosition {
  changedAt: string;
  id: number;
}

const CHANGED_AT_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(position: SyncPosition): string {
  return Buffer.from(JSON.stringify([position.changedAt, position.id])).toString('base64url');
}

/** The position of a cursor an answer gave; anything else is a coded bad request. */
export function decodeCursor(cursor: string): SyncPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) {
      const [changedAt, id] = value as [unknown, unknown];
      if (typeof changedAt === 'string' && CHANGED_AT_TEXT.test(changedAt) && !Number.isNaN(Date.parse(changedAt)) && Number.isSafeInteger(id) && (id as number) >= 0) {
        return { changedAt, id: id as number };
      }
    }
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new AppError('leadCursorInvalid');
}

/** `updatedSince` as an instant: an ISO 8601 date and time with its offset (Z or ±hh:mm). */
export function parseUpdatedSince(text: string): Date {
  // A real calendar instant only: `new Date` would roll 30 February over to 2 March.
  const at = isIsoInstant(text.toUpperCase()) ? new Date(text) : null;
  if (!at || Number.isNaN(at.getTime())) throw new AppError('updatedSinceInvalid');
  return at;
}

/**
 * The newest change time a read may serve: the start of the oldest transaction open on this
 * database (another connection's), else now. The embedded database has one connection: now.
 */
async function settledBefore(db: Kysely<Database>, engine: 'pglite' | 'postgres'): Promise<string> {
  const row =
    engine === 'postgres'
      ? await sql<{ cutoff: string }>`select to_char(least(now(), (
            select min(xact_start) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null
          )) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cutoff`.execute(db)
      : await sql<{ cutoff: string }>`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cutoff`.execute(db);
  return row.rows[0]!.cutoff;
}

export interface SyncRequest {
  scope: LeadScope;
  filters: LeadFilters;
  updatedSince?: Date;
  after?: SyncPosition;
  limit: number;
}

/** The sync's leads from the request's position up to the cutoff (a change time the database wrote, as text). */
function fromPosition<Q extends SelectQueryBuilder<Database, 'leads', object>>(query: Q, request: SyncRequest, cutoff: string): Q {
  const { scope, filters, updatedSince, after } = request;
  // The cutoff compared as the database's own text keeps its microseconds.
  let q = query.where((eb) => leadConditions(eb, scope, filters)).where(sql<SqlBool>`leads.changed_at < ${cutoff}::timestamptz`);
  if (updatedSince) q = q.where('leads.changed_at', '>=', updatedSince);
  if (after) q = q.where(sql<SqlBool>`(leads.changed_at, leads.id) > (${after.changedAt}::timestamptz, ${after.id}::bigint)`);
  return q as Q;
}

/**
 * One page of the sync (`limit` + 1 leads, to tell whether more follow), in change order. The
 * page is read from the leads alone, in the order of their index (participation, changed_at, id),
 * and only then joined to its scanners' names: a sync reads the newest changes, past the end of
 * the column's statistics, where the planner expects one row; with the joins in the same
 * statement it joined and sorted every lead after the cursor for each page (640 ms a page at
 * 50,000 leads left, the whole sync quadratic), while the limited range read stops after the page.
 */
function syncPageQuery(db: Kysely<Database>, request: SyncRequest, cutoff: string) {
  const pageOfLeads = fromPosition(db.selectFrom('leads').select([...LEAD_COLUMNS, 'leads.updated_at', 'leads.changed_at']), request, cutoff)
    .orderBy('leads.changed_at', 'asc')
    .orderBy('leads.id', 'asc')
    .limit(request.limit + 1);
  return db
    .selectFrom(pageOfLeads.as('page'))
    .leftJoin('users', 'users.id', 'page.scanned_by')
    .leftJoin('users as last_scanner', 'last_scanner.id', 'page.last_scanned_by')
    .selectAll('page')
    .select([
      'users.display_name as scanned_by_name',
      'last_scanner.display_name as last_scanned_by_name',
      sql<string>`to_char(page.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('changed_at_text'),
    ])
    .orderBy('page.changed_at', 'asc')
    .orderBy('page.id', 'asc');
}

/** One batch of the sync: the leads (as the list reads them), the cursor after them, whether more are ready, how many are left. */
export async function syncBatch(db: Kysely<Database>, engine: 'pglite' | 'postgres', request: SyncRequest) {
  const { updatedSince, after, limit } = request;
  const cutoff = await settledBefore(db, engine);
  // The count of what is left is read beside the page (on PostgreSQL, on a connection of its own).
  const [rows, counted] = await Promise.all([
    syncPageQuery(db, request, cutoff).execute(),
    fromPosition(db.selectFrom('leads').select(sql<number>`count(*)::int`.as('n')), request, cutoff).executeTakeFirstOrThrow(),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextPosition = last ? { changedAt: last.changed_at_text, id: Number(last.id) } : (after ?? (updatedSince ? startOf(updatedSince) : startOf(new Date(0))));
  const remaining = page.length < limit ? page.length : Number(counted.n);
  return { rows: page, next: encodeCursor(nextPosition), hasMore: rows.length > limit, remaining };
}

/** A position just before every lead changed at or after this instant. */
function startOf(at: Date): SyncPosition {
  return { changedAt: `${at.toISOString().slice(0, 23)}000Z`, id: 0 };
}
