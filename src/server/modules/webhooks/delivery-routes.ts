import { API_BASE } from '../../../engine/constants';
import type { ApiApp } from '../../lib/api-app';
import { AppError } from '../../lib/app-error';
import { pageOf, pageQuerySchema, pageSchema } from '../../lib/paging';
import { envelope, NO_BODY } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { ownedEndpoint, ownerOf, OWNER_ROUTES, TAGS } from './owner';

// LD: an endpoint's delivery log: each message with its status, the receiver's answer code,
// attempts, times and the payload sent; "send again" queues a message anew under the same
// webhook-id (a receiver that has it already drops it).

const deliverySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'messageId', 'eventType', 'status', 'attempts', 'responseStatus', 'error', 'createdAt', 'lastAttemptAt', 'nextAttemptAt', 'deliveredAt', 'payload'],
  properties: {
    id: { type: 'integer' },
    messageId: { type: 'string', description: 'The `webhook-id` header of every attempt' },
    eventType: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'], description: '`failed`: given up after every retry (send it again by hand)' },
    attempts: { type: 'integer' },
    responseStatus: { type: ['integer', 'null'], description: "The receiver's HTTP status at the last attempt (null: no answer)" },
    error: { type: ['string', 'null'], description: 'Why the last attempt failed' },
    createdAt: { type: 'string', format: 'date-time' },
    lastAttemptAt: { type: ['string', 'null'] },
    nextAttemptAt: { type: ['string', 'null'], description: 'When a waiting message is tried next' },
    deliveredAt: { type: ['string', 'null'] },
    payload: { type: 'string', description: 'The JSON body sent' },
  },
} as const;

/** A delivery's id (bigint column). */
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 9007199254740991 } } } as const;
/** An endpoint's id (integer column: a larger number is refused as input, never sent to the database). */
const endpointIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export default async function deliveryRoutes(app: ApiApp) {
  for (const place of OWNER_ROUTES) {
    const routeConfig = { screen: place.screen };

    app.get(
      `${API_BASE}${place.base}/endpoints/:id/deliveries`,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: "LD: an endpoint's delivery log, newest first",
          params: endpointIdParams,
          querystring: pageQuerySchema,
          response: { 200: envelope(pageSchema(deliverySchema)) },
        },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const endpoint = await ownedEndpoint(app, owner, request.params.id);
        const count = await app.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('endpoint_id', '=', endpoint.id)
          .executeTakeFirst();
        const total = Number(count?.n ?? 0);
        const { page, limit, offset } = pageOf(request.query, total);
        const rows = await app.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).orderBy('id', 'desc').limit(limit).offset(offset).execute();
        return ok({
          total,
          page,
          limit,
          items: rows.map((row) => ({
            id: Number(row.id),
            messageId: row.message_id,
            eventType: row.event_type,
            status: row.status,
            attempts: row.attempts,
            responseStatus: row.response_status,
            error: row.last_error,
            createdAt: new Date(row.created_at).toISOString(),
            lastAttemptAt: iso(row.last_attempt_at),
            nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
            deliveredAt: iso(row.delivered_at),
            payload: row.payload,
          })),
        });
      },
    );

    app.post(
      `${API_BASE}${place.base}/deliveries/:id/resend`,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: 'LD: send a message again now (same webhook-id)',
          description: "A message being sent right now answers `webhookDeliveryBusy`. Another owner's message answers code 404 like an unknown id.",
          params: idParams,
          body: NO_BODY,
          response: { 200: envelope() },
        },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const row = await app.db
          .selectFrom('webhook_deliveries')
          .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
          .select(['webhook_deliveries.id', 'webhook_deliveries.status'])
          .where('webhook_deliveries.id', '=', request.params.id)
          .where(`webhook_endpoints.${owner.column}`, '=', owner.id)
          .executeTakeFirst();
        if (!row) throw new AppError('notFound');
        const updated = await app.db
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', attempts: 0, next_attempt_at: new Date(), locked_until: null })
          .where('id', '=', row.id)
          .where('status', '!=', 'sending')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw new AppError('webhookDeliveryBusy');
        app.webhooks.wake();
        return ok(null);
      },
    );
  }
}
