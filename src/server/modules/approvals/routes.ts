import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { FormRegistry } from '../forms/registry';

// O1: the organiser approves or rejects, with a comment, what waits for them: VIP lists, booth
// designs above the height limit, extra badges. Only submissions of the organiser's own event.

const decisionSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    formId: { type: 'string' },
    formCode: { type: 'string' },
    formTitle: { type: 'string', description: 'Locale key' },
    exhibitor: { type: 'string' },
    boothNum: { type: 'string' },
    submittedAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
    comment: { type: ['string', 'null'] },
    data: { type: 'object', additionalProperties: true },
  },
} as const;

export default async function approvalRoutes(app: FastifyInstance, { registry }: { registry: FormRegistry }) {
  const base = `${API_BASE}/approvals`;

  app.get<{ Querystring: { status?: 'pending' | 'approved' | 'rejected' } }>(
    base,
    {
      config: { screen: 'approvals', roles: ['organiser'] },
      schema: {
        tags: ['approvals'],
        summary: "O1: submissions of this organiser's event that need a decision (pending by default)",
        querystring: { type: 'object', properties: { status: { type: 'string', enum: ['pending', 'approved', 'rejected'] } }, additionalProperties: false },
        response: { 200: envelope({ type: 'array', items: decisionSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await app.db
        .selectFrom('form_entries')
        .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select([
          'form_entries.id',
          'form_entries.form_id',
          'form_entries.submitted_at',
          'form_entries.submitted_data',
          'form_entries.approval_status',
          'form_entries.approval_comment',
          'exhibitors.name as exhibitor',
          'participations.booth_num',
        ])
        .where('participations.event_id', '=', eventOf(auth).id)
        .where('form_entries.approval_status', '=', request.query.status ?? 'pending')
        .orderBy('form_entries.submitted_at', 'asc')
        .execute();
      return ok(
        rows.map((row) => {
          const definition = registry.find(row.form_id);
          return {
            id: row.id,
            formId: row.form_id,
            formCode: definition?.code ?? row.form_id,
            formTitle: definition?.title ?? row.form_id,
            exhibitor: row.exhibitor,
            boothNum: row.booth_num,
            submittedAt: new Date(row.submitted_at!).toISOString(),
            status: row.approval_status!,
            comment: row.approval_comment,
            data: row.submitted_data ?? {},
          };
        }),
      );
    },
  );

  app.post<{ Params: { id: number }; Body: { decision: 'approved' | 'rejected'; comment?: string } }>(
    `${base}/:id`,
    {
      config: { screen: 'approvals', roles: ['organiser'] },
      schema: {
        tags: ['approvals'],
        summary: 'O1: approve or reject a waiting submission, with a comment the exhibitor sees',
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        body: {
          type: 'object',
          required: ['decision'],
          properties: { decision: { type: 'string', enum: ['approved', 'rejected'] }, comment: { type: 'string', maxLength: 1000 } },
          additionalProperties: false,
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { decision, comment } = request.body;
      if (decision === 'rejected' && !comment?.trim()) throw new AppError('commentRequired');
      const decided = await app.db
        .updateTable('form_entries')
        .set({ approval_status: decision, approval_comment: comment?.trim() || null, decided_at: new Date(), decided_by: auth.user.id })
        .where('id', '=', request.params.id)
        .where('approval_status', '=', 'pending')
        .where('participation_id', 'in', (eb) => eb.selectFrom('participations').select('id').where('event_id', '=', eventOf(auth).id))
        .executeTakeFirst();
      // Another event's entry, an unknown id and one already decided all look the same.
      if (Number(decided.numUpdatedRows) !== 1) throw new AppError('notFound');
      return ok(null);
    },
  );
}
