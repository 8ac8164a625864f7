import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { multipart, type Part } from '../support/multipart';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestApp, ENGINES, get, login, mailText, post, put, type TestApp } from './helpers';
import { otherOrganiser } from './organiser-support';

// What a new organiser met in the console: announcement e-mails in readable text and
// safe HTML (C), the audit log's before/after of an exhibitor edit (G), the event logo uploaded
// to the portal and shown from its own address (J), exhibitor search that folds diacritics (K).

const exhibitor = (code: string, overrides: Record<string, unknown> = {}) => ({
  code,
  name: `${code} Trading`,
  legalName: `${code} Trading Sdn Bhd`,
  boothNum: `Hall 7 · ${code}`,
  logoUrl: '',
  account: `${code.toLowerCase()}.main`,
  email: `${code.toLowerCase()}@trading.example`,
  contactName: 'Siti Aminah',
  modules: ['Forms', 'Support'],
  flags: { eventShow: true },
  quotas: {},
  deadlines: {},
  ...overrides,
});

describe.each(ENGINES)('organiser findings (%s)', (engine) => {
  let t: TestApp;
  let sink: SmtpSink;
  let organiser: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(engine, { publicUrl: 'http://portal.test', smtpUrl: sink.url });
    organiser = await login(t.app, 'organiser');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('C: an announcement e-mail carries the rendered text (no Markdown marks) and sanitised HTML', async () => {
    const body = [
      'Please read the **move-in schedule** before _Monday_:',
      '',
      '- Hall 3 opens at `07:30`',
      '- Trucks use [Gate B](https://expo.example/gate-b)',
      '',
      'Then <b>tap</b> [here](javascript:void0) <img src=x onerror="alert(2)"><script>alert(1)</script>',
    ].join('\n');
    const created = await post(t.app, '/oga/organiser/content', { kind: 'announcement', title: { en: 'Move-in day' }, body: { en: body }, emailExhibitors: true }, organiser);
    expect(created.code).toBe(200);
    await t.app.mailer.deliverDue();
    const mail = await sink.waitFor('demo@borneo-botanica.example', { match: (m) => m.subject.includes('Move-in day') });

    const text = mailText(mail.text);
    expect(text).toContain('Please read the move-in schedule before Monday:\n\n- Hall 3 opens at 07:30\n- Trucks use Gate B (https://expo.example/gate-b)\n\nThen tap here');
    expect(text).not.toMatch(/\*\*|`|\]\(|<|javascript:/);

    expect(mail.html).toBeDefined();
    const html = mail.html!;
    expect(html).toContain('<strong>move-in schedule</strong>');
    expect(html).toContain('<em>Monday</em>');
    expect(html).toContain('<a href="https://expo.example/gate-b">Gate B</a>');
    expect(html).toMatch(/<li>Hall 3 opens at <code>07:30<\/code><\/li>/);
    // Raw HTML is shown as text, never as markup; an unsafe link keeps its words, not its address.
    expect(html).not.toMatch(/<script|<img|javascript:|onerror="/i);
    expect(html).toContain('Then tap here');
  });

  it('G: an organiser edit that changes the contact is in the audit log with the contact before and after', async () => {
    const created = await post(t.app, '/oga/organiser/exhibitors', exhibitor('AUD1'), organiser);
    const id = created.data.id as number;
    expect((await put(t.app, `/oga/organiser/exhibitors/${id}`, exhibitor('AUD1', { contactName: 'Trần Văn Bình', email: 'binh@trading.example' }), organiser)).code).toBe(200);
    const log = await get(t.app, '/oga/organiser/audit?action=exhibitor.update', organiser);
    const entry = log.data.items.find((item: { exhibitor: string }) => item.exhibitor === 'AUD1 Trading');
    expect(entry).toMatchObject({
      action: 'exhibitor.update',
      before: { contactName: 'Siti Aminah', email: 'aud1@trading.example' },
      after: { contactName: 'Trần Văn Bình', email: 'binh@trading.example' },
    });
    // Only what changed: the unchanged name and modules are not repeated.
    expect(Object.keys(entry.after).sort()).toEqual(['contactName', 'email']);
  });

  it('G: an exhibitor resubmitting a form with another person is in the audit log with the person before and after', async () => {
    const demo = await login(t.app, 'demo');
    const first = { badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'aisyah.audit@borneo-botanica.example' }] };
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data: first, version: 0 }, demo);
    expect(submitted.code).toBe(200);
    const second = { badges: [{ firstName: 'Daniel', lastName: 'Wong', email: 'aisyah.audit@borneo-botanica.example' }] };
    expect((await post(t.app, '/oga/forms/s04/submit', { data: second, version: submitted.data.version }, demo)).code).toBe(200);
    const log = await get(t.app, '/oga/organiser/audit?action=form.submit', organiser);
    const latest = log.data.items.find((item: { subjectId: string; exhibitor: string }) => item.subjectId === 's04' && item.exhibitor === 'Borneo Botanica');
    expect(latest.before).toEqual({ fields: { 'badges.0.firstName': 'Aisyah', 'badges.0.lastName': 'Rahman' } });
    expect(latest.after.fields).toEqual({ 'badges.0.firstName': 'Daniel', 'badges.0.lastName': 'Wong' });
  });

  it('K: the exhibitor search folds diacritics and case as content search does ("minh phu" finds "Minh Phú")', async () => {
    await post(
      t.app,
      '/oga/organiser/exhibitors',
      exhibitor('MPS', { name: 'Minh Phú Seafood', legalName: 'Công ty Minh Phú', account: 'minhphu.main', email: 'sales@minhphu.example' }),
      organiser,
    );
    for (const keyword of ['minh phu', 'MINH PHÚ', 'cong ty minh', 'Ｍｉｎｈ']) {
      const found = await get(t.app, `/oga/organiser/exhibitors?keyword=${encodeURIComponent(keyword)}`, organiser);
      expect(
        found.data.items.map((item: { name: string }) => item.name),
        keyword,
      ).toEqual(['Minh Phú Seafood']);
    }
    const none = await get(t.app, `/oga/organiser/exhibitors?keyword=${encodeURIComponent('minh phuc')}`, organiser);
    expect(none.data.total).toBe(0);
  });

  it('J: the organiser uploads the event logo; it is stored, becomes the event logo and is served publicly from the portal', async () => {
    const upload = async (token: string, eventId: number, parts: Part[]) => {
      const { payload, contentType } = multipart(parts);
      const response = await t.app.inject({
        method: 'POST',
        url: `/oga/organiser/events/${eventId}/logo`,
        payload,
        headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      });
      return response.json();
    };
    const eventId = (await get(t.app, '/oga/organiser/events', organiser)).data.find((event: { code: string }) => event.code === 'AFHE2027').id as number;
    const png = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#1b5e20' } })
      .png()
      .toBuffer();
    const answer = await upload(organiser, eventId, [{ name: 'file', filename: 'afhe-logo.png', bytes: png, contentType: 'image/png' }]);
    expect(answer.code).toBe(200);
    const logoUrl = answer.data.logoUrl as string;
    expect(logoUrl).toMatch(/^\/oga\/event-logos\/[A-Za-z0-9_-]{43}$/);
    // The branded login page (public) names it; the image is served without a session, from the portal itself.
    const branding = await get(t.app, '/oga/system/project/exhibirotCodeOrNum?exhibitCode=AFHE2027');
    expect(branding.data.eventLog).toBe(logoUrl);
    const image = await t.app.inject({ method: 'GET', url: logoUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(image.rawPayload, png)).toBe(0);
    expect(image.headers['content-security-policy']).toContain("img-src 'self' data: blob:");
    // Checked by content like every upload: a text file named .png is refused, nothing changes.
    const refused = await upload(organiser, eventId, [{ name: 'file', filename: 'logo.png', bytes: Buffer.from('<svg onload="alert(1)"></svg>'), contentType: 'image/png' }]);
    expect(refused).toMatchObject({ code: 601, error: 'fileRejected' });
    expect((await get(t.app, '/oga/system/project/exhibirotCodeOrNum?exhibitCode=AFHE2027')).data.eventLog).toBe(logoUrl);
    // Another organisation's organiser cannot set it.
    const rival = await otherOrganiser(t.app, `rival.logo.${engine}`);
    expect((await upload(rival.token, eventId, [{ name: 'file', filename: 'x.png', bytes: png }])).code).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/oga/event-logos/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).json().code).toBe(404);
  });
});
