import type { Kysely } from 'kysely';
import { hiddenVisitorFields, withoutHiddenFields, type LeadVisitorField } from '../../engine/lead-fields';
import type { Database } from '../db/schema';

// LD2: the organiser's choice of the visitor fields an event's exhibitors receive, read where an
// answer to an exhibitor (or a webhook payload) is made. Read at each use, so a change applies
// to the next read. The filter itself is the engine's `withoutHiddenFields`.

/** The visitor fields hidden from the exhibitors of this event. */
export async function hiddenVisitorFieldsOf(db: Kysely<Database>, eventId: number): Promise<LeadVisitorField[]> {
  const row = await db.selectFrom('events').select('hidden_visitor_fields').where('id', '=', eventId).executeTakeFirst();
  return hiddenVisitorFields(row?.hidden_visitor_fields);
}

/** A lead (API field names) as the exhibitors of this event may receive it. */
export async function leadForExhibitor<T extends object>(db: Kysely<Database>, eventId: number, lead: T): Promise<T> {
  return withoutHiddenFields(lead, await hiddenVisitorFieldsOf(db, eventId));
}
