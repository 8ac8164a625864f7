import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the leads API's incremental sync reads leads in the order they last changed. Every
    // write to a lead (scan, repeat scan, qualification, any later change) sets `changed_at` to
    // its transaction's start time, by trigger so no write path can forget it; the sync cursor is
    // a keyset on (changed_at, id) with its own index per participation.
    await db.schema
      .alterTable('leads')
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`update leads set changed_at = greatest(received_at, coalesce(updated_at, received_at), coalesce(last_scanned_at, received_at))`.execute(db);
    await sql`create function leads_set_changed_at() returns trigger language plpgsql as $$
      begin
        new.changed_at := now();
        return new;
      end
    $$`.execute(db);
    await sql`create trigger leads_changed_at before insert or update on leads for each row execute function leads_set_changed_at()`.execute(db);
    await db.schema.createIndex('leads_changed').on('leads').columns(['participation_id', 'changed_at', 'id']).execute();

    // LD2: an exhibitor's API keys for its own systems: scoped, revocable, shown once (only the
    // hash of the key is kept; `prefix` is its first characters, for the exhibitor to recognise it).
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
      .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('revoked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('api_keys_participation').on('api_keys').columns(['participation_id', 'id']).execute();
  },
};
