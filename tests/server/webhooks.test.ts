import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { RETRY_WAITS_MS } from '../../src/server/plugins/webhooks/service';
import { checkedLookup } from '../../src/server/plugins/webhooks/target';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { bodyOf, call, createTestApp, DAY, ENGINES, get, HOUR, login, limitedWithLeadRetrieval, patch, post, put, type TestApp, unscannedVisitors } from './helpers';

// LD webhooks on both engines with a real receiver (a node http server on 127.0.0.1, reachable
// because the test server is a development server: PUBLIC_URL on localhost): signatures checked
// with the Standard Webhooks verifier, retries after a 500 and after a receiver that was down,
// order per lead, secret rotation with overlap, an endpoint switched off after failing for days
// with an e-mail, SSRF refusals under a production address, owner scoping, and (PostgreSQL) two
// instances sending each message once. The queue is driven by its run function with a later
// clock, never by waiting.

const WORKER_OFF = { worker: false, localTargets: true, timeoutSeconds: 1, pollSeconds: 60, disableAfterHours: 72 };
let counter = 0;
const scanId = () => `wh-${Date.now().toString(36)}-${(counter += 1)}-${randomBytes(3).toString('hex')}`;

interface Delivery {
  id: number;
  messageId: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  payload: string;
}

describe.each(ENGINES)('webhooks on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let participationId: number;
  let eventId: number;
  let receiver: WebhookReceiver;
  let badges: string[];

  beforeAll(async () => {
    t = await createTestApp(engine, { webhooks: WORKER_OFF });
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
    const user = await t.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    participationId = user.participation_id!;
    eventId = user.event_id!;
    limited = await limitedWithLeadRetrieval(t.app);
    badges = (await unscannedVisitors(t.app, eventId, participationId, 100)).map((row) => row.badge_code);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await t?.close();
  });
  beforeEach(async () => {
    receiver.answer = { status: 200 };
    receiver.received.length = 0;
    // Each test starts with no endpoint (and so no queue) of its own.
    await t.app.db.deleteFrom('webhook_endpoints').execute();
  });

  const addEndpoint = async (events: string[] = ['lead.created', 'lead.updated', 'lead.erased'], token = demo, url = receiver.url) => {
    const added = await post<{ endpoint: { id: number }; secret: string }>(t.app, '/oga/webhooks/endpoints', { url, description: 'CRM', events }, token);
    expect(bodyOf(added)).toMatchObject({ code: 200 });
    return added.data;
  };
  const scan = async (badge = badges.shift()!) => {
    const answer = await post(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode: badge, scannedAt: new Date(Date.now() - HOUR).toISOString() }, demo);
    expect(answer.data.results[0].status).toBe('created');
    return answer.data.results[0].leadId as number;
  };
  const log = async (endpointId: number, token = demo) =>
    (await get<{ items: Delivery[]; total: number }>(t.app, `/oga/webhooks/endpoints/${endpointId}/deliveries`, token)).data.items;
  const later = (ms: number) => new Date(Date.now() + ms);
  const headersOf = (request: { headers: Record<string, unknown> }) => ({
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });

  it('LD a new lead reaches the receiver signed per Standard Webhooks; the secret is shown once', async () => {
    const { endpoint, secret } = await addEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await get(t.app, '/oga/webhooks/endpoints', demo);
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    expect(listed.data[0]).toMatchObject({ id: endpoint.id, url: receiver.url, events: ['lead.created', 'lead.updated', 'lead.erased'], enabled: true });

    const leadId = await scan();
    expect(await t.app.webhooks.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const verified = new Webhook(secret).verify(request!.body, headersOf(request!)) as { type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'lead.created', data: { id: leadId, badgeKnown: true } });
    expect(request!.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(request!.body, headersOf(request!))).toThrow();
    const [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200, eventType: 'lead.created', messageId: request!.headers['webhook-id'] });
    expect(JSON.parse(delivery!.payload)).toMatchObject({ type: 'lead.created', data: { id: leadId } });
  });

  it("LD2 LD4 a lead's payload leaves out the visitor fields the organiser hides and carries the exhibitor's CRM columns", async () => {
    expect((await put(t.app, '/oga/organiser/lead-fields', { hidden: ['phone', 'mobile'] }, organiser)).code).toBe(200);
    expect((await put(t.app, '/oga/leads/export-mapping', { preset: 'salesforce', columns: [] }, demo)).code).toBe(200);
    try {
      const { secret } = await addEndpoint(['lead.created']);
      const leadId = await scan();
      await t.app.webhooks.deliverDue();
      const [request] = receiver.received;
      const { data } = new Webhook(secret).verify(request!.body, headersOf(request!)) as { data: Record<string, unknown> & { crm: Record<string, string> } };
      const stored = await t.app.db.selectFrom('leads').select(['visitor_name', 'phone', 'mobile']).where('id', '=', leadId).executeTakeFirstOrThrow();
      expect(stored.phone || stored.mobile).not.toBe('');
      expect(data).toMatchObject({ id: leadId, phone: '', mobile: '', visitorName: stored.visitor_name });
      expect(data.crm).toMatchObject({ Phone: '', Mobile: '' });
      expect(`${data.crm['First Name']} ${data.crm['Last Name']}`.trim()).toBe(stored.visitor_name.trim());
    } finally {
      await put(t.app, '/oga/organiser/lead-fields', { hidden: [] }, organiser);
      await put(t.app, '/oga/leads/export-mapping', { preset: 'portal', columns: [] }, demo);
    }
  });

  it('LD a receiver answering 500 gets the message again under the same webhook-id after a growing wait', async () => {
    const { endpoint, secret } = await addEndpoint();
    receiver.answer = { status: 500 };
    await scan();
    expect(await t.app.webhooks.deliverDue()).toBe(0);
    const [failed] = await log(endpoint.id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    // Not due again before its wait.
    await t.app.webhooks.deliverDue();
    expect(receiver.received).toHaveLength(1);
    receiver.answer = { status: 204 };
    expect(await t.app.webhooks.deliverDue(later(RETRY_WAITS_MS[0]! + 1000))).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    new Webhook(secret).verify(second!.body, headersOf(second!));
    expect((await log(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 204 });
  });

  it('LD a receiver down for two days gets every lead when it comes back, in order per lead; none is sent twice', async () => {
    const { endpoint } = await addEndpoint();
    await receiver.stop();
    const leadId = await scan();
    expect((await patch(t.app, `/oga/leads/${leadId}`, { temperature: 'warm' }, demo)).code).toBe(200);
    const other = await scan();
    // Two days of attempts against a dead receiver: the clock moves past each wait.
    let clock = Date.now();
    for (let attempt = 0; clock < Date.now() + 2 * DAY; attempt++) {
      await t.app.webhooks.deliverDue(new Date(clock));
      clock += (RETRY_WAITS_MS[attempt] ?? 10 * HOUR) + 1000;
    }
    expect(receiver.received).toHaveLength(0);
    const waiting = await log(endpoint.id);
    expect(waiting.map((d) => d.status).sort()).toEqual(['pending', 'pending', 'pending']);
    // The update of the first lead waits behind its creation: it was never tried.
    expect(waiting.find((d) => d.eventType === 'lead.updated')!.attempts).toBe(0);
    expect(waiting.find((d) => d.eventType === 'lead.created')!.attempts).toBeGreaterThan(3);
    expect(waiting[0]!.error).toBeTruthy();
    const state = await t.app.db.selectFrom('webhook_endpoints').select(['enabled']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(state.enabled).toBe(true);

    await receiver.start();
    await t.app.webhooks.deliverDue(new Date(clock + 11 * HOUR));
    await t.app.webhooks.deliverDue(new Date(clock + 11 * HOUR));
    const sent = receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: { id: number } });
    expect(sent).toHaveLength(3);
    const aboutFirst = sent.filter((message) => message.data.id === leadId).map((message) => message.type);
    expect(aboutFirst).toEqual(['lead.created', 'lead.updated']);
    expect(sent.filter((message) => message.data.id === other)).toHaveLength(1);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(3);
    expect((await log(endpoint.id)).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('LD a receiver that never answers: the attempt ends at the time limit and is retried', async () => {
    const { endpoint } = await addEndpoint();
    receiver.answer = { status: 200, hang: true };
    await scan();
    expect(await t.app.webhooks.deliverDue()).toBe(0);
    const [timedOut] = await log(endpoint.id);
    expect(timedOut).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(timedOut!.error).toBeTruthy();
    receiver.answer = { status: 200 };
    expect(await t.app.webhooks.deliverDue(later(RETRY_WAITS_MS[0]! + 1000))).toBe(1);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
  });

  it('LD a rotated secret: both the old and the new secret verify messages during the overlap', async () => {
    const { endpoint, secret: old } = await addEndpoint();
    const rotated = await post<{ secret: string; endpoint: { previousSecretUntil: string } }>(t.app, `/oga/webhooks/endpoints/${endpoint.id}/rotate`, {}, demo);
    expect(rotated.code).toBe(200);
    expect(rotated.data.secret).not.toBe(old);
    expect(new Date(rotated.data.endpoint.previousSecretUntil).getTime()).toBeGreaterThan(Date.now() + 23 * HOUR);
    await scan();
    await t.app.webhooks.deliverDue();
    const [request] = receiver.received;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    new Webhook(old).verify(request!.body, headersOf(request!));
    new Webhook(rotated.data.secret).verify(request!.body, headersOf(request!));
    // After the overlap only the new secret signs.
    receiver.received.length = 0;
    await scan();
    await t.app.webhooks.deliverDue(later(25 * HOUR));
    const [afterOverlap] = receiver.received;
    expect(String(afterOverlap!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(old).verify(afterOverlap!.body, headersOf(afterOverlap!))).toThrow();
  });

  it('LD a test event and "send again" show in the delivery log; a redirect is not followed', async () => {
    const { endpoint } = await addEndpoint(['lead.created']);
    const test = await post(t.app, `/oga/webhooks/endpoints/${endpoint.id}/test`, {}, demo);
    expect(test.code).toBe(200);
    await t.app.webhooks.deliverDue();
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
    const [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ id: test.data.deliveryId, eventType: 'webhook.test', status: 'delivered' });
    expect((await post(t.app, `/oga/webhooks/deliveries/${delivery!.id}/resend`, {}, demo)).code).toBe(200);
    await t.app.webhooks.deliverDue();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(delivery!.messageId);

    receiver.answer = { status: 302, headers: { location: 'http://10.0.0.1/admin' } };
    await post(t.app, `/oga/webhooks/endpoints/${endpoint.id}/test`, {}, demo);
    await t.app.webhooks.deliverDue();
    const [redirected] = await log(endpoint.id);
    expect(redirected).toMatchObject({ status: 'pending', responseStatus: 302 });
    expect(redirected!.error).toContain('redirect not followed');
    expect(receiver.received.filter((request) => request.url !== '/hooks')).toHaveLength(0);
  });

  it('LD an endpoint failing for days is switched off and its owner told by e-mail; switched on again, its queue is sent', async () => {
    const { endpoint } = await addEndpoint();
    receiver.answer = { status: 503 };
    await scan();
    await t.app.webhooks.deliverDue();
    let clock = Date.now();
    for (let attempt = 0; clock < Date.now() + 4 * DAY; attempt++) {
      clock += (RETRY_WAITS_MS[attempt] ?? 10 * HOUR) + 1000;
      await t.app.webhooks.deliverDue(new Date(clock));
    }
    const listed = (await get(t.app, '/oga/webhooks/endpoints', demo)).data[0];
    expect(listed).toMatchObject({ enabled: false, disabledReason: 'failing', pending: 1 });
    const mails = await t.app.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'to_address'])
      .where('kind', '=', 'webhookDisabled')
      .where('ref_id', '=', String(endpoint.id))
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(receiver.url);
    const owner = await t.app.db.selectFrom('users').select('email').where('login', '=', 'demo').executeTakeFirstOrThrow();
    expect(mails[0]!.to_address).toBe(owner.email);
    // Switched off, nothing is sent; switched on, the kept message goes.
    receiver.answer = { status: 200 };
    const before = receiver.received.length;
    await t.app.webhooks.deliverDue(new Date(clock + DAY));
    expect(receiver.received).toHaveLength(before);
    expect((await patch(t.app, `/oga/webhooks/endpoints/${endpoint.id}`, { enabled: true }, demo)).data).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await t.app.webhooks.deliverDue(new Date(clock + DAY));
    expect(receiver.received).toHaveLength(before + 1);
  });

  it("LD erasing a visitor tells the exhibitor's receiver (lead.erased, the id only)", async () => {
    await addEndpoint(['lead.erased']);
    const badge = badges.shift()!;
    const leadId = await scan(badge);
    const erased = await post(t.app, '/oga/organiser/privacy/visitor/erase', { badgeCode: badge }, organiser);
    expect(bodyOf(erased)).toMatchObject({ code: 200 });
    await t.app.webhooks.deliverDue();
    const message = JSON.parse(receiver.received.at(-1)!.body);
    expect(message).toEqual({ type: 'lead.erased', timestamp: expect.any(String), data: { id: leadId } });
  });

  it("LD organiser endpoints take the organisation's events (form.published through app.webhooks.emit, exhibitor.created from the console)", async () => {
    const refused = await post(t.app, '/oga/organiser/webhooks/endpoints', { url: receiver.url, events: ['lead.created'] }, organiser);
    expect(bodyOf(refused)).toMatchObject({ code: 601, error: 'webhookEventNotAllowed' });
    const added = await post(t.app, '/oga/organiser/webhooks/endpoints', { url: receiver.url, events: ['form.published', 'exhibitor.created'] }, organiser);
    expect(added.code).toBe(200);
    expect(await t.app.webhooks.emit({ type: 'form.published', eventId, data: { formId: 'any', version: 2 } })).toBe(1);
    // An exhibitor's own endpoint never gets organiser events.
    await t.app.webhooks.deliverDue();
    const message = JSON.parse(receiver.received[0]!.body);
    expect(message).toMatchObject({ type: 'form.published', data: { eventId, formId: 'any', version: 2 } });
    new Webhook(added.data.secret).verify(receiver.received[0]!.body, headersOf(receiver.received[0]!));
    // Exhibitors cannot reach the organiser's endpoints, nor organisers the exhibitor's routes.
    expect((await get(t.app, '/oga/organiser/webhooks/endpoints', demo)).code).toBe(403);
    expect((await get(t.app, '/oga/webhooks/endpoints', organiser)).code).toBe(403);
  });

  it("LD the console tells the organisation's receiver of a new exhibitor, a submission and an approval decided", async () => {
    const added = await post(
      t.app,
      '/oga/organiser/webhooks/endpoints',
      { url: receiver.url, events: ['exhibitor.created', 'submission.submitted', 'approval.decided'] },
      organiser,
    );
    expect(added.code).toBe(200);
    const created = await post(
      t.app,
      '/oga/organiser/exhibitors',
      {
        code: 'WH1',
        name: 'WH1 Trading',
        legalName: 'WH1 Trading Sdn Bhd',
        boothNum: 'Hall 9 · WH1',
        logoUrl: '',
        account: 'wh1.main',
        email: 'wh1@trading.example',
        contactName: 'Siti Aminah',
        modules: ['Forms'],
        flags: {},
        quotas: {},
        deadlines: {},
      },
      organiser,
    );
    expect(bodyOf(created)).toMatchObject({ code: 200 });
    // Extra badges wait for the organiser's approval (forms.yaml), which then decides.
    const badges = [
      { firstName: 'Aisyah', lastName: 'Rahman', email: 'badge1@borneo.example' },
      { firstName: 'Aisyah', lastName: 'Rahman', email: 'badge2@borneo.example', extra: true },
    ];
    expect(bodyOf(await post(t.app, '/oga/forms/s04/submit', { data: { badges }, version: 0 }, demo))).toMatchObject({ code: 200 });
    const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ id: number; formCode: string }>;
    const entry = waiting.find((w) => w.formCode === 'S04')!;
    expect((await post(t.app, `/oga/approvals/${entry.id}`, { decision: 'approved', comment: 'Fine.' }, organiser)).code).toBe(200);
    await t.app.webhooks.deliverDue();
    const messages = receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> });
    expect(messages).toEqual([
      expect.objectContaining({ type: 'exhibitor.created', data: expect.objectContaining({ eventId, participationId: created.data.id, code: 'WH1' }) }),
      expect.objectContaining({ type: 'submission.submitted', data: expect.objectContaining({ eventId, participationId, formId: 's04' }) }),
      expect.objectContaining({ type: 'approval.decided', data: expect.objectContaining({ eventId, entryId: entry.id, decision: 'approved', comment: 'Fine.' }) }),
    ]);
  });

  it("P5 another exhibitor's endpoint and deliveries answer 404; bad input is refused with coded messages and nothing stored", async () => {
    const { endpoint } = await addEndpoint(['lead.created']);
    await post(t.app, `/oga/webhooks/endpoints/${endpoint.id}/test`, {}, demo);
    const [delivery] = await log(endpoint.id);
    for (const answer of [
      await get(t.app, `/oga/webhooks/endpoints/${endpoint.id}/deliveries`, limited),
      await patch(t.app, `/oga/webhooks/endpoints/${endpoint.id}`, { enabled: false }, limited),
      await call(t.app, 'DELETE', `/oga/webhooks/endpoints/${endpoint.id}`, { token: limited }),
      await post(t.app, `/oga/webhooks/endpoints/${endpoint.id}/rotate`, {}, limited),
      await post(t.app, `/oga/webhooks/endpoints/${endpoint.id}/test`, {}, limited),
      await post(t.app, `/oga/webhooks/deliveries/${delivery!.id}/resend`, {}, limited),
    ])
      expect(answer.code).toBe(404);
    expect((await get(t.app, '/oga/webhooks/endpoints', limited)).data).toEqual([]);
    expect((await get(t.app, '/oga/webhooks/endpoints', demo)).data).toHaveLength(1);

    const refusals: Array<[unknown, string]> = [
      [{ url: 'ftp://crm.example.com/x', events: ['lead.created'] }, 'webhookUrlInvalid'],
      [{ url: 'not a url', events: ['lead.created'] }, 'webhookUrlInvalid'],
      [{ url: 'http://crm.example.com/x', events: ['lead.created'] }, 'webhookHttpsRequired'],
      [{ url: 'https://user:pw@crm.example.com/x', events: ['lead.created'] }, 'webhookUrlCredentials'],
      [{ url: 'https://10.1.2.3/x', events: ['lead.created'] }, 'webhookAddressBlocked'],
      [{ url: 'https://crm.example.com/x', events: [] }, 'webhookEventsRequired'],
      [{ url: 'https://crm.example.com/x', events: ['form.published'] }, 'webhookEventNotAllowed'],
    ];
    for (const [body, error] of refusals) {
      const answer = await post(t.app, '/oga/webhooks/endpoints', body, demo);
      expect(bodyOf(answer), error).toMatchObject({ code: 601, error });
      expect(answer.status).toBeLessThan(500);
    }
    expect((await post(t.app, '/oga/webhooks/endpoints', { url: 'https://crm.example.com/x', events: ['lead.nope'] }, demo)).code).toBe(601);
    expect((await get(t.app, '/oga/webhooks/endpoints', demo)).data).toHaveLength(1);
  });
});

describe.each(ENGINES)('webhooks under a production address on %s (SSRF)', (engine) => {
  let t: TestApp;
  let demo: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp(engine, { publicUrl: 'https://portal.example.com', webhooks: { ...WORKER_OFF, localTargets: false } });
    demo = await login(t.app, 'demo');
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await t?.close();
  });

  it('LD refuses loopback, private, link-local and localhost addresses when saved', async () => {
    for (const [url, error] of [
      [receiver.url, 'webhookHttpsRequired'],
      [`https://127.0.0.1:${receiver.port}/hooks`, 'webhookAddressBlocked'],
      ['https://10.0.0.8/hooks', 'webhookAddressBlocked'],
      ['https://192.168.1.10/hooks', 'webhookAddressBlocked'],
      ['https://169.254.169.254/latest/meta-data', 'webhookAddressBlocked'],
      ['https://[::1]/hooks', 'webhookAddressBlocked'],
      ['https://[::ffff:10.0.0.1]/hooks', 'webhookAddressBlocked'],
      [`https://localhost:${receiver.port}/hooks`, 'webhookAddressBlocked'],
    ] as const) {
      const answer = await post(t.app, '/oga/webhooks/endpoints', { url, events: ['lead.created'] }, demo);
      expect(bodyOf(answer), url).toMatchObject({ code: 601, error });
    }
    expect((await get(t.app, '/oga/webhooks/endpoints', demo)).data).toEqual([]);
  });

  it('LD checks again when sending, after resolving the name: an endpoint whose address now points inside is refused, nothing reaches it', async () => {
    const added = await post(t.app, '/oga/webhooks/endpoints', { url: 'https://crm.example.com/hooks', events: ['lead.created'] }, demo);
    expect(added.code).toBe(200);
    const id = added.data.endpoint.id as number;
    for (const url of [`https://127.0.0.1:${receiver.port}/hooks`, 'https://10.20.30.40/hooks', `http://127.0.0.1:${receiver.port}/hooks`]) {
      // As if the stored address had changed meaning (an older row, a changed policy).
      await t.app.db.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('endpoint_id', '=', id).execute();
      await t.app.db.updateTable('webhook_endpoints').set({ url }).where('id', '=', id).execute();
      await post(t.app, `/oga/webhooks/endpoints/${id}/test`, {}, demo);
      await t.app.webhooks.deliverDue();
      const [delivery] = (await get<{ items: Delivery[] }>(t.app, `/oga/webhooks/endpoints/${id}/deliveries`, demo)).data.items;
      expect(delivery, url).toMatchObject({ status: 'pending', responseStatus: null });
      expect(delivery!.error).toMatch(/^refused: (blockedAddress|httpsRequired)/);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("LD the connection's own lookup refuses a name that resolves to loopback (localhost)", async () => {
    const lookup = checkedLookup({ localTargets: false });
    const error = await new Promise<Error | null>((resolve) => lookup('localhost', { all: true }, (failure) => resolve(failure)));
    expect(error?.message).toContain('may not reach');
    const allowed = checkedLookup({ localTargets: true });
    const addresses = await new Promise<unknown>((resolve) => allowed('localhost', { all: true }, (_failure, found) => resolve(found)));
    expect(Array.isArray(addresses) && addresses.length > 0).toBe(true);
  });
});

describe('webhooks with two instances on one PostgreSQL', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let secondDir: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp('postgres', { webhooks: WORKER_OFF });
    secondDir = mkdtempSync(join(tmpdir(), 'portal-test-webhooks-second-'));
    second = await buildApp({ ...t.config, dataDir: secondDir }, { logger: false, watchForms: false });
    await second.ready();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await second?.close();
    rmSync(secondDir, { recursive: true, force: true });
    await t?.close();
  });

  it('LD each message is sent once however many instances deliver at the same time', async () => {
    const demo = await login(t.app, 'demo');
    const added = await post(t.app, '/oga/webhooks/endpoints', { url: receiver.url, events: ['lead.created'] }, demo);
    expect(added.code).toBe(200);
    const leads = await t.app.db
      .selectFrom('leads')
      .innerJoin('users', 'users.participation_id', 'leads.participation_id')
      .select('leads.id')
      .where('users.login', '=', 'demo')
      .limit(120)
      .execute();
    expect(leads.length).toBeGreaterThan(50);
    expect(await t.app.webhooks.emit({ type: 'lead.created', leadIds: leads.map((lead) => lead.id) })).toBe(leads.length);
    const [a, b] = await Promise.all([t.app.webhooks.deliverDue(), second.webhooks.deliverDue()]);
    expect(a + b).toBe(leads.length);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(leads.length);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(leads.length);
  });
});
