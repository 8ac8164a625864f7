import { eventNameIn } from '../../lib/event-name';
import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { accountInfo, accountInfoSchema } from './account-info';
import { DATE_ORDERS, DEFAULT_DATE_ORDER, isDateOrder } from '../../../engine/locale-format';

// The spec's project endpoints (C2). Their odd spellings are the published API and stay.

type EventStatus = 'upcoming' | 'live' | 'past';

export function eventStatus(startsAt: Date, endsAt: Date, now = new Date()): EventStatus {
  if (now < startsAt) return 'upcoming';
  if (now > endsAt) return 'past';
  return 'live';
}

const eventSchema = {
  type: 'object',
  properties: {
    exhibitCode: { type: 'string' },
    exhibitName: { type: 'string' },
    venue: { type: 'string' },
    startsAt: { type: 'string', format: 'date-time' },
    endsAt: { type: 'string', format: 'date-time' },
    utcOffsetMinutes: { type: 'integer' },
    dateOrder: { type: 'string', enum: [...DATE_ORDERS], description: 'K2: the order the event writes dates in' },
    eventUrl: { type: 'string' },
    eventLog: { type: 'string' },
    boothNum: { type: 'string' },
    status: { type: 'string', enum: ['upcoming', 'live', 'past'] },
    current: { type: 'boolean', description: 'The event this session belongs to' },
  },
  required: ['exhibitCode', 'exhibitName', 'venue', 'startsAt', 'endsAt', 'utcOffsetMinutes', 'dateOrder', 'eventUrl', 'eventLog', 'boothNum', 'status', 'current'],
} as const;

export default async function projectRoutes(app: ApiApp) {
  const base = `${API_BASE}/system/project`;

  app.get(
    `${base}/exhibirotCode`,
    {
      schema: {
        tags: ['project'],
        summary: 'Account info of the logged-in exhibitor for its event (every field of spec §3)',
        response: { 200: envelope(accountInfoSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      return ok(accountInfo(auth, request.language, app.forms.current()));
    },
  );

  app.get(
    `${base}/findAll`,
    {
      config: { screen: 'eventInfo' },
      schema: {
        tags: ['project'],
        summary: "The exhibitor's events, grouped upcoming / live / past (CT4); needs module Event Info",
        querystring: {
          type: 'object',
          properties: { status: { type: 'string', enum: ['upcoming', 'live', 'past'] }, keyword: { type: 'string', maxLength: 100 } },
          additionalProperties: false,
        },
        response: { 200: envelope({ type: 'array', items: eventSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const now = new Date();
      let query = app.db
        .selectFrom('events')
        .leftJoin('participations', 'participations.event_id', 'events.id')
        .select([
          'events.id',
          'events.code',
          'events.name',
          'events.names',
          'events.default_language',
          'events.venue',
          'events.starts_at',
          'events.ends_at',
          'events.utc_offset_minutes',
          'events.date_order',
          'events.url',
          'events.logo_url',
          'participations.booth_num',
        ])
        .orderBy('events.starts_at', 'desc');
      query = auth.participation ? query.where('participations.exhibitor_id', '=', auth.participation.exhibitor_id) : query.where('events.id', '=', eventOf(auth).id);
      const keyword = request.query.keyword?.trim().toLowerCase();
      const rows = await query.execute();
      const events = rows
        .map((row) => ({
          exhibitCode: row.code,
          exhibitName: eventNameIn(row, request.language),
          venue: row.venue,
          startsAt: new Date(row.starts_at).toISOString(),
          endsAt: new Date(row.ends_at).toISOString(),
          utcOffsetMinutes: row.utc_offset_minutes,
          dateOrder: isDateOrder(row.date_order) ? row.date_order : DEFAULT_DATE_ORDER,
          eventUrl: row.url,
          eventLog: row.logo_url,
          boothNum: row.booth_num ?? '',
          status: eventStatus(new Date(row.starts_at), new Date(row.ends_at), now),
          current: row.id === eventOf(auth).id,
        }))
        .filter((event) => !request.query.status || event.status === request.query.status)
        .filter((event) => !keyword || `${event.exhibitName} ${event.exhibitCode} ${event.venue}`.toLowerCase().includes(keyword));
      return ok(events);
    },
  );

  app.get(
    `${base}/exhibirotCodeOrNum`,
    {
      config: { public: true },
      schema: {
        tags: ['project'],
        summary: 'Public branding of an event by its code, for the login page (/login?exhibitCode=…)',
        security: [],
        querystring: {
          type: 'object',
          required: ['exhibitCode'],
          properties: { exhibitCode: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['exhibitCode', 'exhibitName', 'eventLog', 'eventUrl'],
            properties: { exhibitCode: { type: 'string' }, exhibitName: { type: 'string' }, eventLog: { type: 'string' }, eventUrl: { type: 'string' } },
          }),
        },
      },
    },
    async (request) => {
      const event = await app.db
        .selectFrom('events')
        .select(['code', 'name', 'names', 'default_language', 'logo_url', 'url'])
        .where((eb) => eb(eb.fn('upper', ['code']), '=', request.query.exhibitCode.trim().toUpperCase()))
        .executeTakeFirst();
      if (!event) throw new AppError('notFound');
      return ok({ exhibitCode: event.code, exhibitName: eventNameIn(event, request.language), eventLog: event.logo_url, eventUrl: event.url });
    },
  );
}
