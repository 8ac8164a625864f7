import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The organiser's reads at a big show's size (5,000 exhibitors, ~1.7 M audit rows): indexes that
// let each filtered page read only its rows. Listed here so the benchmark can measure the same
// data without them (the index set as it was before).

export interface OrganiserIndex {
  name: string;
  create: string;
  /** Built only where the extension exists (trigram indexes). */
  extension?: 'pg_trgm';
}

export const ORGANISER_QUERY_INDEXES: OrganiserIndex[] = [
  // The exhibitors list filtered by one form's status: that form's entries of the event only.
  { name: 'form_entries_form', create: 'create index if not exists form_entries_form on form_entries (form_id, participation_id)' },
  // The audit log by action (or an action prefix: "form." is a range of this pattern-ordered
  // column whatever the database's collation), newest first within it.
  {
    name: 'audit_log_organisation_action',
    create: 'create index if not exists audit_log_organisation_action on audit_log (organisation_id, action text_pattern_ops, at desc, id desc)',
  },
  // "Who": any part of the actor's name.
  { name: 'audit_log_actor_name', create: 'create index if not exists audit_log_actor_name on audit_log using gin (actor_name gin_trgm_ops)', extension: 'pg_trgm' },
];

export async function hasExtension(db: Kysely<any>, name: string): Promise<boolean> {
  const found = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = ${name}) as ok`.execute(db);
  return found.rows[0]?.ok === true;
}

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const trgm = await hasExtension(db, 'pg_trgm');
    for (const index of ORGANISER_QUERY_INDEXES) if (!index.extension || trgm) await sql.raw(index.create).execute(db);
  },
};
