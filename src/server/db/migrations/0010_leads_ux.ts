import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD1: one lead per visitor (badge) per exhibitor. A later scan of the same badge, by anyone
    // of the exhibitor, is recorded here against the lead instead of making a second one, so
    // totals, lists, exports and the trigger-kept rollup count each visitor once. The first
    // scan stays on the lead (leads.client_scan_id); a resend of any scan is found by its id in
    // either table.
    await db.schema
      .createTable('lead_scans')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
      .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
      .addColumn('client_scan_id', 'text', (c) => c.notNull())
      .addColumn('scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('scanned_at', 'timestamptz', (c) => c.notNull())
      .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('lead_scans_participation_scan', ['participation_id', 'client_scan_id'])
      .execute();
    await sql`create index lead_scans_by_lead on lead_scans (lead_id, scanned_at desc)`.execute(db);
    await db.schema
      .alterTable('leads')
      .addColumn('scan_count', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('last_scanned_at', 'timestamptz')
      .addColumn('last_scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    // Leads stored twice for one badge before this rule: the first scan keeps the lead (its
    // qualification is filled from the latest qualified copy when it has none), the others
    // become its later scans and go (the rollup triggers subtract them).
    await sql`
      create temporary table lead_merge as
      select l.id as duplicate_id, k.keep_id, l.participation_id, l.client_scan_id, l.scanned_by, l.scanned_at
      from leads l
      join (
        select distinct on (participation_id, badge_code) participation_id, badge_code, id as keep_id
        from leads order by participation_id, badge_code, scanned_at, id
      ) k on k.participation_id = l.participation_id and k.badge_code = l.badge_code and k.keep_id <> l.id`.execute(db);
    await sql`
      insert into lead_scans (participation_id, lead_id, client_scan_id, scanned_by, scanned_at)
      select participation_id, keep_id, client_scan_id, scanned_by, scanned_at from lead_merge`.execute(db);
    await sql`
      update leads k set
        lead_type = coalesce(k.lead_type, q.lead_type), temperature = coalesce(k.temperature, q.temperature),
        follow_up = coalesce(k.follow_up, q.follow_up), notes = case when k.notes = '' then q.notes else k.notes end
      from (
        select distinct on (m.keep_id) m.keep_id, d.lead_type, d.temperature, d.follow_up, d.notes
        from lead_merge m join leads d on d.id = m.duplicate_id
        where d.lead_type is not null order by m.keep_id, d.updated_at desc nulls last, d.id desc
      ) q
      where k.id = q.keep_id`.execute(db);
    await sql`
      update leads k set scan_count = 1 + s.n, last_scanned_at = s.last_at, last_scanned_by = s.last_by
      from (
        select lead_id, count(*)::int as n, max(scanned_at) as last_at,
          (array_agg(scanned_by order by scanned_at desc, id desc))[1] as last_by
        from lead_scans group by lead_id
      ) s
      where k.id = s.lead_id`.execute(db);
    await sql`delete from leads where id in (select duplicate_id from lead_merge)`.execute(db);
    await sql`drop table lead_merge`.execute(db);
    await sql`create unique index leads_participation_badge on leads (participation_id, badge_code)`.execute(db);
    // LD1: scanning devices. A device token is a session that does not expire with idleness or
    // age (an offline app keeps it instead of a password) and opens only the scanning API; it
    // ends when revoked (by its user or the exhibitor) or when its user is deactivated.
    await db.schema.alterTable('sessions').addColumn('device_name', 'text').execute();
    await sql`create index sessions_devices on sessions (user_id) where device_name is not null`.execute(db);
  },
};
