import type { ApiApp } from '../../lib/api-app';
import type { ContentKind } from '../../db/schema';
import { API_BASE } from '../../../engine/constants';
import { canAccess, findScreen } from '../../../engine/catalogue';
import { catalogue } from '../../../generated/screens';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import announcementRoutes from './announcements';
import attachmentRoutes from './attachments';
import manualRoutes from './manuals';
import organiserContentRoutes from './organiser';
import searchRoutes from './search';
import { mayRead, textIn } from './store';
import supportRoutes from './support';

// Event content (tips, announcements, manuals, FAQ) in the caller's language. Each item is
// gated by the modules of the screen it belongs to, the same rule as the screen itself.

const contentSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: ['tip', 'announcement', 'manual', 'faq', 'terms', 'introduction', 'supportContact'] },
    title: { type: 'string' },
    body: { type: 'string' },
    publishedAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'kind', 'title', 'body', 'publishedAt'],
  additionalProperties: false,
} as const;

function allowed(auth: AuthContext, screenId: string): boolean {
  const screen = findScreen(catalogue, screenId);
  return screen !== undefined && canAccess(screen, auth.displayedModules, auth.user.role);
}

export default async function contentRoutes(app: ApiApp) {
  await app.register(manualRoutes);
  await app.register(announcementRoutes);
  await app.register(supportRoutes);
  await app.register(searchRoutes);
  await app.register(organiserContentRoutes);
  await app.register(attachmentRoutes);

  const base = `${API_BASE}/system/content`;
  const present = (
    row: { id: number; kind: ContentKind; title: Record<string, string>; body: Record<string, string>; published_at: Date },
    language: string,
    eventLanguage: string,
  ) => ({
    id: row.id,
    kind: row.kind,
    title: textIn(row.title, language, eventLanguage),
    body: textIn(row.body, language, eventLanguage),
    publishedAt: new Date(row.published_at).toISOString(),
  });

  app.get(
    `${base}/content/:id`,
    {
      schema: {
        tags: ['content'],
        summary: 'One content item of the event, in the request language',
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        response: { 200: envelope(contentSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await app.db.selectFrom('content').selectAll().where('id', '=', request.params.id).where('event_id', '=', eventOf(auth).id).executeTakeFirst();
      if (!row) throw new AppError('notFound');
      if (!allowed(auth, row.screen_id)) throw new AppError('noPermission');
      if (!mayRead(auth, row)) throw new AppError('notFound');
      return ok(present(row, request.language, eventOf(auth).default_language));
    },
  );

  app.get(
    `${base}/list`,
    {
      schema: {
        tags: ['content'],
        summary: 'Content items of one kind that the user may see, newest first',
        querystring: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { type: 'string', enum: ['tip', 'announcement', 'manual', 'faq', 'terms', 'introduction', 'supportContact'] } },
        },
        response: { 200: envelope({ type: 'array', items: contentSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await app.db
        .selectFrom('content')
        .selectAll()
        .where('event_id', '=', eventOf(auth).id)
        .where('kind', '=', request.query.kind)
        .orderBy('published_at', 'desc')
        .execute();
      return ok(rows.filter((row) => mayRead(auth, row)).map((row) => present(row, request.language, eventOf(auth).default_language)));
    },
  );
}
