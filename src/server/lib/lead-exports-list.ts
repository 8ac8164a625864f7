import { EXPORT_FORMATS } from '../../engine/leads-rules';
import { sql, type Kysely } from 'kysely';
import type { PageState } from '../../engine/schemas/page';
import type { Database } from '../db/schema';
import { pageOf } from './paging';

// LD4: the data download list — one page of the exports a caller may see and download again
// (the participation's; a team user's own only), newest first. The lead report and the
// dashboard both show it.

/** Whose leads a caller sees: a participation's, in its time zone (a team user only those it scanned). */
export interface LeadScope {
  participationId: number;
  offsetMinutes: number;
  /** Team users see the leads they scanned, nothing else. */
  onlyScannedBy?: number;
}

/** The exports a caller may list and download: the participation's; a team user's own only. */
export function visibleExports(db: Kysely<Database>, scope: LeadScope) {
  const selection = db.selectFrom('lead_exports').innerJoin('users', 'users.id', 'lead_exports.user_id').where('lead_exports.participation_id', '=', scope.participationId);
  return scope.onlyScannedBy === undefined ? selection : selection.where('lead_exports.user_id', '=', scope.onlyScannedBy);
}

export async function exportsPage(db: Kysely<Database>, scope: LeadScope, query: Partial<PageState>) {
  const visible = () => visibleExports(db, scope);
  const counted = await visible().select(sql<number>`count(*)::int`.as('total')).executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  const { page, limit, offset } = pageOf(query, total);
  const rows = await visible()
    .select(['lead_exports.id', 'lead_exports.file_name', 'lead_exports.format', 'lead_exports.rows', 'lead_exports.size', 'lead_exports.created_at', 'users.display_name'])
    .orderBy('lead_exports.created_at', 'desc')
    .orderBy('lead_exports.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    items: rows.map((row) => ({
      id: row.id,
      fileName: row.file_name,
      format: row.format,
      rows: row.rows,
      size: row.size,
      createdAt: new Date(row.created_at).toISOString(),
      user: row.display_name,
    })),
    total,
    page,
    limit,
  };
}

/** One file of the exhibitor's download list (LD4), as the leads and the dashboard answer it. */
export const exportRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    fileName: { type: 'string' },
    format: { type: 'string', enum: [...EXPORT_FORMATS] },
    rows: { type: 'integer' },
    size: { type: 'integer', description: 'Bytes' },
    createdAt: { type: 'string', format: 'date-time', description: 'Download time (when the file was made)' },
    user: { type: 'string', description: 'Download user' },
  },
  required: ['id', 'fileName', 'format', 'rows', 'size', 'createdAt', 'user'],
} as const;
