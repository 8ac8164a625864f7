import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { formatEventDay } from '../../../engine/locale-format';
import { leadsEraseAt, RETENTION_REMINDER_DAYS } from '../../../engine/retention';
import { translate } from '../../lib/messages';
import type { PeriodicJob } from '../../lib/server-module';
import { eraseLeads } from './erase';

// Leads are kept for the organiser's retention period after the show
// (events.lead_retention_days), exhibitors are reminded a week before, then they are erased.
// Plain jobs `(app) => Promise<…>`, listed in privacyJobs for the housekeeping scheduler.

const eraseAtOf = leadsEraseAt;

/** Mails each exhibitor with leads of an event nearing its erasure, once (dedupe key per event and user). */
export async function remindBeforeErasure(app: FastifyInstance, publicUrl: string, now = new Date()): Promise<number> {
  const events = await app.db
    .selectFrom('events')
    .select(['id', 'name', 'names', 'default_language', 'date_order', 'ends_at', 'lead_retention_days'])
    .where('lead_retention_days', 'is not', null)
    .where('lead_retention_reminded_at', 'is', null)
    .where('leads_erased_at', 'is', null)
    .where(sql<boolean>`ends_at + make_interval(days => lead_retention_days - ${RETENTION_REMINDER_DAYS}::int) <= ${now}`)
    .execute();
  let sent = 0;
  for (const event of events) {
    const eraseAt = eraseAtOf(event)!;
    const exhibitors = await app.db
      .selectFrom('users')
      .innerJoin('participations', 'participations.id', 'users.participation_id')
      .select(['users.id', 'users.email', 'users.display_name', 'users.language'])
      .where('participations.event_id', '=', event.id)
      .where('users.role', '=', 'exhibitor')
      .where('users.status', '=', 'active')
      .where((eb) => eb.exists(eb.selectFrom('leads').select('leads.id').whereRef('leads.participation_id', '=', 'participations.id')))
      .execute();
    for (const user of exhibitors) {
      if (!user.email) continue;
      // In the exhibitor's language (else the event's), with the event's name in that language.
      const language = user.language ?? event.default_language;
      const params = {
        name: user.display_name,
        event: event.names[language] ?? event.name,
        date: formatEventDay(eraseAt.toISOString().slice(0, 10), { language, dateOrder: event.date_order }),
        url: `${publicUrl}/leadReport`,
      };
      if (
        await app.mailer.send({
          to: user.email,
          subject: translate(language, 'privacy.reminder.subject', params),
          text: translate(language, 'privacy.reminder.body', params),
          kind: 'leadRetentionReminder',
          refId: event.id,
          dedupeKey: `lead-retention-${event.id}-${user.id}`,
        })
      )
        sent++;
    }
    await app.db.updateTable('events').set({ lead_retention_reminded_at: now }).where('id', '=', event.id).execute();
  }
  return sent;
}

/** Erases the leads (cards and exports too) of every event whose retention period has ended. */
export async function eraseExpiredLeads(app: FastifyInstance, now = new Date()): Promise<number> {
  const events = await app.db
    .selectFrom('events')
    .select(['id', 'organisation_id', 'ends_at', 'lead_retention_days'])
    .where('lead_retention_days', 'is not', null)
    .where('leads_erased_at', 'is', null)
    .where(sql<boolean>`ends_at + make_interval(days => lead_retention_days) <= ${now}`)
    .execute();
  for (const event of events) {
    const participations = (await app.db.selectFrom('participations').select('id').where('event_id', '=', event.id).execute()).map((row) => row.id);
    const leadIds =
      participations.length === 0 ? [] : (await app.db.selectFrom('leads').select('id').where('participation_id', 'in', participations).execute()).map((row) => Number(row.id));
    const counts = await eraseLeads(app, leadIds, participations);
    await app.db.updateTable('events').set({ leads_erased_at: now }).where('id', '=', event.id).execute();
    // The record says what was erased and why, never the erased data.
    await app.audit.record({
      action: 'privacy.leads.retentionErase',
      subjectType: 'event',
      subjectId: event.id,
      eventId: event.id,
      organisationId: event.organisation_id,
      participationId: null,
      actor: null,
      after: { ...counts, retentionDays: event.lead_retention_days, eraseAt: eraseAtOf(event)!.toISOString() },
    });
  }
  return events.length;
}

/** The privacy jobs, in one place (for the housekeeping scheduler). */
export function privacyJobs(options: { publicUrl: string }): PeriodicJob[] {
  return [
    { name: 'privacy.remindBeforeErasure', everyMs: 60 * 60 * 1000, run: (app) => remindBeforeErasure(app, options.publicUrl) },
    { name: 'privacy.eraseExpiredLeads', everyMs: 60 * 60 * 1000, run: (app) => eraseExpiredLeads(app) },
  ];
}
