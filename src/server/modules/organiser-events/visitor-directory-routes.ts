import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { VISITOR_DIRECTORY_FIELDS } from '../../../engine/leads';
import { organiserEvent } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';

// LD1: which visitor fields the event's exhibitors may keep on their scanning phones (the
// offline visitor directory): a subset of name, company, job title; none = no directory.

const fieldsSchema = {
  type: 'object',
  required: ['fields'],
  additionalProperties: false,
  properties: {
    fields: {
      type: 'array',
      uniqueItems: true,
      maxItems: VISITOR_DIRECTORY_FIELDS.length,
      items: { type: 'string', enum: [...VISITOR_DIRECTORY_FIELDS] },
      description: "The visitor fields shared with exhibitors' scanners; [] = no visitor directory",
    },
  },
  examples: [{ fields: ['name', 'company'] }],
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

export default async function visitorDirectorySettingRoutes(app: ApiApp) {
  const path = `${API_BASE}/organiser/events/:id/visitor-directory`;

  app.get(
    path,
    {
      config: { screen: 'organiserEventEdit' },
      schema: {
        tags: ['organiser'],
        summary: "LD1: the visitor fields the event's exhibitors' scanners may keep offline",
        params: idParams,
        response: { 200: envelope(fieldsSchema) },
      },
    },
    async (request) => {
      const event = await organiserEvent(app.db, requireAuth(request), request.params.id);
      const stored = event.visitor_directory_fields;
      return ok({ fields: VISITOR_DIRECTORY_FIELDS.filter((field) => Array.isArray(stored) && stored.includes(field)) });
    },
  );

  app.put(
    path,
    {
      config: { screen: 'organiserEventEdit' },
      schema: {
        tags: ['organiser'],
        summary: "LD1: set the visitor fields the event's exhibitors' scanners may keep offline",
        description: "Another organisation's event answers code 404. Phones download the directory again on their next sync (its version changes).",
        params: idParams,
        body: fieldsSchema,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await organiserEvent(app.db, auth, request.params.id);
      const fields = VISITOR_DIRECTORY_FIELDS.filter((field) => request.body.fields.includes(field));
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('events')
          .set({ visitor_directory_fields: JSON.stringify(fields) })
          .where('id', '=', event.id)
          .execute();
        await app.audit.record(
          {
            action: 'event.visitorDirectory',
            eventId: event.id,
            participationId: null,
            organisationId: event.organisation_id,
            subjectType: 'event',
            subjectId: event.id,
            before: { fields: event.visitor_directory_fields },
            after: { fields },
          },
          { request, db: trx },
        );
      });
      return ok(null);
    },
  );
}
