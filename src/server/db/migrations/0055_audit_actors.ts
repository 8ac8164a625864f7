import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // The audit log's "who" filter matches part of a name. Matched row by row it read every
    // record of a busy organisation (30,000 a day) to count its page. An organisation's actors
    // are few (its people, its exhibitors' users): the filter matches their names here first and
    // then reads only their records, through the index by actor. The database keeps the list on
    // every insert into the log, whoever writes it.
    await sql`create table audit_actors (
      organisation_id integer not null,
      actor_name text not null,
      primary key (organisation_id, actor_name)
    )`.execute(db);
    await sql`insert into audit_actors (organisation_id, actor_name)
      select distinct organisation_id, actor_name from audit_log where organisation_id is not null`.execute(db);
    await sql`create function audit_actors_add() returns trigger language plpgsql as $$
      begin
        insert into audit_actors (organisation_id, actor_name)
        select distinct organisation_id, actor_name from new_rows where organisation_id is not null
        on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger audit_actors_add after insert on audit_log referencing new table as new_rows for each statement execute function audit_actors_add()`.execute(db);
    await sql`create index audit_log_organisation_actor on audit_log (organisation_id, actor_name, at desc, id desc) include (action)`.execute(db);
  },
};
