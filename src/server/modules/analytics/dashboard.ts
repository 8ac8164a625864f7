import type { ApiApp } from '../../lib/api-app';
import { sql, type Kysely } from 'kysely';
import { BREAKDOWN_TOP_DEFAULT, BREAKDOWN_TOP_MAX, NONE_KEY, inEnumOrder, leaderboard, topWithOther, showTrend, type ShowDayHours } from '../../../engine/analytics';
import { API_BASE } from '../../../engine/constants';
import { LEAD_TEMPERATURES, LEAD_TYPES, eventDay, eventHour, formatEventDay } from '../../../engine/leads';
import { formatOffset } from '../../../engine/time';
import type { Database, EventRow } from '../../db/schema';
import { envelope } from '../../lib/schemas';
import { dashboardSchema, type CountByKey, type Dashboard, type TrendGranularity, type UserCount } from '../../../engine/schemas/analytics';
import { eventOf } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageQuerySchema, pageSchema } from '../../lib/paging';
import { exportRecordSchema, exportsPage } from '../../lib/lead-exports-list';
import { ownParticipation, toNumber } from './shared';

// LA1-LA4: the lead dashboard of the caller's participation, in one call, read only from
// lead_rollup (kept by triggers on leads) and the participation's users: two index range
// scans on the rollup's primary key (participation_id, dimension, key, event_hour) whatever
// the number of leads. An exhibitor and its team users see the same dashboard; the download
// list and the invitations (the exhibitor's records) are the exhibitor's only.

/**
 * The dashboard's three reads: per dimension and key (all time and today), per hour for the
 * trend, and the participation's people. Exported so the tests can EXPLAIN the real queries.
 */
export function dashboardQueries(db: Kysely<Database>, participationId: number, todayStartHour: number) {
  return {
    byKey: db
      .selectFrom('lead_rollup')
      .select((eb) => [
        'dimension',
        'key',
        sql<number>`sum(${eb.ref('leads')})::int`.as('total'),
        sql<number>`coalesce(sum(${eb.ref('leads')}) filter (where ${eb.ref('event_hour')} >= ${todayStartHour} and ${eb.ref('event_hour')} < ${todayStartHour + 24}), 0)::int`.as(
          'today',
        ),
      ])
      .where('participation_id', '=', participationId)
      .where('dimension', 'in', ['all', 'country', 'user', 'type', 'temperature', 'known'])
      .groupBy(['dimension', 'key']),
    hours: db
      .selectFrom('lead_rollup')
      .select(['event_hour as hour', 'leads'])
      .where('participation_id', '=', participationId)
      .where('dimension', '=', 'all')
      .where('key', '=', '')
      .where('leads', '>', 0),
    people: db.selectFrom('users').select(['id', 'display_name', 'role', 'status']).where('participation_id', '=', participationId),
  };
}

/** The dashboard's figures, from the rollup only. */
export async function buildDashboard(
  db: Kysely<Database>,
  participationId: number,
  offsetMinutes: number,
  options: { granularity: TrendGranularity; top: number; now?: Date; showDays?: ShowDayHours[]; day?: string },
): Promise<Dashboard> {
  const todayStart = eventDay(eventHour(options.now ?? new Date(), offsetMinutes)) * 24;
  const chosenDay = options.day ? Math.floor(Date.parse(`${options.day}T00:00:00Z`) / 86_400_000) : undefined;
  const queries = dashboardQueries(db, participationId, todayStart);
  const [byKey, hours, people] = await Promise.all([queries.byKey.execute(), queries.hours.execute(), queries.people.execute()]);

  const of = (dimension: string): CountByKey[] =>
    byKey.filter((row) => row.dimension === dimension && toNumber(row.total) > 0).map((row) => ({ key: row.key, leads: toNumber(row.total) }));
  const sumOf = (dimension: string, key: string, column: 'total' | 'today' = 'total') =>
    byKey.filter((row) => row.dimension === dimension && row.key === key).reduce((sum, row) => sum + toNumber(row[column]), 0);

  const names = new Map(people.map((person) => [String(person.id), person.display_name]));
  const users: UserCount[] = of('user')
    .map((c) => ({ userId: Number(c.key), name: names.get(c.key) ?? `#${c.key}`, leads: c.leads }))
    .sort((a, b) => b.leads - a.leads || a.name.localeCompare(b.name));
  const total = sumOf('all', '');
  const unqualified = sumOf('type', NONE_KEY);

  return {
    offsetMinutes,
    offsetLabel: formatOffset(offsetMinutes),
    today: formatEventDay(todayStart / 24),
    summary: {
      total,
      today: sumOf('all', '', 'today'),
      hot: sumOf('temperature', 'hot'),
      qualified: total - unqualified,
      unqualified,
      unknownBadges: sumOf('known', 'false'),
      activeTeamUsers: people.filter((p) => p.role === 'team_user' && p.status === 'active').length,
      scanningUsers: users.length,
    },
    trend: showTrend(
      hours.map((h) => ({ hour: h.hour, leads: toNumber(h.leads) })),
      options.granularity,
      { days: options.showDays ?? [], today: todayStart / 24, chosenDay: Number.isFinite(chosenDay) ? chosenDay : undefined },
    ),
    countries: topWithOther(of('country'), options.top),
    users: users.slice(0, options.top),
    types: total === 0 ? [] : inEnumOrder(of('type'), LEAD_TYPES),
    temperatures: total === 0 ? [] : inEnumOrder(of('temperature'), LEAD_TEMPERATURES),
    leaderboard: leaderboard(users),
  };
}

/** LA2: the event's show days with their hours; the days from its start to its end if none are recorded. */
export function showDaysOf(event: Pick<EventRow, 'show_days' | 'starts_at' | 'ends_at' | 'utc_offset_minutes'>): ShowDayHours[] {
  const recorded = Array.isArray(event.show_days) ? event.show_days : [];
  const days = recorded.map((d) => ({ day: Math.floor(Date.parse(`${d.date}T00:00:00Z`) / 86_400_000), opens: d.opens, closes: d.closes })).filter((d) => Number.isFinite(d.day));
  if (days.length > 0) return days;
  const first = eventDay(eventHour(event.starts_at, event.utc_offset_minutes));
  const last = Math.max(first, eventDay(eventHour(event.ends_at, event.utc_offset_minutes)));
  return Array.from({ length: Math.min(31, last - first + 1) }, (_, i) => ({ day: first + i }));
}

export default async function dashboardRoutes(app: ApiApp) {
  const base = `${API_BASE}/analytics`;

  app.get(
    `${base}/dashboard`,
    {
      config: { screen: 'dashboard', roles: ['exhibitor', 'team_user'] },
      schema: {
        tags: ['analytics'],
        summary: 'LA1-LA4: summary, trend (daily or hourly, event time), breakdowns and leaderboard of my participation',
        description:
          'The daily trend shows every day from the first show day or day with leads to the last one, 0 when empty (one point per day, true to time). The hourly trend shows one day: `day` (YYYY-MM-DD, event time), else today during the show, else the latest show day with leads; from opening to closing hour, widened to hours with leads.',
        querystring: {
          type: 'object',
          properties: {
            granularity: { type: 'string', enum: ['day', 'hour'], default: 'day' },
            top: { type: 'integer', minimum: 1, maximum: BREAKDOWN_TOP_MAX, default: BREAKDOWN_TOP_DEFAULT },
            day: { type: 'string', format: 'date', description: 'Hourly trend: the day to show (event time)' },
          },
          additionalProperties: false,
        },
        response: { 200: envelope(dashboardSchema) },
      },
    },
    async (request) => {
      const { participation, auth } = ownParticipation(request);
      const event = eventOf(auth);
      return ok(await buildDashboard(app.db, participation.id, event.utc_offset_minutes, { ...request.query, showDays: showDaysOf(event) }));
    },
  );

  app.get(
    `${base}/exports`,
    {
      // Narrower than its screen: the download list is the exhibitor's alone, not its team users'.
      config: { screen: 'dashboard', roles: ['exhibitor'] },
      schema: {
        tags: ['analytics'],
        summary: 'LA/LD4: the data download list of my participation, latest first',
        querystring: pageQuerySchema,
        response: { 200: envelope(pageSchema(exportRecordSchema)) },
      },
    },
    async (request) => {
      const { participation, auth } = ownParticipation(request);
      return ok(await exportsPage(app.db, { participationId: participation.id, offsetMinutes: eventOf(auth).utc_offset_minutes }, request.query));
    },
  );
}
