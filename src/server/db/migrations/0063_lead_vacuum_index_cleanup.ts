import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the lead list reads an exhibitor's leads from its indexes alone (index-only scans),
    // which skip the table only on pages the visibility map marks all-visible. A lead changed
    // (qualified, renamed, scanned again) leaves its old version's line pointer dead, and a page
    // holding one is all-visible again only once vacuum has cleaned the indexes too. Since
    // PostgreSQL 14 vacuum skips that step when under 2 % of the table's pages hold such pointers,
    // which at 5 M leads is every busy exhibitor's pages and no others: the largest exhibitor's
    // keyword then read 18,830 leads from the table (33 ms) instead of none (5.8 ms), measured,
    // for as long as the show ran. Always cleaning the indexes costs vacuum a pass over them each
    // time; the table is vacuumed about once per fifth of its rows changed or added.
    await sql`alter table leads set (vacuum_index_cleanup = on)`.execute(db);
  },
};
