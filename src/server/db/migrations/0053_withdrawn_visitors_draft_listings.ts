import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: a visitor's withdrawal of consent is kept on the visitor's registration row (null =
    // given), so a scan made after it, by any exhibitor, copies none of the visitor's fields.
    await db.schema.alterTable('visitors').addColumn('consent_withdrawn_at', 'timestamptz').execute();
    // Withdrawals made before were recorded on the leads only: the visitor of such a lead withdrew.
    await sql`
      update visitors set consent_withdrawn_at = w.at
      from (select visitor_id, min(consent_withdrawn_at) as at from leads where consent_withdrawn_at is not null and visitor_id is not null group by visitor_id) w
      where visitors.id = w.visitor_id`.execute(db);
    // F11: a form draft's changes to forms.yaml besides its patch: names listed under an approval
    // summary's or a document's `optional:` (engine OptionalListing), so the change that removes
    // them can be published in the same step.
    await db.schema
      .alterTable('form_drafts')
      .addColumn('listings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
  },
};
