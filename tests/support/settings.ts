import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

// O2 in tests: give one exhibitor its own deadline or quota (the organiser's per-exhibitor
// override), or drop its overrides so the event's values apply again.

async function eventOf(db: Kysely<Database>, participationId: number): Promise<number> {
  return (await db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow()).event_id;
}

export async function setParticipationDeadline(db: Kysely<Database>, participationId: number, name: string, dueAt: Date | null): Promise<void> {
  await db.deleteFrom('deadlines').where('participation_id', '=', participationId).where('name', '=', name).execute();
  if (dueAt === null) {
    // "No deadline" for this exhibitor: hide the event's value behind a far-future override is not
    // the same thing, so drop the event's value in the test database instead.
    await db
      .deleteFrom('deadlines')
      .where('event_id', '=', await eventOf(db, participationId))
      .where('name', '=', name)
      .execute();
    return;
  }
  await db
    .insertInto('deadlines')
    .values({ event_id: await eventOf(db, participationId), participation_id: participationId, name, due_at: dueAt })
    .execute();
}

export async function setParticipationQuota(db: Kysely<Database>, participationId: number, name: string, value: number): Promise<void> {
  await db.deleteFrom('quotas').where('participation_id', '=', participationId).where('name', '=', name).execute();
  await db
    .insertInto('quotas')
    .values({ event_id: await eventOf(db, participationId), participation_id: participationId, name, value })
    .execute();
}

/** Drops every override of the participation: the event's deadlines and quotas apply again. */
export async function clearParticipationOverrides(db: Kysely<Database>, participationId: number): Promise<void> {
  await db.deleteFrom('deadlines').where('participation_id', '=', participationId).execute();
  await db.deleteFrom('quotas').where('participation_id', '=', participationId).execute();
}

/** The participation's effective deadline of this name, as the portal applies it. */
export async function effectiveDeadline(db: Kysely<Database>, participationId: number, name: string): Promise<Date | null> {
  const row = await db
    .selectFrom('deadlines')
    .select('due_at')
    .where('event_id', '=', await eventOf(db, participationId))
    .where('name', '=', name)
    .where((eb) => eb.or([eb('participation_id', '=', participationId), eb('participation_id', 'is', null)]))
    .orderBy(sql`participation_id nulls last`)
    .executeTakeFirst();
  return row ? new Date(row.due_at) : null;
}
