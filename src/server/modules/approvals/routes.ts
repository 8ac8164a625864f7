import type { ApiApp } from '../../lib/api-app';
import type { FastifyRequest } from 'fastify';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope, okEnvelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { summaryEntrySchema } from '../../../engine/schemas/approval-summary';
import { approvalNotes, approvalSummary } from '../../../engine/forms/approval-summary';
import { withEventSettings } from '../../../engine/forms/event-settings';
import { approvalPart, partsOf, partStates, type PartStates } from '../../../engine/forms/parts';
import type { EventRow } from '../../db/schema';
import { translate } from '../../lib/messages';

// O1: the organiser approves or rejects, with a comment, what waits for them: VIP lists, booth
// designs above the height limit, extra badges. Only submissions of the organiser's own event.

const decisionSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    formId: { type: 'string' },
    formCode: { type: 'string' },
    formTitle: { type: 'string', description: 'Locale key' },
    part: {
      type: ['object', 'null'],
      description: 'Of a form with parts (forms.yaml `parts:`), the part the decision is about (the one its approval rule reads); null for a form of one part',
      properties: { id: { type: 'string' }, title: { type: 'string', description: 'Locale key' } },
      required: ['id', 'title'],
      additionalProperties: false,
    },
    exhibitor: { type: 'string' },
    boothNum: { type: 'string' },
    submittedAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
    comment: { type: ['string', 'null'] },
    data: { type: 'object', additionalProperties: true },
    notes: {
      type: 'array',
      description: 'O1 F5: why it waits (a value above the event’s limit) and the fee due, in the caller’s language',
      items: { type: 'string' },
    },
    summary: {
      type: 'array',
      description: 'O1: what is decided, as forms.yaml approvalSummary declares it',
      items: summaryEntrySchema,
    },
  },
  required: ['id', 'formId', 'formCode', 'formTitle', 'part', 'exhibitor', 'boothNum', 'submittedAt', 'status', 'comment', 'data', 'notes', 'summary'],
  additionalProperties: false,
} as const;

type Decision = 'approved' | 'rejected';

export default async function approvalRoutes(app: ApiApp) {
  const config = app.config;
  const registry = app.forms.registry;
  const base = `${API_BASE}/approvals`;

  /**
   * Records the decision on waiting entries of the event (all or nothing), with an audit record
   * each and the exhibitor's e-mail through the queue; answers how many were decided.
   */
  async function decide(request: FastifyRequest, event: EventRow, ids: number[], decision: Decision, comment: string | null): Promise<number> {
    const auth = requireAuth(request);
    const decided = await app.db.transaction().execute(async (trx) => {
      const rows = await app.formEntries.decide(trx, { eventId: event.id, ids, status: decision, comment, by: auth.user.id });
      // Another event's entry, an unknown id and one already decided all look the same.
      if (rows.length !== ids.length) throw new AppError('notFound');
      for (const row of rows) {
        await app.audit.record(
          {
            action: `approval.${decision}`,
            subjectType: 'form_entry',
            subjectId: row.id,
            participationId: row.participation_id,
            before: { status: 'pending' },
            after: { status: decision, comment, form: row.form_id },
          },
          { request, db: trx },
        );
        await app.webhooks.emit(
          { type: 'approval.decided', eventId: event.id, data: { entryId: row.id, participationId: row.participation_id, formId: row.form_id, decision, comment } },
          trx,
        );
      }
      return rows;
    });
    for (const row of decided) await sendDecisionMail(event, row.participation_id, row.form_id, decision, comment);
    return decided.length;
  }

  /** O1: the exhibitor hears of the decision in its language (its last sign-in's, else the event's). */
  async function sendDecisionMail(event: EventRow, participationId: number, formId: string, decision: Decision, comment: string | null) {
    const definition = registry.find(formId);
    const users = await app.db
      .selectFrom('users')
      .innerJoin('participations', 'participations.id', 'users.participation_id')
      .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
      .select(['users.email', 'users.display_name', 'users.language', 'exhibitors.name as exhibitor'])
      .where('users.participation_id', '=', participationId)
      .where('users.role', '=', 'exhibitor')
      .where('users.status', '=', 'active')
      .execute();
    for (const user of users) {
      const language = user.language ?? event.default_language;
      const t = (key: string, params?: Record<string, string | number>) => translate(language, key, params);
      const params = {
        name: user.display_name,
        exhibitor: user.exhibitor,
        event: (event.names as Record<string, string>)[language] ?? event.name,
        form: `${definition?.code ?? formId} ${definition ? t(definition.title) : ''}`.trim(),
        comment: comment ?? '',
        link: `${config.publicUrl}/login?exhibitCode=${encodeURIComponent(event.code)}`,
      };
      const text = [t(`approvals.mail.${decision}.text`, params), comment ? t('approvals.mail.comment', params) : '', t('approvals.mail.signature', params)]
        .filter(Boolean)
        .join('\n\n');
      await app.mailer.send({ to: user.email, subject: t(`approvals.mail.${decision}.subject`, params), text });
    }
  }

  app.get(
    base,
    {
      config: { screen: 'approvals' },
      schema: {
        tags: ['approvals'],
        summary: "O1: submissions of this organiser's event that need a decision (pending by default)",
        querystring: { type: 'object', properties: { status: { type: 'string', enum: ['pending', 'approved', 'rejected'] } }, additionalProperties: false },
        response: { 200: envelope({ type: 'array', items: decisionSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const rows = await app.formEntries.approvalQueue(event.id, request.query.status ?? 'pending');
      // The limits and prices are the event's (forms.yaml's where the event set none).
      const settingRows = await app.db.selectFrom('event_settings').select(['name', 'value']).where('event_id', '=', event.id).execute();
      const settings = { values: Object.fromEntries(settingRows.map((setting) => [setting.name, setting.value])), currency: event.currency };
      return ok(
        rows.map((row) => {
          const found = registry.find(row.form_id);
          const definition = found ? withEventSettings(found, settings) : undefined;
          const data = (row.submitted_data ?? {}) as Record<string, unknown>;
          const schema = definition ? (registry.filesFor(definition.id, event.code).schema as { properties?: Record<string, unknown> }) : {};
          // A shared form's decision belongs to one part: named, with that part's submission time.
          const parts = definition ? partsOf(definition, schema) : null;
          const part = parts ? approvalPart(parts, definition!.approval) : undefined;
          const partSubmittedAt = part
            ? partStates({ parts: row.parts as PartStates | null, submitted_at: row.submitted_at, submitted_by: row.submitted_by }, parts!)[part.id]?.submittedAt
            : undefined;
          return {
            id: row.id,
            formId: row.form_id,
            formCode: definition?.code ?? row.form_id,
            formTitle: definition?.title ?? row.form_id,
            part: part ? { id: part.id, title: `forms.parts.${part.id}` } : null,
            exhibitor: row.exhibitor,
            boothNum: row.booth_num,
            submittedAt: partSubmittedAt ?? new Date(row.submitted_at!).toISOString(),
            status: row.approval_status!,
            comment: row.approval_comment,
            data,
            notes: definition
              ? approvalNotes(definition, schema, data).map(({ key, params }) =>
                  translate(request.language, key, { ...params, ...(typeof params.field === 'string' ? { field: translate(request.language, params.field) } : {}) }),
                )
              : [],
            summary: definition ? approvalSummary(definition, schema, data, request.language) : [],
          };
        }),
      );
    },
  );

  app.post(
    `${base}/:id`,
    {
      config: { screen: 'approvals' },
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
        response: okEnvelope,
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { decision, comment } = request.body;
      if (decision === 'rejected' && !comment?.trim()) throw new AppError('commentRequired');
      await decide(request, eventOf(auth), [request.params.id], decision, comment?.trim() || null);
      return ok(null);
    },
  );

  app.post(
    `${base}/bulk`,
    {
      config: { screen: 'approvals' },
      schema: {
        tags: ['approvals'],
        summary: 'O1: approve several waiting submissions at once (all or none), with one comment',
        body: {
          type: 'object',
          required: ['ids'],
          properties: {
            ids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 500, uniqueItems: true },
            comment: { type: 'string', maxLength: 1000 },
          },
          additionalProperties: false,
        },
        response: { 200: envelope({ type: 'object', properties: { approved: { type: 'integer' } }, required: ['approved'], additionalProperties: false }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const approved = await decide(request, eventOf(auth), request.body.ids, 'approved', request.body.comment?.trim() || null);
      return ok({ approved });
    },
  );
}
