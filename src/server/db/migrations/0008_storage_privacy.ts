import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // The shared file store (FILE_STORE=database) — one row per file, marked complete
    // once every chunk is in, and its bytes in chunks of 256 KiB.
    await db.schema
      .createTable('stored_files')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('complete', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('stored_file_chunks')
      .addColumn('key', 'text', (c) => c.notNull().references('stored_files.key').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', 'bytea', (c) => c.notNull())
      .addPrimaryKeyConstraint('stored_file_chunks_pk', ['key', 'seq'])
      .execute();
    // How long exhibitors keep leads after the show (days; null: not set, kept), and
    // when exhibitors were reminded and the leads erased.
    await db.schema
      .alterTable('events')
      .addColumn('lead_retention_days', 'integer')
      .addColumn('lead_retention_reminded_at', 'timestamptz')
      .addColumn('leads_erased_at', 'timestamptz')
      .execute();
    // The lead exports' age is what the export purge reads.
    await db.schema.createIndex('lead_exports_created').on('lead_exports').column('created_at').execute();
  },
};
