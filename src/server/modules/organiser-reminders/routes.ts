import type { ApiApp } from '../../lib/api-app';
import { reminderDaysSchema } from '../../../engine/schemas/reminder';
import { API_BASE } from '../../../engine/constants';
import { deadlineOfForm } from '../../../engine/forms/definitions';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { progressMatrix } from '../../lib/progress-matrix';
import { queueReminder, type ReminderContext } from './due';

// Reminders: the organiser picks the reminder days of its event, sees the reminders sent
// and sends one now to a selection of exhibitors (those with mandatory forms missing).

export default async function reminderRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  const { publicUrl } = app.config;
  const base = `${API_BASE}/organiser/reminders`;
  // The forms of the set in use, read when a reminder is sent.
  const context = (): ReminderContext => ({ definitions: registry.definitions, publicUrl });
  const route = { screen: 'organiserReminders' } as const;

  app.get(
    base,
    {
      config: route,
      schema: {
        tags: ['organiser'],
        summary: 'The reminder days of the event and the last reminders sent',
        response: {
          200: envelope({
            type: 'object',
            properties: {
              days: { type: 'array', items: { type: 'integer' } },
              recent: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    at: { type: 'string', format: 'date-time' },
                    exhibitor: { type: 'string' },
                    forms: { type: 'array', items: { type: 'string' } },
                    daysBefore: { type: ['integer', 'null'] },
                    by: { type: 'string' },
                  },
                  required: ['at', 'exhibitor', 'forms', 'daysBefore', 'by'],
                  additionalProperties: false,
                },
              },
            },
            required: ['days', 'recent'],
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const event = eventOf(requireAuth(request));
      const recent = await app.db
        .selectFrom('audit_log')
        .leftJoin('participations', 'participations.id', 'audit_log.participation_id')
        .leftJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select(['audit_log.at', 'audit_log.after', 'audit_log.actor_name', 'exhibitors.name'])
        .where('audit_log.event_id', '=', event.id)
        .where('audit_log.action', '=', 'reminder.sent')
        .orderBy('audit_log.id', 'desc')
        .limit(100)
        .execute();
      const codeOf = new Map(registry.definitions.map((d) => [d.id, d.code]));
      return ok({
        days: event.reminder_days as number[],
        recent: recent.map((r) => {
          const after = (r.after ?? {}) as { forms?: string[]; daysBefore?: number };
          return {
            at: new Date(r.at).toISOString(),
            exhibitor: r.name ?? '',
            forms: (after.forms ?? []).map((id) => codeOf.get(id) ?? id),
            daysBefore: after.daysBefore ?? null,
            by: r.actor_name,
          };
        }),
      });
    },
  );

  app.put(
    base,
    {
      config: route,
      schema: {
        tags: ['organiser'],
        summary: 'The days before each deadline on which exhibitors with missing mandatory forms are reminded',
        body: reminderDaysSchema,
        response: { 200: envelope({ type: 'object', properties: { days: { type: 'array', items: { type: 'integer' } } }, required: ['days'], additionalProperties: false }) },
      },
    },
    async (request) => {
      const event = eventOf(requireAuth(request));
      const days = [...request.body.days].sort((a, b) => b - a);
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('events')
          .set({ reminder_days: JSON.stringify(days) })
          .where('id', '=', event.id)
          .execute();
        await app.audit.record(
          { action: 'event.reminderDays', subjectType: 'event', subjectId: event.id, eventId: event.id, before: event.reminder_days, after: days },
          { request, db: trx },
        );
      });
      return ok({ days });
    },
  );

  app.post(
    `${base}/send`,
    {
      config: route,
      schema: {
        tags: ['organiser'],
        summary: 'Remind the selected exhibitors of their missing mandatory forms now (once a day each)',
        body: {
          type: 'object',
          required: ['participationIds'],
          properties: { participationIds: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 5000, uniqueItems: true } },
          additionalProperties: false,
        },
        response: {
          200: envelope({ type: 'object', properties: { sent: { type: 'integer' }, skipped: { type: 'integer' } }, required: ['sent', 'skipped'], additionalProperties: false }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const wanted = new Set(request.body.participationIds);
      const mandatory = registry.definitions.filter((d) => d.mandatory);
      // Only this event's exhibitors are ever reached; another's ids are simply not among them.
      const matrix = await progressMatrix(app, event.id, mandatory, { missingOnly: true, withDeadlines: true });
      const rows = matrix.rows.filter((r) => wanted.has(r.participationId));
      const users = await app.db
        .selectFrom('users')
        .innerJoin('participations', 'participations.id', 'users.participation_id')
        .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
        .select(['users.participation_id', 'users.email', 'users.display_name', 'users.language', 'exhibitors.name as exhibitor'])
        .where('users.participation_id', 'in', rows.length ? rows.map((r) => r.participationId) : [0])
        .where('users.role', '=', 'exhibitor')
        .where('users.status', '=', 'active')
        .execute();
      const today = new Date().toISOString().slice(0, 10);
      let sent = 0;
      for (const row of rows) {
        const forms = mandatory.filter((d) => row.missingMandatory.includes(d.id)).map((definition) => ({ definition, due: deadlineOfForm(row.deadlines, definition) }));
        const recipients = users.filter((u) => u.participation_id === row.participationId);
        const actor = { id: auth.user.id, name: auth.user.display_name, role: auth.user.role };
        if (await queueReminder(app, context(), event, row.participationId, recipients, forms, `reminder-now:${row.participationId}:${today}`, actor, {})) sent += 1;
      }
      return ok({ sent, skipped: request.body.participationIds.length - sent });
    },
  );
}
