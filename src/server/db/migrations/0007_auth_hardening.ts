import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // One-time sign-in link codes (S3 ?token=): a short-lived, single-use code stands in the
    // URL instead of a session token; only its hash is stored.
    await db.schema
      .createTable('link_codes')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('link_codes_expires').on('link_codes').column('expires_at').execute();
    // Housekeeping: one row per scheduled job; claiming a run is one conditional update, so
    // several servers on one PostgreSQL run each job once per interval.
    await db.schema
      .createTable('scheduled_jobs')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('last_run_at', 'timestamptz', (c) => c.notNull())
      .execute();
    // Purges look sessions and resets up by age.
    await db.schema.createIndex('sessions_last_seen').on('sessions').column('last_seen_at').execute();
    await db.schema.createIndex('password_resets_expires').on('password_resets').column('expires_at').execute();
    await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
  },
};
