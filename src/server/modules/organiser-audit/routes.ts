import { containingPattern, escapeLike } from '../../lib/like-pattern';
import type { FromSchema } from 'json-schema-to-ts';
import type { ApiApp } from '../../lib/api-app';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { neutraliseCell } from '../../../engine/leads-rules';
import { formatOffset, fromEventClock } from '../../../engine/time';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { translate } from '../../lib/messages';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import { envelope, fileAnswer, MEDIA_TYPE } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { eventTimeCell, eventTimeStyle, zipCaughtUp } from '../../lib/xlsx-stream';

// Audit log: what happened in the organiser's organisation's events (organiser changes,
// reopenings, reminders, decisions, exhibitors' logins and submissions), filtered by action, by
// who and by date, paged and exported to XLSX. Another organisation's records are never listed.

const filterProperties = {
  action: { type: 'string', maxLength: 64, description: 'An action or its prefix ("form." = every form action)' },
  who: { type: 'string', maxLength: 100, description: 'Part of the actor’s name' },
  from: { type: 'string', format: 'date', description: "First day (in the event's time zone, K2), inclusive" },
  to: { type: 'string', format: 'date', description: "Last day (in the event's time zone, K2), inclusive" },
} as const;

/** The export's query: the filters; the list's adds its page. */
const filterQuerystring = { type: 'object', properties: filterProperties, additionalProperties: false } as const;
const listQuerystring = { ...pageQuerySchema, properties: { ...pageQuerySchema.properties, ...filterProperties } } as const;
type AuditFilters = FromSchema<typeof filterQuerystring>;

const itemSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    action: { type: 'string' },
    actorName: { type: 'string' },
    actorRole: { type: 'string' },
    exhibitor: { type: ['string', 'null'] },
    event: { type: ['string', 'null'] },
    subjectType: { type: 'string' },
    subjectId: { type: 'string' },
    before: {},
    after: {},
    ip: { type: 'string' },
  },
  required: ['id', 'at', 'action', 'actorName', 'actorRole', 'exhibitor', 'event', 'subjectType', 'subjectId', 'before', 'after', 'ip'],
  additionalProperties: false,
} as const;

const EXPORT_CHUNK = 1000;
/** The list counts matching records up to this many (100 pages of 50). */
export const AUDIT_TOTAL_CAP = 5_000;

const DAY_MS = 86_400_000;

/**
 * The names of the organisation's actors holding the "who" text (case folded), from its list of
 * actors (audit_actors, kept on every insert into the log): a few hundred names instead of every
 * record; the records are then read by actor.
 */
async function actorsNamed(db: Kysely<Database>, organisationId: number, who: string): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_actors')
    .select('actor_name')
    .where('organisation_id', '=', organisationId)
    .where('actor_name', 'ilike', containingPattern(who))
    .execute();
  return rows.map((row) => row.actor_name);
}

/** The filters with the "who" text resolved to the actors' names. */
async function withActors(db: Kysely<Database>, organisationId: number, query: AuditFilters): Promise<AuditFilters & { actors?: string[] }> {
  return query.who ? { ...query, actors: await actorsNamed(db, organisationId, query.who) } : query;
}

/** K2: the organiser picks days of the event's calendar, so a day starts at the event's midnight. */
function filtered(db: Kysely<Database>, organisationId: number, query: AuditFilters & { actors?: string[] }, offsetMinutes: number) {
  let q = db
    .selectFrom('audit_log')
    .leftJoin('participations', 'participations.id', 'audit_log.participation_id')
    .leftJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .leftJoin('events', 'events.id', 'audit_log.event_id')
    .where('audit_log.organisation_id', '=', organisationId);
  if (query.action) q = q.where('audit_log.action', 'like', `${escapeLike(query.action)}%`);
  // One actor reads its records in the index's order (newest first); several, newest first by time.
  if (query.actors) q = q.where('audit_log.actor_name', '=', query.actors.length === 1 ? query.actors[0]! : sql<string>`any(${query.actors}::text[])`);
  if (query.from) q = q.where('audit_log.at', '>=', fromEventClock(new Date(`${query.from}T00:00:00Z`), offsetMinutes));
  if (query.to) q = q.where('audit_log.at', '<', fromEventClock(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS, offsetMinutes));
  return q;
}

// biome-ignore lint/suspicious/noExplicitAny: any query of the audit table, whatever it joined
function withColumns<T extends SelectQueryBuilder<any, any, any>>(q: T) {
  return q.select([
    'audit_log.id',
    'audit_log.at',
    'audit_log.action',
    'audit_log.actor_name',
    'audit_log.actor_role',
    'audit_log.subject_type',
    'audit_log.subject_id',
    'audit_log.before',
    'audit_log.after',
    'audit_log.ip',
    'exhibitors.name as exhibitor',
    'events.code as event',
  ]);
}

export default async function auditRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/audit`;

  const organisationOf = (request: Parameters<typeof requireAuth>[0]): number => {
    const auth = requireAuth(request);
    const organisationId = auth.user.organisation_id ?? auth.event?.organisation_id ?? null;
    if (organisationId === null) throw new AppError('notFound');
    return organisationId;
  };

  app.get(
    base,
    {
      config: { screen: 'organiserAudit' },
      schema: {
        tags: ['organiser'],
        summary: "The audit log of the organiser's organisation, newest first, filtered and paged",
        querystring: listQuerystring,
        response: {
          200: envelope(
            pageSchema(itemSchema, {
              totalKind: { type: 'string', enum: ['exact', 'moreThan'], description: '`moreThan`: counting stopped at the cap (total), more records match' },
            }),
          ),
        },
      },
    },
    async (request) => {
      const organisationId = organisationOf(request);
      const offset = requireAuth(request).event?.utc_offset_minutes ?? 0;
      const query = await withActors(app.db, organisationId, request.query);
      // Counted up to the cap: an organisation's log holds millions of rows and counting them all
      // would cost more than the page; past the cap the answer says "more than". Newest first, as
      // the page reads, so the count walks the same index; by actor, in the index's order (the
      // records of the actors named, read from the index by actor alone, whatever their time).
      const matching = filtered(app.db, organisationId, query, offset).select('audit_log.id');
      const { total } = await app.db
        .selectFrom((query.actors ? matching : matching.orderBy('audit_log.at', 'desc').orderBy('audit_log.id', 'desc')).limit(AUDIT_TOTAL_CAP + 1).as('matching'))
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      const capped = Number(total) > AUDIT_TOTAL_CAP;
      const page = pageOf(request.query, capped ? AUDIT_TOTAL_CAP : Number(total));
      const rows = await withColumns(filtered(app.db, organisationId, query, offset))
        .orderBy('audit_log.at', 'desc')
        .orderBy('audit_log.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return ok({
        total: capped ? AUDIT_TOTAL_CAP : Number(total),
        totalKind: capped ? ('moreThan' as const) : ('exact' as const),
        page: page.page,
        limit: page.limit,
        items: rows.map((r) => ({
          id: Number(r.id),
          at: new Date(r.at).toISOString(),
          action: r.action,
          actorName: r.actor_name,
          actorRole: r.actor_role,
          exhibitor: r.exhibitor,
          event: r.event,
          subjectType: r.subject_type,
          subjectId: r.subject_id,
          before: r.before ?? null,
          after: r.after ?? null,
          ip: r.ip,
        })),
      });
    },
  );

  app.get(
    `${base}/export`,
    {
      config: { screen: 'organiserAudit' },
      schema: {
        tags: ['organiser'],
        summary: 'The filtered audit log as XLSX, headers in the caller’s language',
        querystring: filterQuerystring,
        response: { 200: fileAnswer('The audit records as XLSX', [MEDIA_TYPE.xlsx]) },
      },
    },
    async (request, reply) => {
      const organisationId = organisationOf(request);
      const event = eventOf(requireAuth(request));
      const offset = event.utc_offset_minutes;
      const query = await withActors(app.db, organisationId, request.query);
      const t = (key: string) => translate(request.language, key);
      // The log of one organisation fits in memory once compressed; the rows are read in chunks.
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (chunk: Buffer) => chunks.push(chunk));
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
      const sheet = workbook.addWorksheet(t('organiser.audit.title').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = [
        { header: `${t('organiser.audit.at')} (${formatOffset(offset)})`, width: 22, style: eventTimeStyle({ language: request.language, dateOrder: event.date_order }) },
        { header: t('organiser.audit.event'), width: 14 },
        { header: t('organiser.audit.action'), width: 20 },
        { header: t('organiser.audit.who'), width: 24 },
        { header: t('organiser.audit.role'), width: 12 },
        { header: t('organiser.audit.exhibitor'), width: 28 },
        { header: t('organiser.audit.subject'), width: 20 },
        { header: t('organiser.audit.before'), width: 40 },
        { header: t('organiser.audit.after'), width: 40 },
        { header: t('organiser.audit.ip'), width: 16 },
      ];
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      let lastId: number | null = null;
      for (;;) {
        let q = withColumns(filtered(app.db, organisationId, query, offset));
        if (lastId !== null) q = q.where('audit_log.id', '<', lastId);
        const rows = await q.orderBy('audit_log.id', 'desc').limit(EXPORT_CHUNK).execute();
        for (const r of rows) {
          const json = (value: unknown) => (value === null || value === undefined ? '' : neutraliseCell(JSON.stringify(value)));
          sheet
            .addRow([
              eventTimeCell(r.at, offset),
              r.event ?? '',
              r.action,
              neutraliseCell(r.actor_name),
              r.actor_role,
              neutraliseCell(r.exhibitor ?? ''),
              `${r.subject_type} ${r.subject_id}`.trim(),
              json(r.before),
              json(r.after),
              r.ip,
            ])
            .commit();
        }
        await zipCaughtUp(sheet);
        if (rows.length < EXPORT_CHUNK) break;
        lastId = Number(rows[rows.length - 1]!.id);
      }
      sheet.commit();
      await workbook.commit();
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition('attachment', 'audit-log.xlsx'))
        .send(Buffer.concat(chunks));
    },
  );
}
