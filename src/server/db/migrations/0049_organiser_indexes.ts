import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The organiser's reads at a big show's size (5,000 exhibitors, ~1.7 M audit rows): indexes that
// let each filtered page read only its rows. Listed here so the benchmark can measure the same
// data without them (the index set as it was before).

export interface OrganiserIndex {
  name: string;
  create: string;
}

export const ORGANISER_QUERY_INDEXES: OrganiserIndex[] = [
  // The progress matrix reads every entry's status of 5,000 exhibitors: from this index alone
  // (an index-only scan), not from the table's rows, which hold the form data.
  {
    name: 'form_entries_progress',
    create: 'create index if not exists form_entries_progress on form_entries (participation_id) include (form_id, status, approval_status, submitted_at, parts)',
  },
  // The exhibitors list filtered by one form's status: that form's entries of the event only.
  { name: 'form_entries_form', create: 'create index if not exists form_entries_form on form_entries (form_id, participation_id)' },
  // The audit log by action (or an action prefix: "form." is a range of this pattern-ordered
  // column whatever the database's collation), newest first within it.
  {
    name: 'audit_log_organisation_action',
    create: 'create index if not exists audit_log_organisation_action on audit_log (organisation_id, action text_pattern_ops, at desc, id desc)',
  },
];

export const migration: Migration = {
  async up(db: Kysely<any>) {
    for (const index of ORGANISER_QUERY_INDEXES) await sql.raw(index.create).execute(db);
  },
};
