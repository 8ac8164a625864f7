import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
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
};
