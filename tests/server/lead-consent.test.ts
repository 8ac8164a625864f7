import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { bodyOf, createTestApp, ENGINES, get, HOUR, login, limitedWithLeadRetrieval, patch, post, put, type TestApp } from './helpers';

// LD2 on both engines: each lead carries its consent state and source (badge scan, typed-in code,
// business card); the organiser sets the event's consent text and legal basis (audited); a
// visitor's withdrawal on the privacy page reaches the leads of two exhibitors (list and detail),
// an export made afterwards and a webhook receiver (lead.updated with the withdrawal); the
// subject access answer lists the exports and webhook messages that carried the visitor.

const WORKER_OFF = { worker: false, localTargets: true, timeoutSeconds: 1, pollSeconds: 60, disableAfterHours: 72 };
let counter = 0;
const scanId = () => `consent-${Date.now().toString(36)}-${(counter += 1)}-${randomBytes(3).toString('hex')}`;

describe.each(ENGINES)('consent kept with every lead on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let eventId: number;
  let participationId: number;
  let badges: Array<{ badge_code: string; email: string; name: string }>;
  let receiver: WebhookReceiver;

  const scan = async (token: string, badgeCode: string, extra: Record<string, unknown> = {}) => {
    const answer = await post(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode, scannedAt: new Date(Date.now() - HOUR).toISOString(), ...extra }, token);
    expect(bodyOf(answer)).toMatchObject({ code: 200 });
    expect(answer.data.results[0].status).toBe('created');
    return answer.data.results[0].leadId as number;
  };
  const exportOf = async (token: string) => {
    const made = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, token);
    expect(made.code).toBe(200);
    return (await t.app.inject({ method: 'GET', url: `/oga/leads/exports/${made.data.id}/file`, headers: { authorization: `Bearer ${token}` } })).body;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { webhooks: WORKER_OFF });
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
    const user = await t.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
    participationId = user.participation_id!;
    eventId = user.event_id!;
    limited = await limitedWithLeadRetrieval(t.app);
    badges = await t.app.db
      .selectFrom('visitors')
      .select(['badge_code', 'email', 'name'])
      .where('event_id', '=', eventId)
      .where('email', '!=', '')
      .where('name', '!=', '')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code'))))
      .orderBy('id')
      .limit(10)
      .execute();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await t?.close();
  });

  it('LD2: a lead keeps how it was made: a badge scan, a typed-in badge code, a business card of an unknown badge', async () => {
    const scanned = await scan(demo, badges[0]!.badge_code);
    const typed = await scan(demo, badges[1]!.badge_code, { source: 'manualEntry' });
    const unknown = await scan(demo, `PAPER-${randomBytes(4).toString('hex')}`);
    const card = randomBytes(32).toString('base64url');
    await t.app.db
      .insertInto('uploads')
      .values({
        id: card,
        participation_id: participationId,
        event_id: eventId,
        user_id: 1,
        purpose: 'businessCard',
        original_name: 'card.png',
        content_type: 'image/png',
        size: 1,
        dpi: null,
        sha256: 'x',
      })
      .execute();
    const withCard = await patch(t.app, `/oga/leads/${unknown}`, { businessCard: card, visitorName: 'Ana Lim', company: 'Kopi Co' }, demo);
    expect(bodyOf(withCard)).toMatchObject({ code: 200 });

    const consentOf = async (id: number) => (await get(t.app, `/oga/leads/${id}`, demo)).data.lead.consent;
    expect(await consentOf(scanned)).toEqual({ state: 'given', withdrawnAt: null, source: 'badgeScan' });
    expect(await consentOf(typed)).toEqual({ state: 'given', withdrawnAt: null, source: 'manualEntry' });
    expect(await consentOf(unknown)).toEqual({ state: 'given', withdrawnAt: null, source: 'businessCard' });
    const list = (await get<{ items: Array<{ id: number; consent: { source: string } }> }>(t.app, `/oga/leads?keyword=${encodeURIComponent(badges[1]!.badge_code)}`, demo)).data
      .items;
    expect(list.find((lead) => lead.id === typed)?.consent.source).toBe('manualEntry');
    const csv = await exportOf(demo);
    expect(csv.split('\r\n')[0]).toContain('Consent source');
    expect(csv).toContain('Manual entry');
    // A source the app does not know is a coded bad request.
    const bad = await post(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode: badges[2]!.badge_code, scannedAt: new Date().toISOString(), source: 'telepathy' }, demo);
    expect(bodyOf(bad)).toMatchObject({ code: 601, error: 'badRequest' });
  });

  it('LD2: the organiser sets the consent text and legal basis of the event; audited; an unknown basis is refused', async () => {
    expect((await get(t.app, '/oga/organiser/privacy/consent', organiser)).data).toEqual({ texts: {}, basis: null });
    const saved = await put(
      t.app,
      '/oga/organiser/privacy/consent',
      { texts: { en: ' I agree that exhibitors who scan my badge receive my details. ', ja: '同意します。' }, basis: 'consent' },
      organiser,
    );
    expect(saved.data).toEqual({ texts: { en: 'I agree that exhibitors who scan my badge receive my details.', ja: '同意します。' }, basis: 'consent' });
    expect((await get(t.app, '/oga/organiser/privacy/consent', organiser)).data.basis).toBe('consent');
    expect(bodyOf(await put(t.app, '/oga/organiser/privacy/consent', { texts: {}, basis: 'whim' }, organiser))).toMatchObject({ error: 'badRequest' });
    expect((await put(t.app, '/oga/organiser/privacy/consent', { texts: {}, basis: null }, demo)).code).toBe(403);
    const audit = await t.app.db.selectFrom('audit_log').select(['after']).where('action', '=', 'privacy.consent.update').where('event_id', '=', eventId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ basis: 'consent' });
  });

  it("LD2: a visitor's withdrawal reaches two exhibitors' leads, a later export and a webhook receiver; subject access lists who received the data", async () => {
    const visitor = badges[5]!;
    const added = await post<{ endpoint: { id: number } }>(
      t.app,
      '/oga/webhooks/endpoints',
      { url: receiver.url, description: 'CRM', events: ['lead.created', 'lead.updated'] },
      demo,
    );
    expect(bodyOf(added)).toMatchObject({ code: 200 });
    const demoLead = await scan(demo, visitor.badge_code);
    const limitedLead = await scan(limited, visitor.badge_code);
    const before = await exportOf(demo);
    expect(before).toContain(visitor.email);
    await t.app.webhooks.deliverDue();
    expect(receiver.received.map((request) => JSON.parse(request.body).type)).toEqual(['lead.created']);

    const withdrawn = await post(t.app, '/oga/organiser/privacy/visitor/withdraw', { email: visitor.email.toUpperCase() }, organiser);
    expect(bodyOf(withdrawn)).toMatchObject({ code: 200, data: { leads: 2 } });

    for (const [token, id] of [
      [demo, demoLead],
      [limited, limitedLead],
    ] as const) {
      const lead = (await get(t.app, `/oga/leads/${id}`, token)).data.lead;
      expect(lead.consent).toMatchObject({ state: 'withdrawn', source: 'badgeScan' });
      expect(lead.consent.withdrawnAt).toEqual(expect.any(String));
      expect(lead).toMatchObject({ visitorName: '', email: '', company: '', phone: '', badgeCode: visitor.badge_code });
      const listed = (
        await get<{ items: Array<{ id: number; email: string; consent: { state: string } }> }>(t.app, `/oga/leads?keyword=${encodeURIComponent(visitor.badge_code)}`, token)
      ).data.items.find((row) => row.id === id);
      expect(listed).toMatchObject({ email: '', consent: { state: 'withdrawn' } });
    }
    const after = await exportOf(demo);
    expect(after).not.toContain(visitor.email);
    const row = after.split('\r\n').find((line) => line.includes(visitor.badge_code))!;
    expect(row.startsWith(',,,,,,,,,,')).toBe(true);
    expect(row).toContain('Consent withdrawn');

    await t.app.webhooks.deliverDue();
    const updated = receiver.received.map((request) => JSON.parse(request.body)).find((message) => message.type === 'lead.updated');
    expect(updated.data).toMatchObject({ id: demoLead, email: '', visitorName: '', consent: { state: 'withdrawn', source: 'badgeScan' } });

    // Withdrawing again changes nothing.
    expect((await post(t.app, '/oga/organiser/privacy/visitor/withdraw', { badgeCode: visitor.badge_code }, organiser)).data).toEqual({ leads: 0 });
    const audit = await t.app.db.selectFrom('audit_log').select(['after']).where('action', '=', 'privacy.visitor.withdraw').orderBy('id').execute();
    expect(audit.map((row) => row.after)).toEqual([{ leads: 2 }, { leads: 0 }]);

    const access = (await post(t.app, '/oga/organiser/privacy/visitor/export', { badgeCode: visitor.badge_code }, organiser)).data;
    expect(access.leads).toHaveLength(2);
    expect(access.leads.every((lead: { consent: { state: string } }) => lead.consent.state === 'withdrawn')).toBe(true);
    // Both of demo's exports held the visitor's lead (the later one without the visitor's details).
    expect(access.recipients.exports).toHaveLength(2);
    expect(access.recipients.exports[0]).toMatchObject({
      exhibitor: expect.any(String),
      madeBy: expect.any(String),
      fileName: expect.stringMatching(/\.csv$/),
      at: expect.any(String),
    });
    expect(access.recipients.deliveries.map((row: { eventType: string; status: string; url: string }) => [row.eventType, row.status, row.url])).toEqual([
      ['lead.created', 'delivered', receiver.url],
      ['lead.updated', 'delivered', receiver.url],
    ]);
    expect(access.recipients.deliveries[0].deliveredAt).toEqual(expect.any(String));
  });

  it('LD2: exports made before exports recorded their leads are answered as ones that may hold the visitor, never as none', async () => {
    const visitor = badges[9]!;
    const before = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    await t.app.db
      .updateTable('lead_exports')
      .set({ created_at: new Date(Date.now() - 3 * HOUR) })
      .where('id', '=', before.data.id)
      .execute();
    await scan(demo, visitor.badge_code);
    const older = await post<{ id: number }>(t.app, '/oga/leads/exports', { format: 'csv' }, demo);
    // Both made as exports were before they recorded their leads.
    await t.app.db.updateTable('lead_exports').set({ lead_ids: null }).where('id', 'in', [before.data.id, older.data.id]).execute();
    const olderName = (await t.app.db.selectFrom('lead_exports').select('file_name').where('id', '=', older.data.id).executeTakeFirstOrThrow()).file_name;
    const access = (await post(t.app, '/oga/organiser/privacy/visitor/export', { badgeCode: visitor.badge_code }, organiser)).data;
    expect(access.recipients.exports).toEqual([]);
    // Only the one made after the visitor's scan may hold it.
    expect(access.recipients.unrecordedExports).toEqual([{ exhibitor: expect.any(String), madeBy: expect.any(String), fileName: olderName, at: expect.any(String) }]);
  });

  it('LD2: a withdrawn visitor scanned again, by the exhibitor that had the lead and by another, gets no visitor field; the lead still counts', async () => {
    const [scannedBefore, neverScanned] = [badges[6]!, badges[7]!];
    const firstLead = await scan(limited, scannedBefore.badge_code);
    const total = async (token: string) => (await get<{ total: number }>(t.app, '/oga/leads?limit=10', token)).data.total;
    const demoBefore = await total(demo);
    expect(bodyOf(await post(t.app, '/oga/organiser/privacy/visitor/withdraw', { badgeCode: scannedBefore.badge_code }, organiser))).toMatchObject({ data: { leads: 1 } });
    // A visitor with no lead yet withdraws through the organiser by e-mail.
    expect(bodyOf(await post(t.app, '/oga/organiser/privacy/visitor/withdraw', { email: neverScanned.email }, organiser))).toMatchObject({ data: { leads: 0 } });

    const noVisitorField = { visitorName: '', salutation: '', company: '', businessNature: '', jobTitle: '', country: '', mobile: '', email: '', phone: '', address: '' };
    for (const visitor of [scannedBefore, neverScanned]) {
      const answer = await post(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode: visitor.badge_code, scannedAt: new Date(Date.now() - HOUR).toISOString() }, demo);
      expect(answer.data.results[0]).toMatchObject({ status: 'created', badgeKnown: true });
      expect(answer.data.results[0].visitorName ?? '').toBe('');
      const lead = (await get(t.app, `/oga/leads/${answer.data.results[0].leadId}`, demo)).data.lead;
      expect(lead).toMatchObject({ ...noVisitorField, badgeCode: visitor.badge_code, badgeKnown: true, consent: { state: 'withdrawn', source: 'badgeScan' } });
      // The keyword search finds the badge, never the withdrawn name.
      const byName = (await get<{ items: Array<{ id: number }> }>(t.app, `/oga/leads?keyword=${encodeURIComponent(visitor.name)}`, demo)).data.items;
      expect(byName.map((row) => row.id)).not.toContain(lead.id);
    }
    expect(await total(demo)).toBe(demoBefore + 2);

    // The exhibitor that had the lead scans the badge again: the same lead, one more scan, still empty.
    const again = await post(t.app, '/oga/leads/scan', { clientScanId: scanId(), badgeCode: scannedBefore.badge_code, scannedAt: new Date().toISOString() }, limited);
    expect(again.data.results[0]).toMatchObject({ leadId: firstLead });
    const kept = (await get(t.app, `/oga/leads/${firstLead}`, limited)).data.lead;
    expect(kept).toMatchObject({ ...noVisitorField, scans: { count: 2 }, consent: { state: 'withdrawn' } });
    const csv = await exportOf(demo);
    for (const visitor of [scannedBefore, neverScanned]) {
      expect(csv).not.toContain(visitor.email);
      const row = csv.split('\r\n').find((line) => line.includes(visitor.badge_code))!;
      expect(row.startsWith(',,,,,,,,,,')).toBe(true);
    }

    // The scanner's offline visitor list leaves the withdrawn visitors out.
    expect((await put(t.app, `/oga/organiser/events/${eventId}/visitor-directory`, { fields: ['name', 'company'] }, organiser)).code).toBe(200);
    const listed: string[] = [];
    let after: string | null = null;
    do {
      const page: { items: Array<{ badgeCode: string }>; next: string | null } = (
        await get(t.app, `/oga/leads/visitor-directory?limit=1000${after ? `&after=${after}` : ''}`, demo)
      ).data;
      listed.push(...page.items.map((item) => item.badgeCode));
      after = page.next;
    } while (after);
    expect(listed).not.toContain(scannedBefore.badge_code);
    expect(listed).not.toContain(neverScanned.badge_code);
    expect(listed).toContain(badges[8]!.badge_code);
  });
});
