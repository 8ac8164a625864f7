import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { attachmentSchema, fileIdParam, fileResponse, sendAttachment } from './attachments';
import { mayRead, textIn, type ContentRow } from './store';

// CT1: manuals — mandatory first, then optional; each exhibitor's status moves from to be viewed
// to viewed (on opening) to acknowledged (a button; time and user recorded).

export const MANUAL_STATUSES = ['toView', 'viewed', 'acknowledged'] as const;
type ManualStatus = (typeof MANUAL_STATUSES)[number];

const manualSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: 'string' },
    mandatory: { type: 'boolean' },
    ackRequired: { type: 'boolean' },
    deadline: { type: ['string', 'null'], format: 'date-time' },
    status: { type: 'string', enum: [...MANUAL_STATUSES] },
    viewedAt: { type: ['string', 'null'], format: 'date-time' },
    acknowledgedAt: { type: ['string', 'null'], format: 'date-time' },
    acknowledgedBy: { type: ['string', 'null'] },
    attachments: { type: 'array', items: attachmentSchema },
  },
  // present() sends every field (the browser's types rely on it).
  required: ['id', 'title', 'description', 'mandatory', 'ackRequired', 'deadline', 'status', 'viewedAt', 'acknowledgedAt', 'acknowledgedBy', 'attachments'],
} as const;
const manualDetailSchema = {
  ...manualSchema,
  properties: { ...manualSchema.properties, body: { type: 'string', description: 'Markdown' } },
  required: [...manualSchema.required, 'body'],
} as const;
const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, required: ['id'] } as const;

export default async function manualRoutes(app: ApiApp) {
  const base = `${API_BASE}/content/manuals`;

  function participationId(auth: AuthContext): number {
    if (!auth.participation) throw new AppError('notFound');
    return auth.participation.id;
  }

  async function readable(auth: AuthContext, id?: number) {
    let query = app.db
      .selectFrom('content')
      .leftJoin('manual_status', (join) => join.onRef('manual_status.content_id', '=', 'content.id').on('manual_status.participation_id', '=', participationId(auth)))
      .leftJoin('users as ack', 'ack.id', 'manual_status.acknowledged_by')
      .selectAll('content')
      .select(['manual_status.viewed_at', 'manual_status.acknowledged_at', 'ack.display_name as acknowledged_by_name'])
      .where('content.event_id', '=', eventOf(auth).id)
      .where('content.kind', '=', 'manual');
    if (id !== undefined) query = query.where('content.id', '=', id);
    const rows = await query.orderBy('content.mandatory', 'desc').orderBy('content.position').orderBy('content.deadline').orderBy('content.id').execute();
    return rows.filter((row) => mayRead(auth, row));
  }

  const present = (row: ContentRow & { viewed_at: Date | null; acknowledged_at: Date | null; acknowledged_by_name: string | null }, language: string, eventLanguage: string) => {
    const status: ManualStatus = row.acknowledged_at ? 'acknowledged' : row.viewed_at ? 'viewed' : 'toView';
    return {
      id: row.id,
      title: textIn(row.title, language, eventLanguage),
      description: textIn(row.description, language, eventLanguage),
      mandatory: row.mandatory,
      ackRequired: row.ack_required,
      deadline: row.deadline ? new Date(row.deadline).toISOString() : null,
      status,
      viewedAt: row.viewed_at ? new Date(row.viewed_at).toISOString() : null,
      acknowledgedAt: row.acknowledged_at ? new Date(row.acknowledged_at).toISOString() : null,
      acknowledgedBy: row.acknowledged_by_name ?? null,
      attachments: row.attachments ?? [],
    };
  };

  app.get(
    base,
    {
      config: { screen: 'manuals' },
      schema: {
        tags: ['content'],
        summary: 'CT1: the manuals this exhibitor may read, mandatory first, with its status of each',
        querystring: { type: 'object', properties: { status: { type: 'string', enum: [...MANUAL_STATUSES] } }, additionalProperties: false },
        response: { 200: envelope({ type: 'array', items: manualSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const manuals = (await readable(auth)).map((row) => present(row, request.language, event.default_language));
      return ok(request.query.status ? manuals.filter((manual) => manual.status === request.query.status) : manuals);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { screen: 'manualDetail' },
      schema: { tags: ['content'], summary: 'CT1: one manual with its body; opening it marks it viewed', params: idParams, response: { 200: envelope(manualDetailSchema) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const [row] = await readable(auth, request.params.id);
      if (!row) throw new AppError('notFound');
      if (!row.viewed_at) {
        const now = new Date();
        await app.db
          .insertInto('manual_status')
          .values({ content_id: row.id, participation_id: participationId(auth), viewed_at: now, viewed_by: auth.user.id })
          .onConflict((oc) => oc.columns(['content_id', 'participation_id']).doNothing())
          .execute();
        row.viewed_at = now;
      }
      return ok({ ...present(row, request.language, event.default_language), body: textIn(row.body, request.language, event.default_language) });
    },
  );

  app.post(
    `${base}/:id/acknowledge`,
    {
      config: { screen: 'manualDetail' },
      schema: { tags: ['content'], summary: 'CT1: acknowledge a manual (time and user recorded)', params: idParams, body: NO_BODY, response: { 200: envelope(manualSchema) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const [row] = await readable(auth, request.params.id);
      if (!row) throw new AppError('notFound');
      if (!row.acknowledged_at) {
        const now = new Date();
        await app.db
          .insertInto('manual_status')
          .values({ content_id: row.id, participation_id: participationId(auth), viewed_at: now, viewed_by: auth.user.id, acknowledged_at: now, acknowledged_by: auth.user.id })
          .onConflict((oc) =>
            oc.columns(['content_id', 'participation_id']).doUpdateSet({ acknowledged_at: now, acknowledged_by: auth.user.id }).where('manual_status.acknowledged_at', 'is', null),
          )
          .execute();
        await app.audit.record({ action: 'manual.acknowledge', subjectType: 'manual', subjectId: row.id }, { request });
      }
      const [updated] = await readable(auth, row.id);
      return ok(present(updated!, request.language, event.default_language));
    },
  );

  app.get(
    `${base}/:id/attachments/:fileId`,
    {
      config: { screen: 'manualDetail' },
      schema: {
        tags: ['content'],
        summary: "CT1 C3: download one of a manual's attachments (whoever may read the manual; others get code 404)",
        params: { type: 'object', required: ['id', 'fileId'], properties: { id: idParams.properties.id, fileId: fileIdParam } },
        response: fileResponse,
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const [row] = await readable(auth, request.params.id);
      if (!row || !(row.attachments ?? []).some((attachment) => attachment.id === request.params.fileId)) throw new AppError('notFound');
      return sendAttachment(app, request, reply, eventOf(auth).id, request.params.fileId);
    },
  );
}
