import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the lead keyword's conditions name pg_trgm's operators (a pair of letters is looked up
    // by word similarity), so the extension is required from here on, not only where earlier
    // migrations found it. Every PostgreSQL with its contrib modules has it; the embedded database
    // loads it (createPglite).
    const available = await sql<{ name: string }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
    if (available.rows.length === 0) {
      throw new Error(
        "This PostgreSQL server lacks the pg_trgm extension, which the portal's keyword searches need: install PostgreSQL's contrib modules (Debian's postgresql package includes them) and start the portal again.",
      );
    }
    await sql`create extension if not exists pg_trgm`.execute(db);
  },
};
