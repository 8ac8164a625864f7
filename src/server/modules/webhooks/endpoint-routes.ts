import type { Selectable } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import type { WebhookEndpointTable } from '../../db/schema';
import type { ApiApp } from '../../lib/api-app';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { LEAD_EVENTS, ORGANISER_EVENTS, ROTATION_OVERLAP_MS } from '../../plugins/webhooks/service';
import type { TargetProblem } from '../../plugins/webhooks/target';
import { ownedEndpoint, ownerOf, OWNER_ROUTES, TAGS, type Owner } from './owner';

// LD: webhook endpoints (an exhibitor's, an organisation's): add, change, switch on and off,
// remove, rotate the secret, send a test event. The secret is shown once, when made.

/** Endpoints one owner may have. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
const URL_MAX = 2000;
const DESCRIPTION_MAX = 200;
const EVENT_TYPES = [...LEAD_EVENTS, ...ORGANISER_EVENTS] as const;

const PROBLEM_ERRORS = {
  invalidUrl: 'webhookUrlInvalid',
  httpsRequired: 'webhookHttpsRequired',
  credentialsInUrl: 'webhookUrlCredentials',
  blockedAddress: 'webhookAddressBlocked',
} as const satisfies Record<TargetProblem, string>;

const endpointSchema = {
  type: 'object',
  required: ['id', 'url', 'description', 'events', 'enabled', 'disabledReason', 'failingSince', 'previousSecretUntil', 'createdAt', 'pending', 'failed'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    description: { type: 'string' },
    events: { type: 'array', items: { type: 'string', enum: EVENT_TYPES } },
    enabled: { type: 'boolean' },
    disabledReason: {
      type: ['string', 'null'],
      enum: ['failing', 'owner', null],
      description: '`failing`: switched off after failing for days; `owner`: switched off by its owner',
    },
    failingSince: { type: ['string', 'null'], description: 'The first failed attempt since it last answered' },
    previousSecretUntil: { type: ['string', 'null'], description: 'After a rotation: until when the previous secret signs too' },
    createdAt: { type: 'string', format: 'date-time' },
    pending: { type: 'integer', description: 'Messages waiting to be sent' },
    failed: { type: 'integer', description: 'Messages given up after every retry' },
  },
} as const;

const withSecret = envelope({
  type: 'object',
  required: ['endpoint', 'secret'],
  additionalProperties: false,
  properties: { endpoint: endpointSchema, secret: { type: 'string', description: 'The signing secret (`whsec_…`): shown only now' } },
});

const endpointBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: URL_MAX, description: 'https address that receives the POSTs' },
    description: { type: 'string', maxLength: DESCRIPTION_MAX },
    events: { type: 'array', maxItems: EVENT_TYPES.length, uniqueItems: true, items: { type: 'string', enum: EVENT_TYPES } },
    enabled: { type: 'boolean', description: 'Switching on again clears the failing state; queued messages are sent' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export default async function endpointRoutes(app: ApiApp) {
  const out = async (row: Selectable<WebhookEndpointTable>) => {
    const counts = await app.db
      .selectFrom('webhook_deliveries')
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere('status', 'in', ['pending', 'sending']).as('pending'),
        eb.fn.countAll<number>().filterWhere('status', '=', 'failed').as('failed'),
      ])
      .where('endpoint_id', '=', row.id)
      .executeTakeFirst();
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      events: (row.events ?? []) as Array<(typeof EVENT_TYPES)[number]>,
      enabled: row.enabled,
      disabledReason: row.enabled ? null : ((row.disabled_reason ?? 'owner') as 'failing' | 'owner'),
      failingSince: iso(row.failing_since),
      previousSecretUntil: row.previous_secret_until && new Date(row.previous_secret_until).getTime() > Date.now() ? iso(row.previous_secret_until) : null,
      createdAt: new Date(row.created_at).toISOString(),
      pending: Number(counts?.pending ?? 0),
      failed: Number(counts?.failed ?? 0),
    };
  };

  const checkUrl = (url: string) => {
    const problem = app.webhooks.checkUrl(url.trim());
    if (problem) throw new AppError(PROBLEM_ERRORS[problem], { field: 'url' });
    return url.trim();
  };

  const checkEvents = (owner: Owner, events: readonly string[]) => {
    if (events.length === 0) throw new AppError('webhookEventsRequired', { field: 'events' });
    const wrong = events.find((event) => !owner.events.includes(event));
    if (wrong) throw new AppError('webhookEventNotAllowed', { field: 'events', event: wrong });
    return events;
  };

  for (const place of OWNER_ROUTES) {
    const base = `${API_BASE}${place.base}/endpoints`;
    const routeConfig = { screen: place.screen };
    const ownerLabel = place.kind === 'exhibitor' ? "the exhibitor's" : "the organisation's";
    const allowed = (place.kind === 'exhibitor' ? LEAD_EVENTS : ORGANISER_EVENTS).map((event) => `\`${event}\``).join(', ');

    app.get(
      base,
      {
        config: routeConfig,
        schema: { tags: TAGS, summary: `LD: ${ownerLabel} webhook endpoints`, response: { 200: envelope({ type: 'array', items: endpointSchema }) } },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const rows = await app.db.selectFrom('webhook_endpoints').selectAll().where(owner.column, '=', owner.id).orderBy('id').execute();
        return ok(await Promise.all(rows.map(out)));
      },
    );

    app.post(
      base,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: `LD: add a webhook endpoint (${ownerLabel}); its signing secret is answered once`,
          description: `Events this endpoint may take: ${allowed}. Each message is a POST of JSON \`{ type, timestamp, data }\` signed per the Standard Webhooks specification (headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`; verify with any Standard Webhooks library and the secret). Only https addresses on the public internet (plain http only to localhost on a development server); refused with \`webhookHttpsRequired\`, \`webhookAddressBlocked\`, \`webhookUrlInvalid\` or \`webhookUrlCredentials\`. At most ${WEBHOOK_ENDPOINTS_MAX} endpoints (\`webhookEndpointsTooMany\`).`,
          body: { ...endpointBody, required: ['url', 'events'], examples: [{ url: 'https://crm.example.com/hooks/portal', description: 'CRM', events: ['lead.created'] }] },
          response: { 200: withSecret },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const owner = ownerOf(place.kind, auth);
        const url = checkUrl(request.body.url);
        const events = checkEvents(owner, request.body.events);
        const count = await app.db
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(owner.column, '=', owner.id)
          .executeTakeFirst();
        if (Number(count?.n ?? 0) >= WEBHOOK_ENDPOINTS_MAX) throw new AppError('webhookEndpointsTooMany', null, { limit: WEBHOOK_ENDPOINTS_MAX });
        const secret = app.webhooks.newSecret();
        const row = await app.db
          .insertInto('webhook_endpoints')
          .values({
            [owner.column]: owner.id,
            url,
            description: (request.body.description ?? '').trim(),
            events: JSON.stringify(events),
            secret,
            enabled: request.body.enabled ?? true,
            disabled_reason: request.body.enabled === false ? 'owner' : null,
            created_by: auth.user.id,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok({ endpoint: await out(row), secret });
      },
    );

    app.patch(
      `${base}/:id`,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: 'LD: change a webhook endpoint (address, description, events, on/off)',
          description: "Only what is sent changes. Another owner's endpoint answers code 404 like an unknown id.",
          params: idParams,
          body: endpointBody,
          response: { 200: envelope(endpointSchema) },
        },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const endpoint = await ownedEndpoint(app, owner, request.params.id);
        const body = request.body;
        const changes: Partial<Record<'url' | 'description' | 'events' | 'enabled' | 'disabled_reason' | 'failing_since', unknown>> = {};
        if (body.url !== undefined) changes.url = checkUrl(body.url);
        if (body.description !== undefined) changes.description = body.description.trim();
        if (body.events !== undefined) changes.events = JSON.stringify(checkEvents(owner, body.events));
        if (body.enabled !== undefined && body.enabled !== endpoint.enabled) {
          changes.enabled = body.enabled;
          changes.disabled_reason = body.enabled ? null : 'owner';
          // Switched on again: its failing period starts anew with the next failure.
          if (body.enabled) changes.failing_since = null;
        }
        const row = await app.db
          .updateTable('webhook_endpoints')
          .set({ ...(changes as object), updated_at: new Date() })
          .where('id', '=', endpoint.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok(await out(row));
      },
    );

    app.delete(
      `${base}/:id`,
      {
        config: routeConfig,
        schema: { tags: TAGS, summary: 'LD: remove a webhook endpoint with its queue and delivery log', params: idParams, body: NO_BODY, response: { 200: envelope() } },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const endpoint = await ownedEndpoint(app, owner, request.params.id);
        await app.db.deleteFrom('webhook_endpoints').where('id', '=', endpoint.id).execute();
        return ok(null);
      },
    );

    app.post(
      `${base}/:id/rotate`,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: 'LD: a new signing secret (answered once); the previous one signs too for 24 hours',
          description:
            'During the overlap each message carries two signatures in `webhook-signature` (space-separated), one per secret, so a receiver verifies with either while it switches over. A second rotation during the overlap ends the first one.',
          params: idParams,
          body: NO_BODY,
          response: { 200: withSecret },
        },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const endpoint = await ownedEndpoint(app, owner, request.params.id);
        const secret = app.webhooks.newSecret();
        const row = await app.db
          .updateTable('webhook_endpoints')
          .set({ secret, previous_secret: endpoint.secret, previous_secret_until: new Date(Date.now() + ROTATION_OVERLAP_MS), updated_at: new Date() })
          .where('id', '=', endpoint.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok({ endpoint: await out(row), secret });
      },
    );

    app.post(
      `${base}/:id/test`,
      {
        config: routeConfig,
        schema: {
          tags: TAGS,
          summary: 'LD: send a test event (`webhook.test`) to the endpoint',
          description: 'Queued like any message and shown in the delivery log; sent even when the endpoint takes no such event, but not while it is switched off.',
          params: idParams,
          body: NO_BODY,
          response: { 200: envelope({ type: 'object', required: ['deliveryId'], additionalProperties: false, properties: { deliveryId: { type: 'integer' } } }) },
        },
      },
      async (request) => {
        const owner = ownerOf(place.kind, requireAuth(request));
        const endpoint = await ownedEndpoint(app, owner, request.params.id);
        return ok({ deliveryId: await app.webhooks.sendTest(endpoint.id) });
      },
    );
  }
}
