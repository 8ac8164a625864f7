import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { fileKey } from '../../plugins/storage';
import type { PeriodicJob } from '../../lib/server-module';

// Housekeeping of the file store, as plain jobs `(app) => Promise<void>` so a scheduler
// runs them (listed in fileJobs below; modules/files/housekeeping.ts puts them on app.scheduler).
// Each is safe if two instances ever ran it at once: every step only removes what is already
// gone or expired.

/** Files and rows this young are left alone: an upload stores its file before its row. */
const GRACE_MS = 60 * 60 * 1000;

export interface SweepReport {
  filesRemoved: number;
  rowsRemoved: number;
}

/**
 * Orphans of uploads and exports: a stored file that no row names (a crash between the file and
 * its row) is removed; a row whose file is gone is removed too (and logged), so nothing lists a
 * file that cannot be downloaded. Skipped for an area whose store lists nothing while rows exist
 * (an unmounted disk must not erase the rows).
 */
export async function sweepOrphanFiles(app: FastifyInstance): Promise<SweepReport> {
  const report: SweepReport = { filesRemoved: 0, rowsRemoved: 0 };
  const cutoff = new Date(Date.now() - GRACE_MS);
  const areas = [
    { area: 'uploads', table: 'uploads' as const, column: 'id' as const, keyOf: fileKey.upload },
    { area: 'exports', table: 'lead_exports' as const, column: 'storage_name' as const, keyOf: fileKey.leadExport },
  ];
  for (const { area, table, column, keyOf } of areas) {
    const rows = await app.db
      .selectFrom(table)
      .select([sql<string>`${sql.ref(column)}`.as('name'), 'created_at'])
      .execute();
    const named = new Set(rows.map((row) => keyOf(row.name)));
    const listed = new Set<string>();
    for await (const file of app.storage.list(area)) {
      listed.add(file.key);
      if (!named.has(file.key) && file.createdAt < cutoff) {
        await app.storage.delete(file.key);
        report.filesRemoved++;
      }
    }
    if (listed.size === 0 && rows.length > 0) {
      app.log.warn({ area, rows: rows.length }, 'file store lists no files while rows exist; rows kept');
      continue;
    }
    const missing = rows.filter((row) => !listed.has(keyOf(row.name)) && new Date(row.created_at) < cutoff).map((row) => row.name);
    if (missing.length > 0) {
      app.log.warn({ area, missing: missing.length }, 'rows whose file is missing removed');
      for (let at = 0; at < missing.length; at += 500) {
        await app.db
          .deleteFrom(table)
          .where(column, 'in', missing.slice(at, at + 500))
          .execute();
      }
      report.rowsRemoved += missing.length;
    }
  }
  return report;
}

/** Lead export files older than EXPORT_RETENTION_DAYS are removed, with their download-list rows. */
export async function purgeOldExports(app: FastifyInstance, retentionDays: number): Promise<number> {
  const expired = await app.db
    .selectFrom('lead_exports')
    .select(['id', 'storage_name'])
    .where('created_at', '<', new Date(Date.now() - retentionDays * 86_400_000))
    .execute();
  for (const row of expired) {
    await app.storage.delete(fileKey.leadExport(row.storage_name));
    await app.db.deleteFrom('lead_exports').where('id', '=', row.id).execute();
  }
  return expired.length;
}

/** Every periodic job of the file store, in one place (for the housekeeping scheduler). */
export function fileJobs(options: { exportRetentionDays: number }): PeriodicJob[] {
  return [
    { name: 'files.sweepOrphans', everyMs: 6 * 60 * 60 * 1000, run: sweepOrphanFiles },
    { name: 'files.purgeOldExports', everyMs: 60 * 60 * 1000, run: (app) => purgeOldExports(app, options.exportRetentionDays) },
  ];
}
