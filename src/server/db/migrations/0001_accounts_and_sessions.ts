import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
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
};
