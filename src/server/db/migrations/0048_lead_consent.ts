import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the consent visitors gave at registration, per event: its text per language and the
    // legal basis (engine CONSENT_BASES); empty texts and null basis = not set.
    await db.schema
      .alterTable('events')
      .addColumn('consent_texts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('consent_basis', 'text')
      .execute();
    // Each lead's consent: how it was made (engine CONSENT_SOURCES; leads made before were all
    // badge scans) and when the visitor withdrew (null = given).
    await db.schema
      .alterTable('leads')
      .addColumn('consent_source', 'text', (c) => c.notNull().defaultTo('badgeScan'))
      .addColumn('consent_withdrawn_at', 'timestamptz')
      .execute();
    // Which leads each export file holds (their ids), so a visitor's subject access answer can
    // name the exports, who made them and when; null for exports made before (not known).
    await db.schema.alterTable('lead_exports').addColumn('lead_ids', 'jsonb').execute();
  },
};
