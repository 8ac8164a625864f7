import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { searchFold } from '../../../engine/search';

/** Leads read and written per statement while the folded search text is filled in. */
const BATCH_0040 = 2000;

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: the lead list's keyword finds "Nguyễn" for "nguyen". PostgreSQL's `unaccent` is not in
    // the embedded database and a `translate()` expression index was too slow at 1,000,000 leads,
    // so the application keeps the folded text (name, company, e-mail, badge code, each folded by
    // the engine's search fold, joined by a line break) on the lead, with a trigram index on it.
    // Existing leads are folded here by that same function, in id order, a batch at a time.
    await db.schema
      .alterTable('leads')
      .addColumn('search_folded', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    let after = 0;
    for (;;) {
      const rows: Array<{ id: number | string; visitor_name: string; company: string; email: string; badge_code: string }> = await db
        .selectFrom('leads')
        .select(['id', 'visitor_name', 'company', 'email', 'badge_code'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH_0040)
        .execute();
      if (rows.length === 0) break;
      const folded = rows.map((row) => ({
        id: Number(row.id),
        text: [row.visitor_name, row.company, row.email, row.badge_code].map(searchFold).join('\n'),
      }));
      await sql`update leads set search_folded = f.text
        from jsonb_to_recordset(${JSON.stringify(folded)}::jsonb) as f(id bigint, text text)
        where leads.id = f.id`.execute(db);
      after = Number(rows[rows.length - 1]!.id);
    }
    // The keyword no longer matches the raw fields: their index goes, the folded text's comes.
    await sql`drop index if exists leads_keyword`.execute(db);
    // pg_trgm is there wherever migration 0004 could create it (a database without it searches
    // without the index, as before).
    const trgm = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
    if (trgm.rows[0]?.ok) await sql`create index leads_search_folded on leads using gin (search_folded gin_trgm_ops)`.execute(db);
  },
};
