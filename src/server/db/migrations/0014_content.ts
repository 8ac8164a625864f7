import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // CT1-CT5: what organisers author per event. Texts are {en, cn, ja, vi} objects;
    // a missing language falls back to the event's default language.
    await db.schema
      .alterTable('content')
      .addColumn('description', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      // FAQ category per language; manuals: mandatory/optional, acknowledgement, deadline.
      .addColumn('category', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('mandatory', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('ack_required', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('deadline', 'timestamptz')
      .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
      // Modules whose holders see it (any one); empty = everyone who may open the screen.
      .addColumn('audience', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      // File references (uploads of purpose contentAttachment).
      .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('content_event_kind').on('content').columns(['event_id', 'kind', 'published_at']).execute();
    // CT1: a manual's status per exhibitor: to be viewed (no row), viewed, acknowledged.
    await db.schema
      .createTable('manual_status')
      .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
      .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
      .addColumn('viewed_at', 'timestamptz', (c) => c.notNull())
      .addColumn('viewed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('acknowledged_at', 'timestamptz')
      .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addPrimaryKeyConstraint('manual_status_pk', ['content_id', 'participation_id'])
      .execute();
    // CT2: announcements each user has read.
    await db.schema
      .createTable('announcement_reads')
      .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('announcement_reads_pk', ['content_id', 'user_id'])
      .execute();
    // CT3: one searchable text per item and language (title, description, body), folded by the
    // engine's searchFold (case, width, diacritics), so "nguyen" finds "Nguyễn" and a CJK
    // substring finds its item with a plain LIKE (trigram-indexed where pg_trgm exists).
    await db.schema
      .createTable('content_search')
      .addColumn('content_id', 'integer', (c) => c.notNull().references('content.id').onDelete('cascade'))
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('folded', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_search_pk', ['content_id', 'language'])
      .execute();
    const trgm = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
    if (trgm.rows[0]?.ok) await sql`create index content_search_folded on content_search using gin (folded gin_trgm_ops)`.execute(db);
    // CT5: messages sent through the support form (to the event's support address, copy to the sender).
    await db.schema
      .createTable('support_messages')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('participation_id', 'integer', (c) => c.references('participations.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
