import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('participations')
      .addColumn('contractor_badge_quota', 'integer', (c) => c.notNull().defaultTo(10))
      .execute();
    await db.schema
      .createTable('uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('dpi', 'integer')
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('uploads_participation').on('uploads').column('participation_id').execute();
    await db.schema
      .createTable('form_entries')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft').check(sql`status in ('draft', 'submitted')`))
      .addColumn('submitted_data', 'jsonb')
      .addColumn('submitted_at', 'timestamptz')
      .addColumn('submitted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addUniqueConstraint('form_entries_participation_form', ['participation_id', 'form_id'])
      .execute();
  },
};
