import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { deadlineOfForm, formDeadlineKey, formStatus } from '../../../engine/forms/definitions';
import { AppError } from '../../lib/app-error';
import { loadParticipationSettings } from '../../lib/participation-settings';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';

// Reopen: the "contact support" path of spec §8 made real. For one exhibitor the organiser moves
// the deadline of this one form (a participation row in `deadlines` under the form's own key;
// the other forms sharing its deadline name keep theirs) and/or reopens a submit-once form until
// its next submission.

export default async function reopenRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  app.post(
    `${API_BASE}/organiser/exhibitors/:participationId/forms/:formId/reopen`,
    {
      config: { screen: 'organiserProgress' },
      schema: {
        tags: ['organiser'],
        summary: 'Extend the deadline of a form and/or reopen a submit-once form for one exhibitor',
        params: {
          type: 'object',
          properties: { participationId: { type: 'integer', minimum: 1 }, formId: { type: 'string', maxLength: 64 } },
          required: ['participationId', 'formId'],
        },
        body: { type: 'object', properties: { until: { type: 'string', format: 'date-time' } }, additionalProperties: false },
        response: {
          200: envelope({
            type: 'object',
            properties: { deadline: { type: ['string', 'null'], format: 'date-time' }, reopened: { type: 'boolean' }, status: { type: 'string' } },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const definition = registry.find(request.params.formId);
      const participation = await app.db
        .selectFrom('participations')
        .select(['id', 'flags'])
        .where('id', '=', request.params.participationId)
        .where('event_id', '=', event.id)
        .executeTakeFirst();
      // Another organisation's exhibitor, another event's and an unknown one look the same.
      if (!participation || !definition) throw new AppError('notFound');
      const now = new Date();
      const deadlines = (await loadParticipationSettings(app.db, event.id, [participation.id])).get(participation.id)!.deadlines;
      const deadline = deadlineOfForm(deadlines, definition);
      const entry = await app.formEntries.find(participation.id, definition.id);
      const until = request.body.until ? new Date(request.body.until) : null;
      const passed = deadline !== null && deadline.getTime() < now.getTime();
      if (passed && !until) throw new AppError('reopenUntilRequired');
      if (until && until.getTime() <= now.getTime()) throw new AppError('reopenUntilPast');
      if (until && until.getTime() > new Date(event.ends_at).getTime()) throw new AppError('reopenUntilAfterShow');
      const submitOnce = Boolean(
        definition.submitOnceFlag && (participation.flags as Record<string, boolean>)[definition.submitOnceFlag] === true && entry?.status === 'submitted',
      );
      if (!until && !submitOnce) throw new AppError('reopenNotNeeded');

      await app.db.transaction().execute(async (trx) => {
        if (until) {
          const name = formDeadlineKey(definition.id);
          await trx.deleteFrom('deadlines').where('participation_id', '=', participation.id).where('name', '=', name).execute();
          await trx.insertInto('deadlines').values({ event_id: event.id, participation_id: participation.id, name, due_at: until }).execute();
        }
        if (submitOnce) {
          await app.formEntries.reopen(trx, participation.id, definition.id, auth.user.id, now);
        }
        await app.audit.record(
          {
            action: 'form.reopen',
            subjectType: 'form',
            subjectId: definition.id,
            participationId: participation.id,
            before: { deadline: deadline?.toISOString() ?? null, submitOnceLocked: submitOnce },
            after: { deadline: (until ?? deadline)?.toISOString() ?? null, submitOnceLocked: false },
          },
          { request, db: trx },
        );
      });
      const effective = until ?? deadline;
      return ok({ deadline: effective?.toISOString() ?? null, reopened: submitOnce, status: formStatus(entry ?? null, effective, now) });
    },
  );
}
