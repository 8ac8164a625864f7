import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // CT5: an exhibitor's public showroom address, and whether it is published.
    await db.schema
      .createTable('showrooms')
      .addColumn('participation_id', 'integer', (c) => c.primaryKey().references('participations.id').onDelete('cascade'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('published_at', 'timestamptz')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
