import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { canAccess, findScreen } from '../../../engine/catalogue';
import { API_BASE } from '../../../engine/constants';
import { LANGUAGES } from '../../../engine/language';
import { markdownToPlain, searchFold, searchKeyword, snippetAround } from '../../../engine/search';
import { catalogue } from '../../../generated/screens';
import { translate } from '../../lib/messages';
import { pageOf, pageSchema } from '../../lib/paging';
import { PAGINATION } from '../../../engine/constants';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../auth/sessions';
import type { FormRegistry } from '../forms/form-set';
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

export default async function searchRoutes(app: FastifyInstance, { registry }: { registry: FormRegistry }) {
  // The forms' searchable texts per language, built once (the forms are read at start).
  const formIndex = new Map<string, FormEntry[]>(
    LANGUAGES.map((language) => [
      language,
      registry.definitions
        .filter((definition) => definition.screen)
        .map((definition) => {
          const files = registry.filesFor(definition.id, '');
          const title = `${definition.code} ${translate(language, definition.title)}`;
          const labels = [...labelKeys([files.schema, files.ui], new Set())].map((key) => translate(language, key)).filter((text) => text && !text.includes('.')).join(' · ');
          return { formId: definition.id, screen: definition.screen!, title, labels, folded: searchFold(`${title}\n${labels}`) };
        }),
    ]),
  );

  function formMatches(auth: AuthContext, language: string, keyword: string) {
    return (formIndex.get(language) ?? [])
      .filter((entry) => entry.folded.includes(keyword))
      .filter((entry) => {
        const definition = registry.find(entry.formId);
        const screen = findScreen(catalogue, entry.screen);
        if (!definition || !screen || !canAccess(screen, auth.displayedModules, auth.user.role)) return false;
        return auth.user.role !== 'contractor' || definition.audience === 'both';
      })
      .map((entry) => ({ kind: 'form' as SearchKind, id: entry.formId, title: entry.title, snippet: snippetAround(entry.labels, keyword), path: findScreen(catalogue, entry.screen)!.path }));
  }

  app.get<{ Querystring: { keyword: string; page: number; limit: number } }>(
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
      const pattern = `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      // Only the kinds whose screen the user may open; audience and publish time in SQL, so the
      // database counts and pages the matches and only one page of rows is read (CT3 budget).
      const kinds = CONTENT_KINDS.filter((kind) => {
        const screen = findScreen(catalogue, KIND_SCREEN[kind]);
        return screen !== undefined && canAccess(screen, auth.displayedModules, auth.user.role);
      });
      const forms = formMatches(auth, language, keyword);
      const matching = app.db
        .selectFrom('content')
        .innerJoin('content_search', 'content_search.content_id', 'content.id')
        .where('content.event_id', '=', event.id)
        .where('content.kind', 'in', kinds.length > 0 ? kinds : ['none' as 'manual'])
        .where('content.published_at', '<=', new Date())
        .where((eb) => eb.or([eb('content.audience', '=', sql<string[]>`'[]'::jsonb`), sql<boolean>`content.audience ?| ${sql.val(auth.displayedModules.length > 0 ? auth.displayedModules : [''])}::text[]`]))
        .where('content_search.language', '=', language)
        .where(sql<boolean>`content_search.folded like ${pattern} escape '\\'`);
      const counted = await matching.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      const contentTotal = Number(counted.count);
      const total = contentTotal + forms.length;
      const page = pageOf(request.query, total);
      const rows =
        page.offset < contentTotal
          ? await matching
              .select(['content.id', 'content.kind', 'content.title', 'content.description', 'content.body'])
              .orderBy(sql`case content.kind when 'manual' then 0 when 'announcement' then 1 else 2 end`)
              .orderBy('content.published_at', 'desc')
              .orderBy('content.id', 'desc')
              .offset(page.offset)
              .limit(page.limit)
              .execute()
          : [];
      const paths: Record<string, (id: number) => string> = {
        manual: (id) => `/manuals/detail?id=${id}`,
        announcement: (id) => `/announcements/detail?id=${id}`,
        faq: (id) => `/faq#faq-${id}`,
      };
      const content = rows.map((row) => {
        const text = [row.description, row.body].map((texts) => markdownToPlain(textIn(texts, language, event.default_language))).filter(Boolean).join(' — ');
        return { kind: row.kind as SearchKind, id: String(row.id), title: textIn(row.title, language, event.default_language), snippet: snippetAround(text, keyword), path: paths[row.kind]!(row.id) };
      });
      const formSlice = forms.slice(Math.max(0, page.offset - contentTotal), Math.max(0, page.offset + page.limit - contentTotal));
      return ok({ total, page: page.page, limit: page.limit, keyword, items: [...content, ...formSlice] });
    },
  );
}
