import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // CT3: how many times an event's content changed. Each instance keeps an event's search texts
    // in memory and reads them again when this number moved: one row read by key per search,
    // where counting the event's content (and its latest change) read every item's row. Kept by
    // trigger, so no write path (organiser, event clone, seed) can forget it.
    await db.schema
      .createTable('content_changes')
      .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('changes', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`insert into content_changes (event_id, changes) select event_id, count(*) from content group by event_id`.execute(db);
    await sql`create function content_count_change() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          -- Content deleted with its event leaves no count behind (the event row is gone already).
          insert into content_changes (event_id, changes) select old.event_id, 1 where exists (select 1 from events where id = old.event_id)
            on conflict (event_id) do update set changes = content_changes.changes + 1;
        end if;
        if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.event_id <> old.event_id) then
          insert into content_changes (event_id, changes) values (new.event_id, 1)
            on conflict (event_id) do update set changes = content_changes.changes + 1;
        end if;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger content_changes_count after insert or update or delete on content for each row execute function content_count_change()`.execute(db);
  },
};
