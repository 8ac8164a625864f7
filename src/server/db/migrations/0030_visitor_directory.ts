import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD1: which visitor fields the event's exhibitors may keep on their scanning phones (the
    // offline visitor directory): a subset of name, company, jobTitle; empty = no directory.
    await db.schema
      .alterTable('events')
      .addColumn('visitor_directory_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
  },
};
