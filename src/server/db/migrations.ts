import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

// Migrations, in code so the embedded database and PostgreSQL run exactly the same ones.
// Append new migrations; never edit one that has shipped.

const migrations: Record<string, Migration> = {
  '0001_accounts_and_sessions': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('events')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('logo_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('venue', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
        .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
        .addColumn('utc_offset_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('terms_url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('support_email', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('exhibitors')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('participations')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('exhibitor_id', 'integer', (c) => c.notNull().references('exhibitors.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('booth_num', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('displayed_modules', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('flags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('badges_deadline', 'timestamptz')
        .addColumn('booth_deadline', 'timestamptz')
        .addColumn('product_deadline', 'timestamptz')
        .addColumn('profile_deadline', 'timestamptz')
        .addColumn('badge_quota', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('team_user_quota', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('participations_exhibitor_event', ['exhibitor_id', 'event_id'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('login_key', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('exhibitor', 'team_user', 'contractor', 'organiser')`))
        .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`))
        .addColumn('show_left_menus', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('users_email').on('users').expression(sql`lower(email)`).execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('login_failures')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('login_key', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_login').on('login_failures').columns(['login_key', 'at']).execute();
      await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'at']).execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('content')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('screen_id', 'text', (c) => c.notNull())
        .addColumn('title', 'jsonb', (c) => c.notNull())
        .addColumn('body', 'jsonb', (c) => c.notNull())
        .addColumn('published_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
  '0002_forms_and_uploads': {
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
  },
  '0003_approvals': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('form_entries')
        .addColumn('approval_status', 'text', (c) => c.check(sql`approval_status in ('pending', 'approved', 'rejected')`))
        .addColumn('approval_comment', 'text')
        .addColumn('decided_at', 'timestamptz')
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('form_entries_pending').on('form_entries').column('approval_status').execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
