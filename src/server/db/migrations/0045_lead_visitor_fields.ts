import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the visitor fields the organiser keeps from the event's exhibitors (their leads,
    // exports, the leads API, webhook payloads, the offline visitor directory); empty = none
    // hidden, as before. Field names as the leads API writes them (visitorName, phone, …).
    await db.schema
      .alterTable('events')
      .addColumn('hidden_visitor_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
  },
};
