import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // K2 L1: the order an event writes dates in (day-month-year for an ASEAN show, month-day-year
    // for an American one), whatever the reader's language. Existing events keep what they
    // showed until now: the order of each reader's language.
    await db.schema
      .alterTable('events')
      .addColumn('date_order', 'text', (c) => c.notNull().defaultTo('language'))
      .execute();
    await sql`alter table events add constraint events_date_order check (date_order in ('language', 'dmy', 'mdy', 'ymd'))`.execute(db);
  },
};
