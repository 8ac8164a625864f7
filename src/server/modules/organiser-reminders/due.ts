import { formatEventTimeWithOffset } from '../../../engine/locale-format';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { deadlineOfForm, formDisplayName, type FormDefinition } from '../../../engine/forms/definitions';
import type { EventRow } from '../../db/schema';
import { translate } from '../../lib/messages';
import { progressMatrix } from '../../lib/progress-matrix';

// Reminders: e-mails to exhibitors whose mandatory forms are not submitted, N days before
// each deadline (events.reminder_days). One e-mail per exhibitor, deadline and reminder day: the
// mail queue's dedupe key (reminder:<participation>:<deadline>:<due>:<days>) makes a second run,
// on this instance or another, queue nothing. A moved deadline is a new deadline.

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReminderContext {
  definitions: FormDefinition[];
  publicUrl: string;
}

interface Recipient {
  participation_id: number | null;
  email: string;
  display_name: string;
  language: string | null;
  exhibitor: string;
}

async function recipientsOf(app: FastifyInstance, participationIds: number[]): Promise<Map<number, Recipient[]>> {
  const result = new Map<number, Recipient[]>();
  if (participationIds.length === 0) return result;
  const rows = await app.db
    .selectFrom('users')
    .innerJoin('participations', 'participations.id', 'users.participation_id')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .select(['users.participation_id', 'users.email', 'users.display_name', 'users.language', 'exhibitors.name as exhibitor'])
    .where('users.participation_id', 'in', participationIds)
    .where('users.role', '=', 'exhibitor')
    .where('users.status', '=', 'active')
    .execute();
  for (const row of rows) result.set(row.participation_id!, [...(result.get(row.participation_id!) ?? []), row]);
  return result;
}

/**
 * Queues one reminder e-mail per exhibitor user listing the missing forms; records it once in
 * the audit log. Answers whether it was queued (false: that reminder exists already).
 */
export async function queueReminder(
  app: FastifyInstance,
  context: ReminderContext,
  event: EventRow,
  participationId: number,
  recipients: Recipient[],
  forms: Array<{ definition: FormDefinition; due: Date | null }>,
  dedupeKey: string,
  actor: { id: number; name: string; role: string } | null,
  reason: { daysBefore?: number; deadline?: string },
): Promise<boolean> {
  let queued = false;
  for (const user of recipients) {
    const language = user.language ?? event.default_language;
    const t = (key: string, params?: Record<string, string | number>) => translate(language, key, params);
    const lines = forms.map(({ definition, due }) => {
      const form = formDisplayName(definition.code, t(definition.title));
      return due
        ? t('reminders.mail.lineWithDeadline', { form, date: formatEventTimeWithOffset(due, { language, dateOrder: event.date_order }, event.utc_offset_minutes) })
        : `- ${form}`;
    });
    const params = {
      name: user.display_name,
      exhibitor: user.exhibitor,
      event: (event.names as Record<string, string>)[language] ?? event.name,
      forms: lines.join('\n'),
      link: `${context.publicUrl}/login?exhibitCode=${encodeURIComponent(event.code)}`,
    };
    const sent = await app.mailer.send({
      to: user.email,
      subject: t('reminders.mail.subject', params),
      text: t('reminders.mail.text', params),
      dedupeKey: `${dedupeKey}:${user.email}`,
      kind: 'reminder',
      refId: participationId,
    });
    queued ||= sent;
  }
  if (queued) {
    await app.audit.record({
      action: 'reminder.sent',
      subjectType: 'participation',
      subjectId: participationId,
      eventId: event.id,
      participationId,
      organisationId: event.organisation_id,
      actor,
      after: { forms: forms.map((f) => f.definition.id), ...reason },
    });
  }
  return queued;
}

/** The due check the scheduler runs: every event not yet over, every reminder day that has come. */
export async function sendDueReminders(app: FastifyInstance, context: ReminderContext, now = new Date()): Promise<number> {
  const events = await app.db.selectFrom('events').selectAll().where('ends_at', '>', now).where(sql<boolean>`jsonb_array_length(reminder_days) > 0`).execute();
  const mandatory = context.definitions.filter((d) => d.mandatory);
  let sent = 0;
  for (const event of events) {
    const days = [...new Set((event.reminder_days as number[]).filter((d) => Number.isInteger(d) && d >= 0))].sort((a, b) => a - b);
    if (days.length === 0) continue;
    const matrix = await progressMatrix(app, event.id, mandatory, { missingOnly: true, now, withDeadlines: true });
    const recipients = await recipientsOf(
      app,
      matrix.rows.map((r) => r.participationId),
    );
    for (const row of matrix.rows) {
      // Per deadline name and date (a form reopened for this exhibitor has a date of its own): the
      // forms it closes that are still missing (closed ones are past help).
      const byDeadline = new Map<string, { deadline: string; due: Date; forms: FormDefinition[] }>();
      for (const definition of mandatory) {
        const due = deadlineOfForm(row.deadlines, definition);
        if (!due || !row.missingMandatory.includes(definition.id) || due.getTime() <= now.getTime()) continue;
        const groupKey = `${definition.deadline}/${due.toISOString()}`;
        const group = byDeadline.get(groupKey) ?? { deadline: definition.deadline, due, forms: [] };
        group.forms.push(definition);
        byDeadline.set(groupKey, group);
      }
      for (const { deadline, due, forms } of byDeadline.values()) {
        // The nearest reminder day already reached (7 and 1: at 3 days before, the 7-day one).
        const day = days.find((d) => now.getTime() >= due.getTime() - d * DAY_MS);
        if (day === undefined) continue;
        const key = `reminder:${row.participationId}:${deadline}:${due.toISOString()}:${day}`;
        if (
          await queueReminder(
            app,
            context,
            event,
            row.participationId,
            recipients.get(row.participationId) ?? [],
            forms.map((definition) => ({ definition, due })),
            key,
            null,
            { daysBefore: day, deadline },
          )
        )
          sent += 1;
      }
    }
  }
  return sent;
}
