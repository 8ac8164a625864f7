import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD1/LD2: every lead a scan makes is written into each index of `leads`; at a show's opening
    // hour that upkeep was most of a scan batch's time in the database. The list filtered by lead
    // type, temperature or country reads the list's own order (participation, newest first) and
    // skips what does not match: those values are few and each is held by a large share of an
    // exhibitor's leads, so a page is found within a few hundred rows, and their three indexes
    // (participation, value, time) go. The list's index carries the filter columns, so a filtered
    // count is read from the index alone. The index by scanner stays: a team user's own leads are
    // often a small share of the exhibitor's, and its list and options read them by it.
    await sql`create index leads_list_covering on leads (participation_id, scanned_at desc, id desc) include (scanned_by, lead_type, temperature, country, follow_up)`.execute(db);
    await sql`drop index leads_list`.execute(db);
    await sql`alter index leads_list_covering rename to leads_list`.execute(db);
    await sql`drop index leads_by_type`.execute(db);
    await sql`drop index leads_by_temperature`.execute(db);
    await sql`drop index leads_by_country`.execute(db);
    // A new lead's changed_at is the column's default, now() (its transaction's start, as the
    // trigger set it); the row trigger keeps it for every later write, and no longer runs once
    // per inserted lead.
    await sql`drop trigger leads_changed_at on leads`.execute(db);
    await sql`create trigger leads_changed_at before update on leads for each row execute function leads_set_changed_at()`.execute(db);
  },
};
