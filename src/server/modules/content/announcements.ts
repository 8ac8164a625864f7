import type { ApiApp } from '../../lib/api-app';
import { sql } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { mayRead, textIn, type ContentRow } from './store';

// CT2: announcements — unread first (pinned before others), newest first; the header shows the
// unread count; opening one marks it read for this user.

const announcementSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    body: { type: 'string', description: 'Markdown' },
    pinned: { type: 'boolean' },
    read: { type: 'boolean' },
    publishedAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'title', 'pinned', 'read', 'publishedAt'],
} as const;
/** One announcement opened: the list's fields and its text. */
const announcementDetailSchema = { ...announcementSchema, required: [...announcementSchema.required, 'body'] } as const;
const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, required: ['id'] } as const;

export default async function announcementRoutes(app: ApiApp) {
  const base = `${API_BASE}/content/announcements`;

  /** The user's readable announcements with their read state, in list order. */
  async function readable(auth: AuthContext, id?: number) {
    let query = app.db
      .selectFrom('content')
      .leftJoin('announcement_reads', (join) => join.onRef('announcement_reads.content_id', '=', 'content.id').on('announcement_reads.user_id', '=', auth.user.id))
      .selectAll('content')
      .select(sql<boolean>`announcement_reads.read_at is not null`.as('read'))
      .where('content.event_id', '=', eventOf(auth).id)
      .where('content.kind', '=', 'announcement')
      .where('content.published_at', '<=', new Date());
    if (id !== undefined) query = query.where('content.id', '=', id);
    const rows = await query
      .orderBy(sql`announcement_reads.read_at is not null`)
      .orderBy('content.pinned', 'desc')
      .orderBy('content.published_at', 'desc')
      .orderBy('content.id', 'desc')
      .execute();
    return rows.filter((row) => mayRead(auth, row));
  }

  const present = (row: ContentRow & { read: boolean }, language: string, eventLanguage: string) => ({
    id: row.id,
    title: textIn(row.title, language, eventLanguage),
    pinned: row.pinned,
    read: Boolean(row.read),
    publishedAt: new Date(row.published_at).toISOString(),
  });

  app.get(
    base,
    {
      config: { screen: 'announcements' },
      schema: {
        tags: ['content'],
        summary: 'CT2: announcements, unread first',
        querystring: pageQuerySchema,
        response: { 200: envelope({ ...pageSchema(announcementSchema, { unread: { type: 'integer' } }), required: ['total', 'page', 'limit', 'items', 'unread'] } as const) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const rows = await readable(auth);
      const page = pageOf(request.query, rows.length);
      return ok({
        total: rows.length,
        page: page.page,
        limit: page.limit,
        unread: rows.filter((row) => !row.read).length,
        items: rows.slice(page.offset, page.offset + page.limit).map((row) => present(row, request.language, event.default_language)),
      });
    },
  );

  app.get(
    `${base}/unread-count`,
    {
      config: { screen: 'announcements' },
      schema: {
        tags: ['content'],
        summary: 'CT2: how many announcements this user has not read (the header badge)',
        response: { 200: envelope({ type: 'object', properties: { unread: { type: 'integer' } }, required: ['unread'] }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      if (!auth.event) return ok({ unread: 0 });
      return ok({ unread: (await readable(auth)).filter((row) => !row.read).length });
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { screen: 'announcementDetail' },
      schema: { tags: ['content'], summary: 'CT2: one announcement; opening it marks it read', params: idParams, response: { 200: envelope(announcementDetailSchema) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const [row] = await readable(auth, request.params.id);
      if (!row) throw new AppError('notFound');
      if (!row.read) {
        await app.db
          .insertInto('announcement_reads')
          .values({ content_id: row.id, user_id: auth.user.id })
          .onConflict((oc) => oc.columns(['content_id', 'user_id']).doNothing())
          .execute();
        row.read = true;
      }
      return ok({ ...present(row, request.language, event.default_language), body: textIn(row.body, request.language, event.default_language) });
    },
  );
}
