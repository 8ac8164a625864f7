import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // P1: the company of a contractor login (display_name holds its contact person).
    await db.schema
      .alterTable('users')
      .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
