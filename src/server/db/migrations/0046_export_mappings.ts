import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD4: an exhibitor's export mapping for its CRM: a preset (portal, salesforce, hubspot) or
    // its own columns (lead field → column name). No row = the portal's export as before.
    await db.schema
      .createTable('export_mappings')
      .addColumn('participation_id', 'integer', (c) => c.primaryKey().references('participations.id').onDelete('cascade'))
      .addColumn('preset', 'text', (c) => c.notNull().defaultTo('portal'))
      .addColumn('columns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  },
};
