import type { Kysely } from 'kysely';
import { LANGUAGES } from '../../engine/language';
import { markdownToPlain, pickLanguage, searchFold } from '../../engine/search';
import type { Database, Translated } from '../db/schema';

// CT3: the search rows of a content item — one folded text per language (title, category,
// description, body; a missing translation falls back to the event's language). Written by the
// organiser's content routes and by the demo seed.

type Indexed = { id: number; title: Translated; description: Translated; body: Translated; category: Translated };

/** An item's search rows: one folded text per language, with the event-language fallback. */
export function searchRows(row: Indexed, eventLanguage: string) {
  return LANGUAGES.map((language) => ({
    content_id: row.id,
    language,
    folded: searchFold([row.title, row.category, row.description, row.body].map((texts) => markdownToPlain(pickLanguage(texts, language, eventLanguage))).join('\n')),
  }));
}

/** Rewrites the item's search rows. */
export async function indexContent(db: Kysely<Database>, row: Indexed, eventLanguage: string): Promise<void> {
  await db.deleteFrom('content_search').where('content_id', '=', row.id).execute();
  await db.insertInto('content_search').values(searchRows(row, eventLanguage)).execute();
}
