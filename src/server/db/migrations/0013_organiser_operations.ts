import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // Reopen (spec §8 "contact support"): the organiser reopens a submit-once form for
    // one exhibitor. The reopening counts while the last submission is older than it, so the
    // exhibitor's next submission closes the form again without anyone deleting the row.
    await db.schema
      .createTable('form_reopens')
      .addColumn('participation_id', 'integer', (c) => c.notNull().references('participations.id').onDelete('cascade'))
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('reopened_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('reopened_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addPrimaryKeyConstraint('form_reopens_pkey', ['participation_id', 'form_id'])
      .execute();
    // The language a user last signed in with: e-mails sent without a request (decisions,
    // reminders) are written in it; none yet = the event's default language.
    await db.schema.alterTable('users').addColumn('language', 'text').execute();
  },
};
