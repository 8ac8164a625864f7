import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { hiddenVisitorFields, LEAD_VISITOR_FIELDS } from '../../../engine/lead-fields';
import { currentOrganiserEvent } from '../../lib/organiser-scope';
import { envelope } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';

// LD2: the organiser decides, per event, which visitor fields the event's exhibitors receive
// with their leads: list, detail, exports, the leads API, webhook payloads and the scanner's
// offline visitor directory all leave a hidden field out from the next read on. Audited.

const settingSchema = {
  type: 'object',
  required: ['hidden'],
  additionalProperties: false,
  properties: {
    hidden: {
      type: 'array',
      uniqueItems: true,
      maxItems: LEAD_VISITOR_FIELDS.length,
      items: { type: 'string', enum: [...LEAD_VISITOR_FIELDS] },
      description: 'The visitor fields kept from exhibitors; [] = exhibitors receive every field',
    },
  },
  examples: [{ hidden: ['phone', 'mobile'] }],
} as const;

export default async function leadFieldsRoutes(app: ApiApp) {
  const path = `${API_BASE}/organiser/lead-fields`;

  app.get(
    path,
    {
      config: { screen: 'organiserLeadFields' },
      schema: {
        tags: ['organiser'],
        summary: "LD2: the visitor fields kept from the current event's exhibitors",
        response: { 200: envelope(settingSchema) },
      },
    },
    async (request) => {
      const event = await currentOrganiserEvent(app.db, requireAuth(request));
      return ok({ hidden: hiddenVisitorFields(event.hidden_visitor_fields) });
    },
  );

  app.put(
    path,
    {
      config: { screen: 'organiserLeadFields' },
      schema: {
        tags: ['organiser'],
        summary: "LD2: set the visitor fields kept from the current event's exhibitors (applies to their next read)",
        body: settingSchema,
        response: { 200: envelope(settingSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = await currentOrganiserEvent(app.db, auth);
      const hidden = LEAD_VISITOR_FIELDS.filter((field) => request.body.hidden.includes(field));
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('events')
          .set({ hidden_visitor_fields: JSON.stringify(hidden) })
          .where('id', '=', event.id)
          .execute();
        await app.audit.record(
          {
            action: 'event.leadFields',
            eventId: event.id,
            participationId: null,
            organisationId: event.organisation_id,
            subjectType: 'event',
            subjectId: event.id,
            before: { hidden: hiddenVisitorFields(event.hidden_visitor_fields) },
            after: { hidden },
          },
          { request, db: trx },
        );
      });
      return ok({ hidden });
    },
  );
}
