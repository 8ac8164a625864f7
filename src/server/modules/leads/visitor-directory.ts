import { sql } from 'kysely';
import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { directoryVisitorSchema } from '../../../engine/schemas/directory-visitor';
import { VISITOR_DIRECTORY_FIELDS, VISITOR_DIRECTORY_PAGE_MAX, type VisitorDirectoryField } from '../../../engine/leads';
import { envelope } from '../../lib/schemas';
import { hiddenVisitorFields, LEAD_FIELD_OF_DIRECTORY_FIELD } from '../../../engine/lead-fields';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { ROLES, TAGS } from './shared';

// LD1: the event's visitor directory for the scanner, so a phone shows who a badge belongs to at
// once, offline. Only the fields the organiser lets exhibitors see are answered (none when it
// has not allowed any), only visitors of the caller's own event who have not withdrawn consent, a
// page at a time by a keyset cursor; `version` changes whenever what would be answered changes, so
// a phone downloads it again only then.

const COLUMN: Record<VisitorDirectoryField, 'name' | 'company' | 'job_title'> = { name: 'name', company: 'company', jobTitle: 'job_title' };

export const directoryFieldsOf = (stored: unknown): VisitorDirectoryField[] => VISITOR_DIRECTORY_FIELDS.filter((field) => Array.isArray(stored) && stored.includes(field));

export default async function visitorDirectoryRoutes(app: ApiApp) {
  app.get(
    `${API_BASE}/leads/visitor-directory`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: "LD1: the event's visitor directory for the scanner (badge code → the fields the organiser shares), a page at a time",
        description:
          "Pages follow a keyset cursor: pass the previous answer's `next` as `after` until `next` is null. `version` identifies the whole directory as it is now: keep it and download again only when the first page answers another one. `fields` lists what the organiser shares (a subset of name, company, jobTitle); when it shares none, the directory is empty. A scanning device's token may call it.",
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            after: { type: 'string', pattern: '^[0-9]{1,10}$', description: 'The `next` of the previous page' },
            limit: { type: 'integer', minimum: 1, maximum: VISITOR_DIRECTORY_PAGE_MAX, default: 1000 },
          },
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['version', 'fields', 'items', 'next'],
            properties: {
              version: { type: 'string' },
              fields: { type: 'array', items: { type: 'string', enum: [...VISITOR_DIRECTORY_FIELDS] } },
              items: { type: 'array', items: directoryVisitorSchema },
              next: { type: ['string', 'null'] },
            },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const eventId = eventOf(auth).id;
      const setting = await app.db.selectFrom('events').select(['visitor_directory_fields', 'hidden_visitor_fields']).where('id', '=', eventId).executeTakeFirstOrThrow();
      // A field the organiser keeps from exhibitors is never shared offline either.
      const hidden = hiddenVisitorFields(setting.hidden_visitor_fields);
      const fields = directoryFieldsOf(setting.visitor_directory_fields).filter((field) => !hidden.includes(LEAD_FIELD_OF_DIRECTORY_FIELD[field]));
      if (fields.length === 0) return ok({ version: 'none', fields, items: [], next: null });
      const columns = fields.map((field) => COLUMN[field]);
      const shared = sql.join(
        columns.map((column) => sql`coalesce(${sql.ref(column)}, '')`),
        sql`|| chr(31) ||`,
      );
      const { version } = await app.db
        .selectFrom('visitors')
        .select(sql<string>`md5(${fields.join(',')} || ':' || coalesce(string_agg(badge_code || chr(31) || ${shared}, chr(30) order by id), ''))`.as('version'))
        .where('event_id', '=', eventId)
        .where('consent_withdrawn_at', 'is', null)
        .executeTakeFirstOrThrow();
      const limit = request.query.limit ?? 1000;
      const rows = await app.db
        .selectFrom('visitors')
        .select(['id', 'badge_code', 'name', 'company', 'job_title'])
        .where('event_id', '=', eventId)
        .where('consent_withdrawn_at', 'is', null)
        .$if(request.query.after !== undefined, (query) => query.where('id', '>', Number(request.query.after)))
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const items = page.map((row) => ({
        badgeCode: row.badge_code,
        ...(fields.includes('name') ? { name: row.name } : {}),
        ...(fields.includes('company') ? { company: row.company } : {}),
        ...(fields.includes('jobTitle') ? { jobTitle: row.job_title } : {}),
      }));
      return ok({ version, fields, items, next: rows.length > limit ? String(page[page.length - 1]!.id) : null });
    },
  );
}
