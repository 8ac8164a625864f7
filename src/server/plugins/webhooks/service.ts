import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import fp from 'fastify-plugin';
import { sql, type Kysely, type Selectable } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { leadPayload, type LeadPayloadOptions, type LeadRecord } from '../../../engine/leads-payload';
import type { Database, WebhookDeliveryTable } from '../../db/schema';
import { translate } from '../../lib/messages';
import { BlockedTargetError, checkedLookup, checkTargetUrl, type TargetPolicy } from './target';
import { exportMappingOf } from '../../lib/export-mapping';
import { hiddenVisitorFieldsOf } from '../../lib/lead-fields';

// LD: webhooks. An event is recorded in the delivery queue (webhook_deliveries) in the caller's
// transaction, one row per subscribed endpoint, and a worker sends it signed per the Standard
// Webhooks specification (webhook-id, webhook-timestamp, webhook-signature). Rows are claimed
// with FOR UPDATE SKIP LOCKED and a lease (locked_until), so several servers on one database send
// each message once, and a server that dies mid-send leaves its rows to be sent again after the
// lease (at least once; the webhook-id stays the same so receivers drop the repeat). A failed
// attempt waits longer each time (RETRY_WAITS, about three days in all); an endpoint that has
// failed for WEBHOOK_DISABLE_AFTER_HOURS is switched off and its owner told by e-mail, its queue
// kept for when it is switched on again. Messages about one lead go to an endpoint in order: a
// message waits while an earlier one with the same ordering key is queued.

export const LEAD_EVENTS = ['lead.created', 'lead.updated', 'lead.erased'] as const;
export const ORGANISER_EVENTS = ['exhibitor.created', 'submission.submitted', 'approval.decided', 'form.published'] as const;
export const TEST_EVENT = 'webhook.test';
export type LeadEventType = (typeof LEAD_EVENTS)[number];
export type OrganiserEventType = (typeof ORGANISER_EVENTS)[number];

/** What happened: lead events name the leads (their exhibitors' endpoints get them), the others the event (its organisation's). */
export type WebhookEvent = { type: LeadEventType; leadIds: readonly number[] } | { type: OrganiserEventType; eventId: number; data: Record<string, unknown> };

export interface Webhooks {
  /** Queues the event for every endpoint that takes it, in `db` (the caller's transaction) if given. */
  emit(event: WebhookEvent, db?: Kysely<Database>): Promise<number>;
  /** Queues one message per item of `data` (each its own message id) with one look-up of the endpoints: many new exhibitors of an import at once. */
  emitEach(event: { type: OrganiserEventType; eventId: number; data: ReadonlyArray<Record<string, unknown>> }, db?: Kysely<Database>): Promise<number>;
  /** Queues a test message for one endpoint (sent even though no endpoint subscribes to it). */
  sendTest(endpointId: number): Promise<number>;
  /** Sends every message due at `now` (the worker's step; tests and commands call it, with a later `now` to skip waits). */
  deliverDue(now?: Date): Promise<number>;
  /** Asks this server's worker for a pass now (nothing without a worker). */
  wake(): void;
  /** A new secret for an endpoint (`whsec_…`). */
  newSecret(): string;
  /** Checks an endpoint's address as written under this server's policy; null = fine. */
  checkUrl(url: string): ReturnType<typeof checkTargetUrl>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export interface WebhooksOptions {
  policy: TargetPolicy;
  timeoutMs: number;
  pollMs: number;
  disableAfterMs: number;
  worker: boolean;
  publicUrl: string;
}

/**
 * Waits after the 1st, 2nd … failed attempt (about four and a half days in all, longer than an
 * endpoint may fail before it is switched off); after the last one the message is given up (failed).
 */
export const RETRY_WAITS_MS = [5_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, ...Array.from({ length: 10 }, () => 10 * 3_600_000)];
/** A message being sent is another server's for this long; after it, it is sent again. */
const LEASE_SECONDS = 120;
const BATCH = 100;
/** How long the delivery log keeps messages. */
const LOG_KEEP_MS = 30 * 24 * 3_600_000;
/** After a rotation the previous secret signs too for this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const ERROR_MAX = 500;

type DeliveryRow = Selectable<WebhookDeliveryTable> & { url: string; secret: string; previous_secret: string | null; previous_secret_until: Date | null };

interface Attempt {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** A message id: unique, and sortable by time like Standard Webhooks' examples (msg_…). */
const messageId = () => `msg_${Date.now().toString(36)}${randomUUID().replace(/-/g, '').slice(0, 16)}`;

/** LD: what a lead event carries; the exhibitor's mapping and the organiser's visibility apply through leadPayload. */
function leadData(type: LeadEventType, lead: LeadRecord, options: LeadPayloadOptions): Record<string, unknown> {
  if (type === 'lead.erased') return { id: Number(lead.id) };
  return leadPayload(lead, options);
}

export default fp<WebhooksOptions>(
  async (app, options) => {
    const lookup = checkedLookup(options.policy);
    const agents = {
      'https:': new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions),
      'http:': new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions),
    };

    /** The payload options of a participation's leads (the export mapping and the visibility rules, when set). */
    const payloadOptionsFor = async (participationId: number, db: Kysely<Database>): Promise<LeadPayloadOptions> => {
      const participation = await db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
      return { hiddenVisitorFields: await hiddenVisitorFieldsOf(db, participation.event_id), crmColumns: (await exportMappingOf(db, participationId)).columns };
    };

    async function emit(event: WebhookEvent, db: Kysely<Database> = app.db): Promise<number> {
      const timestamp = new Date().toISOString();
      const rows: Array<{ endpoint_id: number; message_id: string; event_type: string; payload: string; ordering_key: string | null }> = [];
      if ('leadIds' in event) {
        if (event.leadIds.length === 0) return 0;
        const ids = [...new Set(event.leadIds.map(Number))];
        const endpoints = await db
          .selectFrom('webhook_endpoints')
          .select(['id', 'participation_id'])
          .where('participation_id', 'in', db.selectFrom('leads').select('participation_id').where('id', 'in', ids))
          .where(sql<boolean>`events @> ${JSON.stringify([event.type])}::jsonb`)
          .execute();
        if (endpoints.length === 0) return 0;
        const leads = (await db.selectFrom('leads').selectAll().where('id', 'in', ids).orderBy('id').execute()) as unknown as Array<LeadRecord & { participation_id: number }>;
        const optionsByParticipation = new Map<number, LeadPayloadOptions>();
        for (const lead of leads) {
          const receivers = endpoints.filter((endpoint) => endpoint.participation_id === lead.participation_id);
          if (receivers.length === 0) continue;
          if (!optionsByParticipation.has(lead.participation_id)) optionsByParticipation.set(lead.participation_id, await payloadOptionsFor(lead.participation_id, db));
          const payload = JSON.stringify({ type: event.type, timestamp, data: leadData(event.type, lead, optionsByParticipation.get(lead.participation_id)!) });
          const id = messageId();
          for (const endpoint of receivers) rows.push({ endpoint_id: endpoint.id, message_id: id, event_type: event.type, payload, ordering_key: `lead:${Number(lead.id)}` });
        }
      } else return emitEach({ type: event.type, eventId: event.eventId, data: [event.data] }, db);
      return queue(rows, db);
    }

    async function emitEach(event: { type: OrganiserEventType; eventId: number; data: ReadonlyArray<Record<string, unknown>> }, db: Kysely<Database> = app.db): Promise<number> {
      if (event.data.length === 0) return 0;
      const endpoints = await db
        .selectFrom('webhook_endpoints')
        .select(['id'])
        .where('organisation_id', '=', db.selectFrom('events').select('organisation_id').where('id', '=', event.eventId))
        .where(sql<boolean>`events @> ${JSON.stringify([event.type])}::jsonb`)
        .execute();
      if (endpoints.length === 0) return 0;
      const timestamp = new Date().toISOString();
      const rows: Array<{ endpoint_id: number; message_id: string; event_type: string; payload: string; ordering_key: string | null }> = [];
      for (const data of event.data) {
        const payload = JSON.stringify({ type: event.type, timestamp, data: { eventId: event.eventId, ...data } });
        const id = messageId();
        for (const endpoint of endpoints) rows.push({ endpoint_id: endpoint.id, message_id: id, event_type: event.type, payload, ordering_key: null });
      }
      return queue(rows, db);
    }

    async function queue(
      rows: Array<{ endpoint_id: number; message_id: string; event_type: string; payload: string; ordering_key: string | null }>,
      db: Kysely<Database>,
    ): Promise<number> {
      if (rows.length === 0) return 0;
      for (let at = 0; at < rows.length; at += 1000)
        await db
          .insertInto('webhook_deliveries')
          .values(rows.slice(at, at + 1000))
          .execute();
      setImmediate(nudge);
      return rows.length;
    }

    async function sendTest(endpointId: number): Promise<number> {
      const payload = JSON.stringify({ type: TEST_EVENT, timestamp: new Date().toISOString(), data: { endpointId, portal: options.publicUrl } });
      const row = await app.db
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: endpointId, message_id: messageId(), event_type: TEST_EVENT, payload, ordering_key: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      setImmediate(nudge);
      return Number(row.id);
    }

    /** One signed POST; a redirect is a failure (never followed: it could lead inside the network). */
    function post(row: DeliveryRow, now: Date): Promise<Attempt> {
      const problem = checkTargetUrl(row.url, options.policy);
      if (problem) return Promise.resolve({ ok: false, status: null, error: `refused: ${problem}` });
      const url = new URL(row.url);
      const sentAt = new Date();
      const secrets = [row.secret];
      if (row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until).getTime() > now.getTime()) secrets.push(row.previous_secret);
      const signature = secrets.map((secret) => new Webhook(secret).sign(row.message_id, sentAt, row.payload)).join(' ');
      const body = Buffer.from(row.payload);
      const client = url.protocol === 'https:' ? https : http;
      return new Promise<Attempt>((resolve) => {
        const request = client.request(
          url,
          {
            method: 'POST',
            agent: agents[url.protocol as 'https:' | 'http:'],
            timeout: options.timeoutMs,
            signal: AbortSignal.timeout(options.timeoutMs),
            headers: {
              'content-type': 'application/json',
              'content-length': body.length,
              'user-agent': 'ExhibitorPortal-Webhooks/1',
              'webhook-id': row.message_id,
              'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
              'webhook-signature': signature,
            },
          },
          (response) => {
            const status = response.statusCode ?? 0;
            // The answer's body is not needed; reading it lets the connection be reused.
            response.resume();
            response.on('end', () => {
              if (status >= 200 && status < 300) resolve({ ok: true, status, error: null });
              else if (status >= 300 && status < 400) resolve({ ok: false, status, error: `redirect not followed (${response.headers.location ?? 'no location'})` });
              else resolve({ ok: false, status, error: `answered HTTP ${status}` });
            });
            response.on('error', (error) => resolve({ ok: false, status, error: error.message }));
          },
        );
        request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
        request.on('error', (error) =>
          resolve({ ok: false, status: null, error: error instanceof BlockedTargetError ? `refused: blockedAddress (${error.message})` : error.message || String(error) }),
        );
        request.end(body);
      });
    }

    async function claim(now: Date): Promise<DeliveryRow[]> {
      // The database's clock too: a row queued this very millisecond is due (its default time is the database's).
      const result = await sql<DeliveryRow>`
        with claimed as (
          update webhook_deliveries set status = 'sending', attempts = attempts + 1,
            locked_until = ${now}::timestamptz + make_interval(secs => ${LEASE_SECONDS})
          where id in (
            select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
            where e.enabled
              and ((d.status = 'pending' and d.next_attempt_at <= greatest(${now}::timestamptz, now())) or (d.status = 'sending' and d.locked_until < ${now}::timestamptz))
              and (d.ordering_key is null or not exists (
                select 1 from webhook_deliveries p
                where p.endpoint_id = d.endpoint_id and p.ordering_key = d.ordering_key and p.id < d.id and p.status in ('pending', 'sending')))
            order by d.id limit ${BATCH} for update of d skip locked)
          returning *)
        select c.*, e.url, e.secret, e.previous_secret, e.previous_secret_until
        from claimed c join webhook_endpoints e on e.id = c.endpoint_id
        order by c.id`.execute(app.db);
      return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
    }

    async function failed(row: DeliveryRow, attempt: Attempt, now: Date) {
      const final = row.attempts > RETRY_WAITS_MS.length;
      const wait = RETRY_WAITS_MS[Math.min(row.attempts, RETRY_WAITS_MS.length) - 1] ?? 0;
      await app.db
        .updateTable('webhook_deliveries')
        .set({
          status: final ? 'failed' : 'pending',
          locked_until: null,
          last_attempt_at: now,
          response_status: attempt.status,
          last_error: (attempt.error ?? '').slice(0, ERROR_MAX),
          next_attempt_at: new Date(now.getTime() + wait),
        })
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .execute();
      app.log.warn({ webhook: row.endpoint_id, delivery: row.id, attempt: row.attempts, final, status: attempt.status, error: attempt.error }, 'webhook delivery failed');
      // The first failure since the endpoint last answered starts its failing period.
      await app.db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', row.endpoint_id).where('failing_since', 'is', null).execute();
      const switchedOff = await app.db
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: 'failing', updated_at: now })
        .where('id', '=', row.endpoint_id)
        .where('enabled', '=', true)
        .where('failing_since', '<=', new Date(now.getTime() - options.disableAfterMs))
        .returning(['id', 'url', 'created_by', 'participation_id'])
        .executeTakeFirst();
      if (switchedOff) await tellOwner(switchedOff);
    }

    /** The e-mail to whoever added an endpoint that was switched off for failing. */
    async function tellOwner(endpoint: { id: number; url: string; created_by: number | null; participation_id: number | null }) {
      app.log.warn({ webhook: endpoint.id, url: endpoint.url }, 'webhook endpoint switched off after failing');
      if (endpoint.created_by === null) return;
      const user = await app.db.selectFrom('users').select(['email', 'display_name', 'language']).where('id', '=', endpoint.created_by).executeTakeFirst();
      if (!user?.email) return;
      const language = user.language ?? 'en';
      const params = {
        name: user.display_name,
        url: endpoint.url,
        hours: Math.round(options.disableAfterMs / 3_600_000),
        link: `${options.publicUrl}${endpoint.participation_id === null ? '/organiser/integrations' : '/digital-tools/integrations'}`,
      };
      await app.mailer.send({
        to: user.email,
        subject: translate(language, 'webhooks.disabledMail.subject', params),
        text: translate(language, 'webhooks.disabledMail.body', params),
        kind: 'webhookDisabled',
        refId: endpoint.id,
      });
    }

    async function attemptRow(row: DeliveryRow, now: Date): Promise<Attempt> {
      try {
        return await post(row, now);
      } catch (error) {
        return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
      }
    }

    /** Sends one claim's rows together and records them: the delivered in one statement, each failure on its own. */
    async function deliverClaim(rows: DeliveryRow[], now: Date): Promise<number> {
      const attempts = await Promise.all(rows.map(async (row) => ({ row, attempt: await attemptRow(row, now) })));
      const delivered = attempts.filter((entry) => entry.attempt.ok);
      if (delivered.length > 0) {
        const answers = JSON.stringify(delivered.map((entry) => ({ id: entry.row.id, status: entry.attempt.status })));
        await sql`update webhook_deliveries d set status = 'delivered', delivered_at = ${now}::timestamptz, last_attempt_at = ${now}::timestamptz,
            locked_until = null, response_status = r.status, last_error = null
          from jsonb_to_recordset(${answers}::jsonb) as r(id bigint, status int)
          where d.id = r.id`.execute(app.db);
        const answered = [...new Set(delivered.map((entry) => entry.row.endpoint_id))];
        await app.db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', 'in', answered).where('failing_since', 'is not', null).execute();
      }
      for (const entry of attempts) if (!entry.attempt.ok) await failed(entry.row, entry.attempt, now);
      return delivered.length;
    }

    let running: Promise<number> | null = null;
    let again = false;
    /**
     * One pass at a time per process (a call during a pass waits for it, then makes its own); a
     * pass claims until nothing is due. Rows of one claim go out together: they never share an
     * ordering key.
     */
    function deliverDue(now?: Date): Promise<number> {
      if (running) return running.then(() => deliverDue(now));
      running = (async () => {
        let delivered = 0;
        do {
          again = false;
          for (;;) {
            const at = now ?? new Date();
            const rows = await claim(at);
            if (rows.length === 0) break;
            delivered += await deliverClaim(rows, at);
          }
        } while (again);
        return delivered;
      })().finally(() => {
        running = null;
      });
      return running;
    }

    let closed = false;
    /** The worker's step after an emit and on its timer; during a pass it asks that pass for one more round. */
    const nudge = () => {
      if (!options.worker || closed) return;
      if (running) {
        again = true;
        return;
      }
      deliverDue().catch((error: unknown) => app.log.error({ err: error }, 'webhook worker pass failed'));
    };

    app.decorate('webhooks', {
      emit,
      emitEach,
      sendTest,
      deliverDue,
      wake: () => setImmediate(nudge),
      newSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
      checkUrl: (url: string) => checkTargetUrl(url, options.policy),
    } satisfies Webhooks);

    const timer = options.worker ? setInterval(nudge, options.pollMs) : null;
    timer?.unref();
    if (options.worker) app.addHook('onReady', async () => nudge());
    app.addHook('onClose', async () => {
      closed = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
      agents['https:'].destroy();
      agents['http:'].destroy();
    });
    // The delivery log keeps a month: payloads hold visitors' data.
    app.scheduler.every('webhook-deliveries-prune', 3_600, async () => {
      await app.db
        .deleteFrom('webhook_deliveries')
        .where('status', 'in', ['delivered', 'failed'])
        .where('created_at', '<', new Date(Date.now() - LOG_KEEP_MS))
        .execute();
    });
  },
  { name: 'webhooks', dependencies: ['database', 'scheduler', 'mailer'] },
);
