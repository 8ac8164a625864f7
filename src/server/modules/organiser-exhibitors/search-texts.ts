import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { foldedText } from '../../lib/folded-text';

// O2: the exhibitors list's keyword is looked for in a participation's `search_folded`: its
// exhibitor's name, code and legal name, its booth and its main account's login and e-mail, each
// folded as content search folds (searchFold), one per line. A folded keyword has no line break,
// so a match lies within one text, as when each text was matched alone. Triggers (migration
// 0059) set the column to null when one of these texts changes, whoever writes it; the list
// folds the null rows of the event here before it searches.

interface UnfoldedRow {
  id: number;
  version: string;
  name: string;
  code: string | null;
  booth_num: string;
  legal_name: string;
  login: string | null;
  email: string | null;
}

/** The searched texts of one participation, folded, one per line. */
export function exhibitorSearchText(texts: ReadonlyArray<string | null>): string {
  return [...new Set(texts.filter((text): text is string => !!text).map(foldedText))].join('\n');
}

/**
 * Folds and stores the searched texts of the event's participations that have none (new or
 * changed since), or of those of `only` among them, and answers them by participation id. A row is stored only if it did not change
 * since it was read (its row version, `xmin`): a text changed meanwhile leaves it null, to be
 * folded by the next search; the caller matches the answered texts itself for this search.
 */
export async function refreshExhibitorSearchTexts(db: Kysely<Database>, eventId: number, only?: readonly number[]): Promise<Map<number, string>> {
  // The rows to fold first, alone: usually none, and the planner's guess of how many there are
  // (from statistics taken before the last search folded them) must not shape the texts' read.
  const pending = await db
    .selectFrom('participations')
    .select('id')
    .where('event_id', '=', eventId)
    .where('search_folded', 'is', null)
    .$if(only !== undefined, (query) => query.where('id', '=', sql<number>`any(${sql.val(only)}::int[])`))
    .execute();
  if (pending.length === 0) return new Map();
  const unfolded = await sql<UnfoldedRow>`select p.id, p.xmin::text as version, e.name, e.code, p.booth_num, e.legal_name, u.login, u.email
    from participations p
    join exhibitors e on e.id = p.exhibitor_id
    left join users u on u.participation_id = p.id and u.role = 'exhibitor'
    where p.id = any(${sql.val(pending.map((row) => row.id))}::int[]) and p.search_folded is null`.execute(db);
  const texts = new Map<number, { version: string; texts: Array<string | null> }>();
  for (const row of unfolded.rows) {
    const known = texts.get(row.id);
    // A participation with several main accounts (one row each) keeps all their logins and e-mails.
    if (known) known.texts.push(row.login, row.email);
    else texts.set(row.id, { version: row.version, texts: [row.name, row.code, row.booth_num, row.legal_name, row.login, row.email] });
  }
  const ids = [...texts.keys()];
  const folded = new Map(ids.map((id) => [id, exhibitorSearchText(texts.get(id)!.texts)]));
  await sql`update participations p set search_folded = v.folded
    from unnest(${sql.val(ids)}::int[], ${sql.val(ids.map((id) => texts.get(id)!.version))}::text[], ${sql.val(ids.map((id) => folded.get(id)!))}::text[]) as v(id, version, folded)
    where p.id = v.id and p.search_folded is null and p.xmin::text = v.version`.execute(db);
  return folded;
}
