import { eventNameIn } from '../../lib/event-name';
import type { ApiApp } from '../../lib/api-app';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { isLanguage, LANGUAGES, type Language } from '../../../engine/language';
import { eventProblems, showSpan } from '../../../engine/organiser-events';
import { eventInputSchema, eventSettingNameSchema, flagGroupsSchema, type EventInput } from '../../../engine/schemas/event';
import { DEFAULT_DATE_ORDER, isDateOrder, type DateOrder } from '../../../engine/locale-format';
import { stringMap } from '../../../engine/schemas/json-schema';
import type { Database, EventRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { currentOrganiserEvent, organisationOf, organiserEvent } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { settingNames } from '../../lib/setting-names';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import visitorDirectorySettingRoutes from './visitor-directory-routes';
import { carryExhibitors, copyAttachmentFiles, copyContent, daysBetween, removeClone, removeFiles, shiftedBy, shiftedDate } from './event-clone';

// O2: the organiser's events — create, edit every setting, switch the current one.
// An organisation runs several events; another organisation's event answers 404. Deadlines and
// quotas are the event's rows (no participation) in `deadlines`/`quotas`, keyed by the names the
// forms declare; each change is audited with its before and after.

const SCREEN = { screen: 'organiserEvents' } as const;
const EDIT_SCREEN = { screen: 'organiserEventEdit' } as const;

const eventSummarySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    names: stringMap({ type: 'string' }),
    startsAt: { type: 'string', format: 'date-time' },
    endsAt: { type: 'string', format: 'date-time' },
    utcOffsetMinutes: { type: 'integer' },
    dateOrder: eventInputSchema.properties.dateOrder,
    exhibitors: { type: 'integer' },
    current: { type: 'boolean' },
  },
  required: ['id', 'code', 'name', 'names', 'startsAt', 'endsAt', 'utcOffsetMinutes', 'dateOrder', 'exhibitors', 'current'],
  additionalProperties: false,
} as const;

const vocabularySchema = {
  type: 'object',
  properties: {
    modules: { type: 'array', items: { type: 'string' } },
    flags: { type: 'array', items: { type: 'string' } },
    flagGroups: flagGroupsSchema,
    deadlineNames: { type: 'array', items: { type: 'string' } },
    quotaNames: { type: 'array', items: { type: 'string' } },
    settings: {
      type: 'array',
      description: 'O2: the values of the forms an event sets (fee prices in the event’s currency, approval limits), with forms.yaml’s defaults',
      items: eventSettingNameSchema,
    },
    languages: { type: 'array', items: { type: 'string' } },
  },
  required: ['modules', 'flags', 'flagGroups', 'deadlineNames', 'quotaNames', 'settings', 'languages'],
  additionalProperties: false,
} as const;

const idParams = { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] } as const;
const problemsDescription =
  "Refused with code 601 `validationFailed` when a rule fails (an impossible date, a deadline after the show, an unknown module…): `data.fields` maps each field path to the locale key of its message; `msg` is the first in the caller's language.";

async function eventInputOf(db: Kysely<Database>, event: EventRow): Promise<EventInput & { defaultLanguage: Language; names: Record<string, string>; dateOrder: DateOrder }> {
  const [deadlines, quotas, settings] = await Promise.all([
    db.selectFrom('deadlines').select(['name', 'due_at']).where('event_id', '=', event.id).where('participation_id', 'is', null).execute(),
    db.selectFrom('quotas').select(['name', 'value']).where('event_id', '=', event.id).where('participation_id', 'is', null).execute(),
    db.selectFrom('event_settings').select(['name', 'value']).where('event_id', '=', event.id).execute(),
  ]);
  return {
    code: event.code,
    names: { ...event.names, [event.default_language]: event.names[event.default_language] ?? event.name },
    // Stored only after eventProblems accepted it as a portal language.
    defaultLanguage: isLanguage(event.default_language) ? event.default_language : 'en',
    showDays: event.show_days,
    utcOffsetMinutes: event.utc_offset_minutes,
    // Stored only after the check constraint accepted it.
    dateOrder: isDateOrder(event.date_order) ? event.date_order : DEFAULT_DATE_ORDER,
    venue: event.venue,
    logoUrl: event.logo_url,
    url: event.url,
    termsUrl: event.terms_url,
    supportEmail: event.support_email,
    currency: event.currency,
    settings: Object.fromEntries(settings.map((row) => [row.name, row.value])),
    deadlines: Object.fromEntries(deadlines.map((row) => [row.name, new Date(row.due_at).toISOString()])),
    defaultModules: event.default_modules,
    defaultFlags: event.default_flags,
    defaultQuotas: Object.fromEntries(quotas.map((row) => [row.name, row.value])),
    reminderDays: event.reminder_days,
  };
}

/** The input with names trimmed, days sorted and empty names dropped. */
function normalised(input: EventInput): EventInput {
  return {
    ...input,
    code: input.code.trim(),
    names: Object.fromEntries(
      Object.entries(input.names)
        .map(([language, name]) => [language, (name ?? '').trim()])
        .filter(([, name]) => name !== ''),
    ),
    showDays: [...input.showDays].sort((a, b) => a.date.localeCompare(b.date)),
    venue: input.venue.trim(),
    logoUrl: input.logoUrl.trim(),
    url: input.url.trim(),
    termsUrl: input.termsUrl.trim(),
    supportEmail: input.supportEmail.trim(),
    currency: input.currency.trim().toUpperCase(),
    // An empty value keeps forms.yaml's default: no row.
    settings: Object.fromEntries(
      Object.entries(input.settings)
        .map(([name, value]) => [name, value.trim()])
        .filter(([, value]) => value !== ''),
    ),
    defaultModules: [...new Set(input.defaultModules)],
    reminderDays: [...input.reminderDays].sort((a, b) => b - a),
  };
}

export default async function organiserEventRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  const base = `${API_BASE}/organiser/events`;
  await app.register(visitorDirectorySettingRoutes);
  // Read per request: the forms (and the settings they name) change while the portal runs.
  const names = () => settingNames(registry);

  const check = (input: EventInput) => {
    const problems = eventProblems(input, names());
    const first = Object.keys(problems)[0];
    if (first) throw new AppError('validationFailed', { fields: problems }, {}, problems[first]);
  };

  const columnsOf = (input: EventInput) => {
    const span = showSpan(input.showDays, input.utcOffsetMinutes)!;
    return {
      code: input.code,
      name: input.names[input.defaultLanguage]!,
      names: JSON.stringify(input.names),
      default_language: input.defaultLanguage,
      show_days: JSON.stringify(input.showDays),
      starts_at: span.startsAt,
      ends_at: span.endsAt,
      utc_offset_minutes: input.utcOffsetMinutes,
      ...(input.dateOrder === undefined ? {} : { date_order: input.dateOrder }),
      venue: input.venue,
      logo_url: input.logoUrl,
      url: input.url,
      terms_url: input.termsUrl,
      support_email: input.supportEmail,
      currency: input.currency,
      default_modules: JSON.stringify(input.defaultModules),
      default_flags: JSON.stringify(input.defaultFlags),
      reminder_days: JSON.stringify(input.reminderDays),
    };
  };

  /** The event's deadlines and quotas become exactly the input's rows. */
  const writeSettings = async (db: Kysely<Database>, eventId: number, input: EventInput) => {
    await db.deleteFrom('deadlines').where('event_id', '=', eventId).where('participation_id', 'is', null).execute();
    await db.deleteFrom('quotas').where('event_id', '=', eventId).where('participation_id', 'is', null).execute();
    const deadlines = Object.entries(input.deadlines).map(([name, at]) => ({ event_id: eventId, participation_id: null, name, due_at: new Date(at) }));
    const quotas = Object.entries(input.defaultQuotas).map(([name, value]) => ({ event_id: eventId, participation_id: null, name, value }));
    if (deadlines.length > 0) await db.insertInto('deadlines').values(deadlines).execute();
    if (quotas.length > 0) await db.insertInto('quotas').values(quotas).execute();
    await db.deleteFrom('event_settings').where('event_id', '=', eventId).execute();
    const settings = Object.entries(input.settings).map(([name, value]) => ({ event_id: eventId, name, value }));
    if (settings.length > 0) await db.insertInto('event_settings').values(settings).execute();
  };

  const codeTaken = async (db: Kysely<Database>, code: string, exceptId: number | null) => {
    let query = db
      .selectFrom('events')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()));
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) throw new AppError('validationFailed', { fields: { code: 'organiser.validation.codeTaken' } }, {}, 'organiser.validation.codeTaken');
  };

  app.get(
    `${API_BASE}/organiser/vocabulary`,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'O2: the names an organiser sets — exhibitor modules, flags, deadline names (forms.yaml), quota names (schemas), form settings (forms.yaml `setting:`), languages',
        response: { 200: envelope(vocabularySchema) },
      },
    },
    async (request) => {
      requireAuth(request);
      return ok({ ...names(), languages: [...LANGUAGES] });
    },
  );

  app.get(
    base,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: "The organisation's events, newest show first, with the organiser's current one marked",
        response: { 200: envelope({ type: 'array', items: eventSummarySchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await app.db
        .selectFrom('events')
        .select((eb) => [
          'events.id',
          'events.code',
          'events.name',
          'events.names',
          'events.default_language',
          'events.starts_at',
          'events.ends_at',
          'events.utc_offset_minutes',
          'events.date_order',
          eb
            .selectFrom('participations')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('participations.event_id', '=', 'events.id')
            .as('exhibitors'),
        ])
        .where('organisation_id', '=', organisationOf(auth))
        .orderBy('starts_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return ok(
        rows.map((row) => ({
          id: row.id,
          code: row.code,
          name: eventNameIn(row, request.language),
          names: row.names,
          startsAt: new Date(row.starts_at).toISOString(),
          endsAt: new Date(row.ends_at).toISOString(),
          utcOffsetMinutes: row.utc_offset_minutes,
          dateOrder: isDateOrder(row.date_order) ? row.date_order : DEFAULT_DATE_ORDER,
          exhibitors: Number(row.exhibitors ?? 0),
          current: row.id === auth.user.event_id,
        })),
      );
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: EDIT_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'One event of the organisation, every setting (404 for another organisation’s)',
        params: idParams,
        response: {
          200: envelope({
            ...eventInputSchema,
            properties: { ...eventInputSchema.properties, id: { type: 'integer' } },
            required: [...eventInputSchema.required, 'dateOrder', 'id'],
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await organiserEvent(app.db, auth, request.params.id);
      return ok({ id: event.id, ...(await eventInputOf(app.db, event)) });
    },
  );

  const record = (
    request: FastifyRequest,
    action: string,
    event: { id: number; organisation_id: number | null },
    before: EventInput | null,
    after: EventInput,
    db: Kysely<Database>,
  ) =>
    app.audit.record(
      { action, eventId: event.id, participationId: null, organisationId: event.organisation_id, subjectType: 'event', subjectId: event.id, before, after },
      { request, db },
    );

  app.post(
    base,
    {
      config: EDIT_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'Create an event of the organisation; it becomes the current event of an organiser without one',
        description: problemsDescription,
        body: eventInputSchema,
        response: { 200: envelope({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const organisationId = organisationOf(auth);
      const input = { ...normalised(request.body), dateOrder: request.body.dateOrder ?? DEFAULT_DATE_ORDER };
      check(input);
      const id = await app.db.transaction().execute(async (trx) => {
        await codeTaken(trx, input.code, null);
        const inserted = await trx
          .insertInto('events')
          .values({ ...columnsOf(input), organisation_id: organisationId })
          .returning(['id', 'organisation_id'])
          .executeTakeFirstOrThrow();
        await writeSettings(trx, inserted.id, input);
        if (auth.user.event_id === null) await trx.updateTable('users').set({ event_id: inserted.id }).where('id', '=', auth.user.id).execute();
        await record(request, 'event.create', inserted, null, input, trx);
        return inserted.id;
      });
      return ok({ id });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: EDIT_SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'Change every setting of one of the organisation’s events',
        description: problemsDescription,
        params: idParams,
        body: eventInputSchema,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await organiserEvent(app.db, auth, request.params.id);
      const input = normalised(request.body);
      check(input);
      await app.db.transaction().execute(async (trx) => {
        const before = await eventInputOf(trx, event);
        // A setting not sent keeps its value (an older client knows no date order).
        const after = { ...input, dateOrder: input.dateOrder ?? before.dateOrder };
        await codeTaken(trx, after.code, event.id);
        await trx.updateTable('events').set(columnsOf(after)).where('id', '=', event.id).execute();
        await writeSettings(trx, event.id, after);
        await record(request, 'event.update', event, before, after, trx);
      });
      return ok(null);
    },
  );

  app.post(
    `${base}/:id/clone`,
    {
      config: EDIT_SCREEN,
      schema: {
        tags: ['organiser'],
        summary:
          'O2: a new event from one of the organisation’s events — its settings, deadlines and show days moved by the same number of days, modules, flags, quotas, content (manuals, FAQ, tips, terms, introduction, support contact, with copies of their attachments) and form patches; its exhibitors carried over (same companies, no answers, no accounts) when asked',
        description: `${problemsDescription} A code already in use is refused the same way (\`organiser.validation.codeTaken\` on \`code\`). The new event has no exhibitor accounts: no exhibitor sees it until the organiser invites them.`,
        params: idParams,
        body: {
          type: 'object',
          required: ['code', 'names', 'firstShowDay', 'carryExhibitors'],
          properties: {
            code: eventInputSchema.properties.code,
            names: eventInputSchema.properties.names,
            firstShowDay: {
              type: 'string',
              maxLength: 10,
              description: 'YYYY-MM-DD in event time: the first show day of the new event; every date moves by the same number of days',
            },
            carryExhibitors: { type: 'boolean' },
          },
          additionalProperties: false,
        },
        response: {
          200: envelope({
            type: 'object',
            properties: { id: { type: 'integer' }, days: { type: 'integer' }, content: { type: 'integer' }, exhibitors: { type: 'integer' } },
            required: ['id', 'days', 'content', 'exhibitors'],
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const source = await organiserEvent(app.db, auth, request.params.id);
      const from = await eventInputOf(app.db, source);
      const firstDay = from.showDays[0]?.date ?? new Date(new Date(source.starts_at).getTime() + source.utc_offset_minutes * 60_000).toISOString().slice(0, 10);
      const { firstShowDay } = request.body;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(firstShowDay) || Number.isNaN(Date.parse(`${firstShowDay}T00:00:00Z`)) || shiftedDate(firstShowDay, 0) !== firstShowDay)
        throw new AppError('validationFailed', { fields: { firstShowDay: 'organiser.validation.date' } }, {}, 'organiser.validation.date');
      const days = daysBetween(firstDay, firstShowDay);
      const input = normalised({
        ...from,
        code: request.body.code,
        names: request.body.names,
        showDays: from.showDays.map((day) => ({ ...day, date: shiftedDate(day.date, days) })),
        deadlines: Object.fromEntries(Object.entries(from.deadlines).map(([name, at]) => [name, shiftedBy(at, days).toISOString()])),
      });
      check(input);
      await codeTaken(app.db, input.code, null);
      const files = await copyAttachmentFiles(app.db, app.storage, source);
      let made: { id: number; content: number; exhibitors: number };
      try {
        made = await app.db.transaction().execute(async (trx) => {
          await codeTaken(trx, input.code, null);
          const inserted = await trx
            .insertInto('events')
            .values({
              ...columnsOf(input),
              organisation_id: source.organisation_id,
              lead_retention_days: source.lead_retention_days,
              visitor_directory_fields: JSON.stringify(source.visitor_directory_fields),
              hidden_visitor_fields: JSON.stringify(source.hidden_visitor_fields),
            })
            .returning(['id', 'organisation_id'])
            .executeTakeFirstOrThrow();
          await writeSettings(trx, inserted.id, input);
          const content = await copyContent(trx, source, inserted.id, days, files, auth.user.id);
          const carried = request.body.carryExhibitors ? await carryExhibitors(trx, source, inserted.id, days) : [];
          await app.audit.record(
            {
              action: 'event.clone',
              eventId: inserted.id,
              participationId: null,
              organisationId: inserted.organisation_id,
              subjectType: 'event',
              subjectId: inserted.id,
              before: { id: source.id, ...from },
              after: { ...input, from: source.code, days, content, exhibitors: carried },
            },
            { request, db: trx },
          );
          return { id: inserted.id, content, exhibitors: carried.length };
        });
      } catch (error) {
        await removeFiles(app.storage, files);
        throw error;
      }
      // The form set is versioned in its own transaction: the event's patches become the clone's
      // in a new version; when that fails the clone is taken back, so no event runs without them.
      const patched = Object.keys(app.forms.current().source.files).some((file) => file.startsWith(`events/${source.code}/`) || file.startsWith(`events/${input.code}/`));
      if (patched) {
        let copied = false;
        try {
          copied = (await app.forms.copyEventPatches(source.code, input.code, { id: auth.user.id, name: auth.user.display_name, role: auth.user.role })) !== null;
        } catch (error) {
          request.log.error({ err: error, from: source.code, to: input.code }, 'Copying the form patches of a cloned event failed');
        }
        if (!copied) {
          await app.db.transaction().execute(async (trx) => {
            await removeClone(trx, made.id);
            await app.audit.record(
              {
                action: 'event.cloneUndone',
                eventId: null,
                participationId: null,
                organisationId: source.organisation_id,
                subjectType: 'event',
                subjectId: made.id,
                before: { code: input.code },
                after: null,
              },
              { request, db: trx },
            );
          });
          await removeFiles(app.storage, files);
          throw new AppError('eventCloneFormsFailed');
        }
      }
      return ok({ id: made.id, days, content: made.content, exhibitors: made.exhibitors });
    },
  );

  app.put(
    `${API_BASE}/organiser/current-event`,
    {
      config: SCREEN,
      schema: {
        tags: ['organiser'],
        summary: 'Switch the organiser’s current event (the one its console, approvals and exports work on)',
        body: { type: 'object', required: ['eventId'], properties: { eventId: { type: 'integer', minimum: 1 } }, additionalProperties: false },
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await organiserEvent(app.db, auth, request.body.eventId);
      await app.db.updateTable('users').set({ event_id: event.id }).where('id', '=', auth.user.id).execute();
      return ok(null);
    },
  );

  // The current event's summary (the console's header and home).
  app.get(
    `${API_BASE}/organiser/current-event`,
    {
      config: { screen: 'organiserHome' },
      schema: {
        tags: ['organiser'],
        summary: "The organiser's current event (code 601 noCurrentEvent before its first)",
        response: {
          200: envelope({
            type: 'object',
            properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' } },
            required: ['id', 'code', 'name'],
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const event = await currentOrganiserEvent(app.db, requireAuth(request));
      return ok({ id: event.id, code: event.code, name: event.name });
    },
  );
}
