import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// O2: the organiser's exhibitors list at a big show (5,000 exhibitors). The list is sorted by the
// exhibitor's name, which lives in `exhibitors`: every page joined and sorted all of the event's
// exhibitors. A participation now carries a copy of its exhibitor's name (`list_name`), so a page
// is read in order along an index of the event and stops at its last row. A keyword was matched in
// Node against six texts of every exhibitor; a participation now also carries those texts folded
// (`search_folded`, case, width and diacritics folded by the engine's searchFold, which SQL cannot
// reproduce), so the database keeps only the matches. Both follow their sources by triggers, so
// every writer (the portal, the set-based import, the show generator, a seed) keeps them: the name
// is copied at once; the folded texts are set to null whenever one of their texts changes, and the
// list folds the event's null rows on its next search (refreshExhibitorSearchTexts).
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await sql`alter table participations add column list_name text not null default '', add column search_folded text`.execute(db);
    await sql`update participations p set list_name = e.name from exhibitors e where e.id = p.exhibitor_id`.execute(db);

    // A new participation, or one moved to another exhibitor, takes its name; its texts are folded anew.
    await sql`create function participation_list_texts() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' or new.exhibitor_id is distinct from old.exhibitor_id then
          new.list_name := coalesce((select name from exhibitors where id = new.exhibitor_id), '');
          new.search_folded := null;
        elsif new.booth_num is distinct from old.booth_num then
          new.search_folded := null;
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger participations_list_texts before insert or update of exhibitor_id, booth_num on participations
      for each row execute function participation_list_texts()`.execute(db);

    // A renamed exhibitor (or a new code or legal name) in every event it takes part in.
    await sql`create function exhibitor_list_texts() returns trigger language plpgsql as $$
      begin
        update participations set list_name = new.name, search_folded = null where exhibitor_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger exhibitors_list_texts after update of name, code, legal_name on exhibitors for each row
      when (old.name is distinct from new.name or old.code is distinct from new.code or old.legal_name is distinct from new.legal_name)
      execute function exhibitor_list_texts()`.execute(db);

    // The exhibitor's main account (its login and e-mail are searched): added, changed or removed.
    await sql`create function exhibitor_account_list_texts() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.role = 'exhibitor' and old.participation_id is not null then
          update participations set search_folded = null where id = old.participation_id and search_folded is not null;
        end if;
        if tg_op <> 'DELETE' and new.role = 'exhibitor' and new.participation_id is not null then
          update participations set search_folded = null where id = new.participation_id and search_folded is not null;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger users_list_texts_insert after insert on users for each row
      when (new.role = 'exhibitor' and new.participation_id is not null) execute function exhibitor_account_list_texts()`.execute(db);
    await sql`create trigger users_list_texts_update after update of login, email, role, participation_id on users for each row
      when ((old.role = 'exhibitor' or new.role = 'exhibitor') and (old.login is distinct from new.login or old.email is distinct from new.email
        or old.role is distinct from new.role or old.participation_id is distinct from new.participation_id))
      execute function exhibitor_account_list_texts()`.execute(db);
    await sql`create trigger users_list_texts_delete after delete on users for each row
      when (old.role = 'exhibitor' and old.participation_id is not null) execute function exhibitor_account_list_texts()`.execute(db);

    // A page in the list's order, read along the event's rows; the rows still to fold, found at once.
    await sql`create index participations_list_order on participations (event_id, list_name, id)`.execute(db);
    await sql`create index participations_search_unfolded on participations (event_id) where search_folded is null`.execute(db);
    // A form-status filter (app.formEntries.hasFormStatus) reads one form's entries of the event:
    // their status and approval decision are now in its index too, so the filter reads the index
    // alone instead of each entry's row (which holds the form's data).
    await sql`drop index if exists form_entries_form`.execute(db);
    await sql`create index form_entries_form on form_entries (form_id, participation_id) include (status, approval_status)`.execute(db);
    // A keyword of three characters or more: its trigrams' matches only (where pg_trgm is installed).
    const trgm = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
    if (trgm.rows[0]?.ok) await sql`create index participations_search_folded on participations using gin (search_folded gin_trgm_ops)`.execute(db);
  },
};
