import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // F11: the form set lives in the database as numbered versions, so every instance serves the
    // same forms without a shared folder. A version holds every file of the set by its path
    // relative to FORMS_DIR (forms/*.json, forms/forms.yaml, events/<code>/<id>.patch.json) and
    // the forms' strings per language (the `forms` part of locales/). The current version is the
    // published one with the highest number; a rollback is a new version with older content.
    await db.schema
      .createTable('form_set_versions')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('number', 'integer', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published')`))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('author_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'jsonb', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('problems', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();

    // An organiser's unpublished change to one form of one event: the event's whole patch of the
    // form and the form's strings, as last saved, with the version it was based on.
    await db.schema
      .createTable('form_drafts')
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('based_on', 'integer', (c) => c.notNull())
      .addColumn('patch', 'jsonb')
      .addColumn('strings', 'jsonb', (c) => c.notNull())
      .addColumn('problems', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('saved_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('author_name', 'text', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint('form_drafts_pkey', ['event_id', 'form_id'])
      .execute();

    // A reopening after a form change asks only for the new or changed questions (dotted paths);
    // null = the whole form, as an organiser's reopening always did.
    await db.schema.alterTable('form_reopens').addColumn('fields', 'jsonb').execute();
  },
};
