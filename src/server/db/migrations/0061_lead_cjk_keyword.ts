import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The characters of Chinese, Japanese and Korean text as `search_folded` holds them (Han, kana,
 * the iteration marks, and Hangul, which the fold leaves as conjoining jamo), as a PostgreSQL
 * regular-expression class. The lead list's keyword condition repeats this literal (the partial
 * index below is used only by a condition that names the same predicate).
 */
export const CJK_CHARACTER_CLASS =
  '[\\u1100-\\u11ff\\u3005-\\u3007\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\U00020000-\\U0003ffff]';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // LD2: pg_trgm forms trigrams of ASCII letters and digits only, so a keyword of one or two
    // Chinese, Japanese or Korean characters had no index and was tested with strpos on every lead
    // of the exhibitor (50,000 for the largest at 5 M leads). These tokens are each CJK character
    // and each pair of adjacent ones, prefixed with the participation, so the index's entry for
    // "this exhibitor's 茶" holds exactly the exhibitor's leads containing 茶 (a plain array GIN
    // index: no extension needed, PGlite included). An expression index keeps the tokens right
    // whoever writes `search_folded`, and adds no column (no table rewrite at 5 M leads). Partial:
    // most leads are Latin, and a lead without CJK text pays only the predicate on insert.
    await sql`
      create function lead_cjk_tokens(participation integer, folded text) returns text[]
      language plpgsql immutable strict parallel safe cost 200 as $fn$
      declare
        prefix text := participation::text || ':';
        tokens text[] := '{}';
        run text;
        n integer;
      begin
        for run in select m[1] from regexp_matches(folded, ${sql.lit(`${CJK_CHARACTER_CLASS}+`)}, 'g') as m loop
          n := char_length(run);
          for i in 1 .. n loop
            tokens := tokens || (prefix || substr(run, i, 1));
            if i < n then
              tokens := tokens || (prefix || substr(run, i, 2));
            end if;
          end loop;
        end loop;
        return tokens;
      end
      $fn$`.execute(db);
    await sql`
      create index leads_cjk_keyword on leads using gin (lead_cjk_tokens(participation_id, search_folded)) with (gin_pending_list_limit = 256)
      where search_folded ~ ${sql.lit(CJK_CHARACTER_CLASS)}`.execute(db);
  },
};
