import type { Kysely } from 'kysely';
import type { Database, EventRow } from '../db/schema';
import type { AuthContext } from '../plugins/sessions';
import { AppError } from './app-error';

// O2: an organiser reaches only its organisation's events and their exhibitors. Anything
// else — another organisation's, an unknown id — answers 404 alike, so ids reveal nothing.

/** The signed-in organiser's organisation (routes are limited to organisers by their config). */
export function organisationOf(auth: AuthContext): number {
  if (auth.user.role !== 'organiser' || auth.user.organisation_id === null) throw new AppError('noPermission');
  return auth.user.organisation_id;
}

/** One of the organiser's events, or 404. */
export async function organiserEvent(db: Kysely<Database>, auth: AuthContext, eventId: number): Promise<EventRow> {
  const event = await db.selectFrom('events').selectAll().where('id', '=', eventId).where('organisation_id', '=', organisationOf(auth)).executeTakeFirst();
  if (!event) throw new AppError('notFound');
  return event;
}

/** The organiser's current event (users.event_id), which must still be its organisation's. */
export async function currentOrganiserEvent(db: Kysely<Database>, auth: AuthContext): Promise<EventRow> {
  if (auth.user.event_id === null) throw new AppError('noCurrentEvent');
  return organiserEvent(db, auth, auth.user.event_id);
}

/** A participation of the organiser's current event, or 404. */
export async function organiserParticipation(db: Kysely<Database>, auth: AuthContext, participationId: number) {
  const event = await currentOrganiserEvent(db, auth);
  const participation = await db
    .selectFrom('participations')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .selectAll('participations')
    .select(['exhibitors.name', 'exhibitors.legal_name', 'exhibitors.logo_url', 'exhibitors.code', 'exhibitors.organisation_id'])
    .where('participations.id', '=', participationId)
    .where('participations.event_id', '=', event.id)
    .executeTakeFirst();
  if (!participation) throw new AppError('notFound');
  return { event, participation };
}
