import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // O2: each entry keeps, as it is written, what its progress is read from: its status and
    // approval, which parts were submitted, and the keys of its working copy. These are facts of
    // the row alone (generated columns: every writer keeps them right), neither the form set's
    // parts nor the clock: what a part holds and whether a deadline passed are applied when the
    // matrix is read, so a form-set reload or a moved deadline needs no rewrite. The matrix of
    // 5,000 exhibitors then reads short texts from one index instead of each entry's JSON.
    await sql`create function form_entry_keys(value jsonb) returns text language sql immutable parallel safe as $$
      select case when jsonb_typeof(value) = 'object' then coalesce((select string_agg(k, chr(31) order by k) from jsonb_object_keys(value) k), '') end
    $$`.execute(db);
    // "<status><approval><submitted parts>": s/d, p/a/r/-, the part ids separated by chr(31), or
    // "*" for a submission recorded before its form had parts (every part counts as submitted).
    await sql`alter table form_entries
      add column progress text generated always as (
        left(status, 1) || coalesce(left(approval_status, 1), '-') || coalesce(form_entry_keys(parts), case when submitted_at is not null then '*' else '' end)
      ) stored,
      add column data_keys text generated always as (coalesce(form_entry_keys(data), '')) stored`.execute(db);
    await sql`create index form_entries_progress_state on form_entries (participation_id) include (form_id, progress, data_keys)`.execute(db);
  },
};
