import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** A lead's rollup keys (dimension, key) as a lateral VALUES list over the rows `r`. */
const KEYS = `(values
  ('all', ''), ('country', r.country), ('user', r.scanned_by::text),
  ('type', coalesce(r.lead_type, '')), ('temperature', coalesce(r.temperature, '')),
  ('follow_up', coalesce(r.follow_up, '')), ('known', r.badge_known::text)
) as d(dimension, key)`;

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD1/LA1: the rollup adds only what a statement changed. An update used to subtract every
    // old row's keys and add every new row's: a later scan (scan count, last seen) or a note
    // changes no key, yet each lead cost fourteen upserts that cancelled out, and every one locked
    // the participation's busiest rollup rows (all leads, this hour) against the other devices'
    // scans. Now old and new rows are netted per key and only non-zero changes are written, in key
    // order (two statements lock shared rows in the same order: no deadlock between them).
    await sql`
      create or replace function lead_rollup_apply() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          insert into lead_rollup (participation_id, dimension, key, event_hour, leads)
          select c.participation_id, c.dimension, c.key, c.event_hour, sum(c.n)
          from (
            select r.participation_id, d.dimension, d.key, r.event_hour, -1 as n from old_rows r cross join lateral ${sql.raw(KEYS)}
            union all
            select r.participation_id, d.dimension, d.key, r.event_hour, 1 from new_rows r cross join lateral ${sql.raw(KEYS)}
          ) c
          group by 1, 2, 3, 4
          having sum(c.n) <> 0
          order by 1, 2, 3, 4
          on conflict (participation_id, dimension, key, event_hour)
          do update set leads = lead_rollup.leads + excluded.leads;
        elsif tg_op = 'INSERT' then
          insert into lead_rollup (participation_id, dimension, key, event_hour, leads)
          select r.participation_id, d.dimension, d.key, r.event_hour, count(*) from new_rows r cross join lateral ${sql.raw(KEYS)}
          group by 1, 2, 3, 4
          order by 1, 2, 3, 4
          on conflict (participation_id, dimension, key, event_hour)
          do update set leads = lead_rollup.leads + excluded.leads;
        else
          insert into lead_rollup (participation_id, dimension, key, event_hour, leads)
          select r.participation_id, d.dimension, d.key, r.event_hour, -count(*) from old_rows r cross join lateral ${sql.raw(KEYS)}
          group by 1, 2, 3, 4
          order by 1, 2, 3, 4
          on conflict (participation_id, dimension, key, event_hour)
          do update set leads = lead_rollup.leads + excluded.leads;
        end if;
        return null;
      end $$`.execute(db);
  },
};
