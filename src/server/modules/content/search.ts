import type { ApiApp } from '../../lib/api-app';
import { sql } from 'kysely';
import { canAccess, findScreen } from '../../../engine/catalogue';
import { API_BASE } from '../../../engine/constants';
import { LANGUAGES } from '../../../engine/language';
import { markdownToPlain, searchFold, searchKeyword, snippetAround } from '../../../engine/search';
import { catalogue } from '../../../generated/screens';
import { lookup, type LocaleTable } from '../../../engine/i18n';
import { translate } from '../../lib/messages';
import { pageOf, pageSchema } from '../../lib/paging';
import { PAGINATION } from '../../../engine/constants';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { FormSet } from '../../plugins/forms/form-set';
import type { AuthContext } from '../../plugins/sessions';
import { KIND_SCREEN, textIn } from './store';

// CT3: /search?keyword= across manuals, announcements, FAQ and forms (titles, descriptions, field
// labels) in the user's language. Content is matched on its folded search rows (content_search);
// forms on their translated titles and labels, folded once per language.

export const SEARCH_KINDS = ['manual', 'announcement', 'faq', 'form'] as const;
type SearchKind = (typeof SEARCH_KINDS)[number];
const CONTENT_KINDS = ['manual', 'announcement', 'faq'] as const;

const resultSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: [...SEARCH_KINDS] },
    id: { type: 'string' },
    title: { type: 'string' },
    snippet: { type: 'string' },
    path: { type: 'string', description: 'Where the portal opens it' },
  },
  required: ['kind', 'id', 'title', 'snippet', 'path'],
} as const;

/** An event's content item as the search reads it (in order: manuals, announcements, FAQ; newest first). */
interface SearchEntry {
  id: number;
  kind: string;
  audience: string[];
  publishedAt: number;
  folded: string;
}

/** Event × language search texts kept in memory at most. */
const CACHED_EVENT_LANGUAGES = 32;

/**
 * A search text's character pairs (UTF-16 units, so any script: a CJK word has no spaces to cut
 * at) as bits of a fixed-size set. A keyword found in a text has every one of its pairs there, so
 * a text missing any of the keyword's bits cannot hold it and is not scanned; the texts left are
 * tested as before (a bit may be shared by two pairs: never a wrong match, only a wasted test).
 */
const PAIR_BITS = 4096;
const PAIR_WORDS = PAIR_BITS / 32;

function pairBit(first: number, second: number): number {
  return Math.imul(Math.imul(first, 0x01000193) ^ second, 0x9e3779b1) >>> 20;
}

/** Each text's pair bits, one after another (PAIR_WORDS words a text). */
function pairSets(texts: readonly string[]): Uint32Array {
  const sets = new Uint32Array(texts.length * PAIR_WORDS);
  texts.forEach((text, index) => {
    const base = index * PAIR_WORDS;
    for (let at = 0; at + 1 < text.length; at += 1) {
      const bit = pairBit(text.charCodeAt(at), text.charCodeAt(at + 1));
      const word = base + (bit >>> 5);
      sets[word] = (sets[word] ?? 0) | (1 << (bit & 31));
    }
  });
  return sets;
}

/** The keyword's pair bits as (word, mask) pairs; none for a one-character keyword (every text may hold it). */
function keywordPairs(keyword: string): Array<[number, number]> {
  const words = new Map<number, number>();
  for (let at = 0; at + 1 < keyword.length; at += 1) {
    const bit = pairBit(keyword.charCodeAt(at), keyword.charCodeAt(at + 1));
    words.set(bit >>> 5, (words.get(bit >>> 5) ?? 0) | (1 << (bit & 31)));
  }
  return [...words];
}

/** Whether text `index` has every pair bit of the keyword. */
function mayHold(sets: Uint32Array, index: number, pairs: ReadonlyArray<[number, number]>): boolean {
  const base = index * PAIR_WORDS;
  // Both sides as signed 32-bit integers (a mask holding bit 31 is negative).
  for (const [word, mask] of pairs) if (((sets[base + word] ?? 0) & mask) !== mask) return false;
  return true;
}

/** An event's search texts in one language as held in memory, with their pair bits. */
interface Searchable {
  version: string;
  entries: SearchEntry[];
  pairs: Uint32Array;
}

interface FormEntry {
  formId: string;
  screen: string;
  title: string;
  labels: string;
  folded: string;
}

/** Locale keys of a schema's and UI schema's titles and descriptions, at any depth. */
function labelKeys(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) labelKeys(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'title' || key === 'description' || key === 'ui:title' || key === 'ui:description') && typeof value === 'string') into.add(value);
      else labelKeys(value, into);
    }
  }
  return into;
}

/** A text of a form set in a language: the form's own strings as the set has them, else the built tables. */
function formText(set: FormSet, formId: string, language: string, key: string): string {
  const prefix = `forms.${formId}.`;
  if (!key.startsWith(prefix)) return translate(language, key);
  const strings = set.stringsFor(formId);
  const own = (table: LocaleTable | undefined) => (table ? lookup(table, key.slice(prefix.length)) : undefined);
  return own(strings[language]) ?? own(strings.en) ?? translate(language, key);
}

/** The forms' searchable texts per language, as one form set has them. */
function formIndexOf(set: FormSet): Map<string, FormEntry[]> {
  return new Map(
    LANGUAGES.map((language) => [
      language,
      set.definitions
        .filter((definition) => definition.screen)
        .map((definition) => {
          const files = set.filesFor(definition.id, '');
          const title = `${definition.code} ${formText(set, definition.id, language, definition.title)}`;
          const labels = [...labelKeys([files.schema, files.ui], new Set())]
            .map((key) => formText(set, definition.id, language, key))
            .filter((text) => text && !text.includes('.'))
            .join(' · ');
          return { formId: definition.id, screen: definition.screen!, title, labels, folded: searchFold(`${title}\n${labels}`) };
        }),
    ]),
  );
}

export default async function searchRoutes(app: ApiApp) {
  // Built for the form set in use and again when a reload swaps another in (a changed title or
  // label is found without a restart); every instance builds its own.
  let formIndex: { version: string; entries: Map<string, FormEntry[]> } | null = null;
  const formEntries = (set: FormSet, language: string): FormEntry[] => {
    if (formIndex?.version !== set.version) formIndex = { version: set.version, entries: formIndexOf(set) };
    return formIndex.entries.get(language) ?? [];
  };

  /**
   * CT3 budget: an event's folded search texts per language, held in memory and read again only
   * when the event's content changed (its number of changes, kept by trigger: one row read by key
   * per search; every server instance checks for itself). A substring test over an event's content in memory
   * takes a few milliseconds, where LIKE over every row (CJK words have no trigrams) took 50–100.
   */
  const cache = new Map<string, Searchable>();
  async function searchable(eventId: number, language: string): Promise<Searchable> {
    const stamp = await app.db.selectFrom('content_changes').select('changes').where('event_id', '=', eventId).executeTakeFirst();
    const version = String(stamp?.changes ?? 0);
    const key = `${eventId}:${language}`;
    const cached = cache.get(key);
    if (cached?.version === version) return cached;
    const rows = await app.db
      .selectFrom('content')
      .innerJoin('content_search', 'content_search.content_id', 'content.id')
      .select(['content.id', 'content.kind', 'content.audience', 'content.published_at', 'content_search.folded'])
      .where('content.event_id', '=', eventId)
      .where('content.kind', 'in', [...CONTENT_KINDS])
      .where('content_search.language', '=', language)
      .orderBy(sql`case content.kind when 'manual' then 0 when 'announcement' then 1 else 2 end`)
      .orderBy('content.published_at', 'desc')
      .orderBy('content.id', 'desc')
      .execute();
    const entries = rows.map((row) => ({ id: row.id, kind: row.kind, audience: row.audience ?? [], publishedAt: new Date(row.published_at).getTime(), folded: row.folded }));
    // A handful of events at once is the working set; the oldest entry goes first.
    cache.delete(key);
    if (cache.size >= CACHED_EVENT_LANGUAGES) cache.delete(cache.keys().next().value!);
    const read = { version, entries, pairs: pairSets(entries.map((entry) => entry.folded)) };
    cache.set(key, read);
    return read;
  }

  function formMatches(auth: AuthContext, language: string, keyword: string) {
    const set = app.forms.current();
    return formEntries(set, language)
      .filter((entry) => entry.folded.includes(keyword))
      .filter((entry) => {
        const definition = set.find(entry.formId);
        const screen = findScreen(catalogue, entry.screen);
        if (!definition || !screen || !canAccess(screen, auth.displayedModules, auth.user.role)) return false;
        return auth.user.role !== 'contractor' || definition.audience === 'both';
      })
      .map((entry) => ({
        kind: 'form' as SearchKind,
        id: entry.formId,
        title: entry.title,
        snippet: snippetAround(entry.labels, keyword),
        path: findScreen(catalogue, entry.screen)!.path,
      }));
  }

  app.get(
    `${API_BASE}/search`,
    {
      config: { screen: 'search' },
      schema: {
        tags: ['content'],
        summary: 'CT3: search manuals, announcements, FAQ and forms in the request language (case, width and diacritics ignored)',
        querystring: {
          type: 'object',
          required: ['keyword'],
          properties: {
            keyword: { type: 'string', maxLength: 1000 },
            page: { type: 'integer', minimum: 1, default: PAGINATION.defaultPage },
            limit: { type: 'integer', enum: [...PAGINATION.pageSizes], default: PAGINATION.defaultLimit },
          },
          additionalProperties: false,
        },
        response: { 200: envelope(pageSchema(resultSchema, { keyword: { type: 'string' } })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const language = request.language;
      const keyword = searchKeyword(request.query.keyword);
      if (!keyword || !auth.event) return ok({ total: 0, page: 1, limit: request.query.limit, keyword, items: [] });
      const event = eventOf(auth);
      // Only the kinds whose screen the user may open; audience and publish time as the lists apply them.
      const kinds = new Set<string>(
        CONTENT_KINDS.filter((kind) => {
          const screen = findScreen(catalogue, KIND_SCREEN[kind]);
          return screen !== undefined && canAccess(screen, auth.displayedModules, auth.user.role);
        }),
      );
      const forms = formMatches(auth, language, keyword);
      const now = Date.now();
      const modules = new Set(auth.displayedModules);
      const { entries, pairs } = await searchable(event.id, language);
      const wanted = keywordPairs(keyword);
      const matches = entries.filter(
        (entry, index) =>
          kinds.has(entry.kind) &&
          entry.publishedAt <= now &&
          (entry.audience.length === 0 || entry.audience.some((module) => modules.has(module))) &&
          mayHold(pairs, index, wanted) &&
          entry.folded.includes(keyword),
      );
      const contentTotal = matches.length;
      const total = contentTotal + forms.length;
      const page = pageOf(request.query, total);
      const pageIds = matches.slice(page.offset, page.offset + page.limit).map((entry) => entry.id);
      const byId = new Map(
        (pageIds.length === 0 ? [] : await app.db.selectFrom('content').select(['id', 'kind', 'title', 'description', 'body']).where('id', 'in', pageIds).execute()).map((row) => [
          row.id,
          row,
        ]),
      );
      const rows = pageIds.map((id) => byId.get(id)).filter((row) => row !== undefined);
      const paths: Record<string, (id: number) => string> = {
        manual: (id) => `/manuals/detail?id=${id}`,
        announcement: (id) => `/announcements/detail?id=${id}`,
        faq: (id) => `/faq#faq-${id}`,
      };
      const content = rows.map((row) => {
        const text = [row.description, row.body]
          .map((texts) => markdownToPlain(textIn(texts, language, event.default_language)))
          .filter(Boolean)
          .join(' — ');
        return {
          kind: row.kind as SearchKind,
          id: String(row.id),
          title: textIn(row.title, language, event.default_language),
          snippet: snippetAround(text, keyword),
          path: paths[row.kind]!(row.id),
        };
      });
      const formSlice = forms.slice(Math.max(0, page.offset - contentTotal), Math.max(0, page.offset + page.limit - contentTotal));
      return ok({ total, page: page.page, limit: page.limit, keyword, items: [...content, ...formSlice] });
    },
  );
}
