import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // P1 F4: a form shared with the contractor is submitted part by part
    // (forms.yaml `parts`, src/engine/forms/parts.ts); each part's own submission is recorded
    // here so that one side's submission neither locks nor withdraws the other's.
    await db.schema.alterTable('form_entries').addColumn('parts', 'jsonb').execute();
    await sql`comment on column form_entries.parts is ${sql.lit('Per part of a form with parts: { <part id>: { submittedAt, submittedBy } }. Null = the form is one part, or it was submitted whole before parts existed (every part counts as submitted at submitted_at).')}`.execute(
      db,
    );
  },
};
