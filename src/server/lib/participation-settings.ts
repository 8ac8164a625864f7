import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';

// O2: an exhibitor's deadlines and quotas are rows keyed by name (forms.yaml names the deadline
// of each form, a schema's `quota` keyword and the member screens name quotas). The event's row
// (no participation) is the default; a participation's row overrides it for that exhibitor.

export interface ParticipationSettings {
  deadlines: Record<string, Date>;
  quotas: Record<string, number>;
}

type SettingsTable = 'deadlines' | 'quotas';
const VALUE_COLUMN: Record<SettingsTable, string> = { deadlines: 'due_at', quotas: 'value' };

/**
 * A JSON object name → effective value for the participation in `participationIdRef` of the
 * event in `eventIdRef` (SQL references of the surrounding query), for one round trip queries.
 */
export function effectiveSettingsSql(table: SettingsTable, participationIdRef: string, eventIdRef: string): RawBuilder<Record<string, unknown>> {
  return sql<Record<string, unknown>>`(select coalesce(jsonb_object_agg(s.name, s.value), '{}'::jsonb) from (
    select distinct on (name) name, ${sql.ref(VALUE_COLUMN[table])} as value from ${sql.table(table)}
    where event_id = ${sql.ref(eventIdRef)} and (participation_id = ${sql.ref(participationIdRef)} or participation_id is null)
    order by name, participation_id nulls last) s)`;
}

/** Turns the JSON of effectiveSettingsSql into typed settings (timestamps arrive as strings). */
export function parseSettings(deadlines: unknown, quotas: unknown): ParticipationSettings {
  const parsed: ParticipationSettings = { deadlines: {}, quotas: {} };
  for (const [name, value] of Object.entries((deadlines ?? {}) as Record<string, string>)) parsed.deadlines[name] = new Date(value);
  for (const [name, value] of Object.entries((quotas ?? {}) as Record<string, number>)) parsed.quotas[name] = Number(value);
  return parsed;
}

/** Up to this many participations, their settings are read by id. */
const FEW_PARTICIPATIONS = 500;

/** The effective settings of several participations of one event, in two queries. */
export async function loadParticipationSettings(db: Kysely<Database>, eventId: number, participationIds: number[]): Promise<Map<number, ParticipationSettings>> {
  const result = new Map<number, ParticipationSettings>(participationIds.map((id) => [id, { deadlines: {}, quotas: {} }]));
  if (participationIds.length === 0) return result;
  // A page's few participations read the event's rows and their own only (a big show keeps a
  // quota row per exhibitor); many read the event's whole table once.
  const few = participationIds.length <= FEW_PARTICIPATIONS;
  const [deadlines, quotas] = await Promise.all([
    db
      .selectFrom('deadlines')
      .select(['participation_id', 'name', 'due_at'])
      .where('event_id', '=', eventId)
      .$if(few, (query) => query.where((eb) => eb.or([eb('participation_id', 'is', null), eb('participation_id', 'in', participationIds)])))
      .execute(),
    db
      .selectFrom('quotas')
      .select(['participation_id', 'name', 'value'])
      .where('event_id', '=', eventId)
      .$if(few, (query) => query.where((eb) => eb.or([eb('participation_id', 'is', null), eb('participation_id', 'in', participationIds)])))
      .execute(),
  ]);
  const wanted = new Set(participationIds);
  // Event values first, then overrides on top.
  for (const pass of [false, true]) {
    for (const row of deadlines) {
      if ((row.participation_id !== null) !== pass) continue;
      for (const id of pass ? (wanted.has(row.participation_id!) ? [row.participation_id!] : []) : participationIds) result.get(id)!.deadlines[row.name] = new Date(row.due_at);
    }
    for (const row of quotas) {
      if ((row.participation_id !== null) !== pass) continue;
      for (const id of pass ? (wanted.has(row.participation_id!) ? [row.participation_id!] : []) : participationIds) result.get(id)!.quotas[row.name] = row.value;
    }
  }
  return result;
}

/** One effective quota (0 when neither the event nor the exhibitor sets it). */
export async function effectiveQuota(db: Kysely<Database>, eventId: number, participationId: number, name: string): Promise<number> {
  const row = await db
    .selectFrom('quotas')
    .select('value')
    .where('event_id', '=', eventId)
    .where('name', '=', name)
    .where((eb) => eb.or([eb('participation_id', '=', participationId), eb('participation_id', 'is', null)]))
    .orderBy(sql`participation_id nulls last`)
    .executeTakeFirst();
  return row?.value ?? 0;
}
