import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // O2: each participation's entries' stored progress (0054) in one row, form id → progress and
    // form id → working copy's keys, kept by statement triggers on every write of form_entries
    // (saves, imports, bulk loads alike). The progress matrix then groups an event's exhibitors by
    // this row (most share theirs) instead of gathering 50,000 entries per request.
    // Exact under concurrent writes: a write merges only its own forms into the row (`||`, `-`)
    // through an upsert, which in READ COMMITTED applies to the row's latest version after waiting
    // for a concurrent writer, so two saves of different forms never lose each other's change.
    // progress_text: the progress as one text, entries by form id ("<form>U+001E<progress>",
    // U+001C between entries), so a read groups thousands of rows by a plain text.
    await sql`create function participation_progress_text(progress jsonb) returns text language sql immutable parallel safe as $$
      select coalesce(string_agg(e.key || chr(30) || e.value, chr(28) order by e.key collate "C"), '') from jsonb_each_text(progress) e
    $$`.execute(db);
    await sql`create table participation_progress (
      participation_id integer primary key references participations(id) on delete cascade,
      progress jsonb not null default '{}',
      data_keys jsonb not null default '{}',
      progress_text text generated always as (participation_progress_text(progress)) stored
    )`.execute(db);
    await sql`
      create function participation_progress_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          update participation_progress pp set progress = pp.progress - g.forms, data_keys = pp.data_keys - g.forms
          from (select participation_id, array_agg(form_id) as forms from old_rows group by 1) g
          where pp.participation_id = g.participation_id;
          return null;
        end if;
        if tg_op = 'UPDATE' then
          -- An entry moved to another participation or form leaves its old place.
          update participation_progress pp set progress = pp.progress - g.forms, data_keys = pp.data_keys - g.forms
          from (select o.participation_id, array_agg(o.form_id) as forms from old_rows o
            where not exists (select 1 from new_rows n where n.participation_id = o.participation_id and n.form_id = o.form_id) group by 1) g
          where pp.participation_id = g.participation_id;
          -- Only entries whose progress or keys changed are written (a draft that keeps its keys writes nothing).
          insert into participation_progress (participation_id, progress, data_keys)
          select n.participation_id, jsonb_object_agg(n.form_id, n.progress), jsonb_object_agg(n.form_id, n.data_keys)
          from new_rows n
          where not exists (select 1 from old_rows o where o.id = n.id and o.participation_id = n.participation_id and o.form_id = n.form_id
            and o.progress = n.progress and o.data_keys = n.data_keys)
          group by 1
          order by 1
          on conflict (participation_id) do update
            set progress = participation_progress.progress || excluded.progress, data_keys = participation_progress.data_keys || excluded.data_keys;
          return null;
        end if;
        insert into participation_progress (participation_id, progress, data_keys)
        select participation_id, jsonb_object_agg(form_id, progress), jsonb_object_agg(form_id, data_keys)
        from new_rows
        group by 1
        order by 1
        on conflict (participation_id) do update
          set progress = participation_progress.progress || excluded.progress, data_keys = participation_progress.data_keys || excluded.data_keys;
        return null;
      end $$`.execute(db);
    await sql`create trigger form_entries_progress_insert after insert on form_entries referencing new table as new_rows for each statement execute function participation_progress_apply()`.execute(
      db,
    );
    await sql`create trigger form_entries_progress_update after update on form_entries referencing old table as old_rows new table as new_rows for each statement execute function participation_progress_apply()`.execute(
      db,
    );
    await sql`create trigger form_entries_progress_delete after delete on form_entries referencing old table as old_rows for each statement execute function participation_progress_apply()`.execute(
      db,
    );
    // The matrix reads every active exhibitor of the event (to group them, then a page by name):
    // from this index alone, never the participations' pages, which updates leave sparse.
    await sql`create index participations_event_active on participations (event_id, status) include (id, exhibitor_id, booth_num)`.execute(db);
    await sql`insert into participation_progress (participation_id, progress, data_keys)
      select participation_id, jsonb_object_agg(form_id, progress), jsonb_object_agg(form_id, data_keys) from form_entries group by 1`.execute(db);
  },
};
