import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEAM_USER_LOGIN } from '../../src/server/db/seed';
import { pdf } from '../support/fixtures';
import { multipart, type Part } from '../support/multipart';
import { pdfText } from '../support/pdf-text';
import { bodyOf, call, createTestApp, ENGINES, get, login, post, put, type Answer, type TestApp } from './helpers';

// CT1-CT5: manuals with their status per exhibitor, announcements read per user,
// FAQ and support, search in four languages, and the organiser's authoring — per event and
// audience, on both databases; a manual's attachments (uploaded by the organiser, checked by their
// content, downloaded through the manual by its readers only).

const lang = (language: string) => ({ headers: { language } });

describe.each(ENGINES)('content on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let scanner: string;
  let organiser: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, scanner, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, DEMO_TEAM_USER_LOGIN), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());

  it('CT1 manuals list mandatory first; opening marks viewed, acknowledging records time and user', async () => {
    const list = (await get(t.app, '/oga/content/manuals', demo)).data as Array<{ id: number; title: string; mandatory: boolean; status: string }>;
    expect(list.length).toBeGreaterThanOrEqual(3);
    const firstOptional = list.findIndex((m) => !m.mandatory);
    expect(firstOptional).toBeGreaterThan(0);
    expect(list.slice(firstOptional).every((m) => !m.mandatory)).toBe(true);
    expect(list.every((m) => m.status === 'toView')).toBe(true);

    const manual = list[0]!;
    const opened = (await get(t.app, `/oga/content/manuals/${manual.id}`, demo)).data;
    expect(opened).toMatchObject({ id: manual.id, status: 'viewed', acknowledgedAt: null });
    expect(opened.body).toContain('2.44');
    expect((await get(t.app, '/oga/content/manuals', demo, { query: { status: 'viewed' } })).data.map((m: { id: number }) => m.id)).toEqual([manual.id]);

    const acknowledged = (await post(t.app, `/oga/content/manuals/${manual.id}/acknowledge`, {}, demo)).data;
    expect(acknowledged).toMatchObject({ status: 'acknowledged', acknowledgedBy: 'Aisyah Rahman' });
    expect(Date.parse(acknowledged.acknowledgedAt)).toBeGreaterThan(Date.now() - 60_000);
    // The status belongs to the exhibitor, not to another one of the event.
    expect((await get(t.app, '/oga/content/manuals', demo, { query: { status: 'acknowledged' } })).data).toHaveLength(1);
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'manual.acknowledge').execute();
    expect(audit.map((row) => row.subject_id)).toContain(String(manual.id));
    // The organiser sees the acknowledgement.
    const authored = (await get(t.app, '/oga/organiser/content', organiser, { query: { kind: 'manual' } })).data;
    expect(authored.find((m: { id: number }) => m.id === manual.id)).toMatchObject({ viewed: 1, acknowledged: 1 });
    // …and in the progress matrix, per exhibitor.
    const progress = (await get(t.app, '/oga/organiser/progress', organiser)).data;
    expect(progress.manualsToAcknowledge).toBe(list.filter((m) => (m as { ackRequired?: boolean }).ackRequired).length);
    const byExhibitor = new Map(progress.rows.map((row: { exhibitor: string; manualsAcknowledged: number }) => [row.exhibitor, row.manualsAcknowledged]));
    expect(byExhibitor.get('Borneo Botanica')).toBe(1);
    expect(byExhibitor.get('Kopi Nusantara')).toBe(0);
  });

  it('CT1 manuals in the request language, falling back to the event language', async () => {
    const ja = (await get(t.app, '/oga/content/manuals', demo, lang('ja'))).data;
    expect(ja[0].title).toBe('出展者マニュアル 2027');
    const created = await post(t.app, '/oga/organiser/content', { kind: 'manual', title: { en: 'English only manual' }, body: { en: 'Body in English' } }, organiser);
    expect(created.code).toBe(200);
    expect(created.data.missingLanguages).toEqual(['cn', 'ja', 'vi']);
    const inVietnamese = (await get(t.app, '/oga/content/manuals', demo, lang('vi'))).data;
    expect(inVietnamese.map((m: { title: string }) => m.title)).toContain('English only manual');
  });

  it('CT1 P2 content follows the modules: no Manuals module → refused; an audience module the exhibitor lacks → not listed', async () => {
    expect((await get(t.app, '/oga/content/manuals', limited)).code).toBe(403);
    const forLeadgrab = await post(
      t.app,
      '/oga/organiser/content',
      { kind: 'faq', title: { en: 'Only for LeadGrab users' }, body: { en: 'x' }, category: { en: 'Leads' }, audience: ['Leadgrab'] },
      organiser,
    );
    expect(forLeadgrab.code).toBe(200);
    const limitedFaq = (await get(t.app, '/oga/content/faq', limited)).data.map((f: { question: string }) => f.question);
    expect(limitedFaq).toContain('How many badges do I get?');
    expect(limitedFaq).not.toContain('Only for LeadGrab users');
    expect((await get(t.app, '/oga/content/faq', demo)).data.map((f: { question: string }) => f.question)).toContain('Only for LeadGrab users');
  });

  it("P5 another event's content is never listed or readable", async () => {
    const other = await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2026').executeTakeFirstOrThrow();
    const row = await t.app.db
      .insertInto('content')
      .values({
        event_id: other.id,
        kind: 'manual',
        screen_id: 'manuals',
        title: JSON.stringify({ en: 'Last year manual' }),
        body: JSON.stringify({ en: 'old' }),
        published_at: new Date(Date.now() - 1000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await get(t.app, '/oga/content/manuals', demo)).data.map((m: { title: string }) => m.title)).not.toContain('Last year manual');
    expect((await get(t.app, `/oga/content/manuals/${row.id}`, demo)).code).toBe(404);
    expect((await get(t.app, `/oga/system/content/content/${row.id}`, demo)).code).toBe(404);
    expect((await put(t.app, `/oga/organiser/content/${row.id}`, { kind: 'manual', title: { en: 'Hijacked' }, body: { en: 'x' } }, organiser)).code).toBe(404);
  });

  it('CT2 announcements: unread first, a count for the header, opening one marks it read', async () => {
    const before = (await get(t.app, '/oga/content/announcements/unread-count', scanner)).data.unread;
    expect(before).toBeGreaterThanOrEqual(3);
    const list = (await get(t.app, '/oga/content/announcements', scanner)).data;
    expect(list.items[0]).toMatchObject({ pinned: true, read: false });
    const opened = (await get(t.app, `/oga/content/announcements/${list.items[0].id}`, scanner)).data;
    expect(opened).toMatchObject({ read: true });
    expect(opened.body).toContain('15:00');
    expect((await get(t.app, '/oga/content/announcements/unread-count', scanner)).data.unread).toBe(before - 1);
    const after = (await get(t.app, '/oga/content/announcements', scanner)).data;
    expect(after.items.at(-1)).toMatchObject({ id: list.items[0].id, read: true });
    // Read per user: the exhibitor's own count is unchanged.
    expect((await get(t.app, '/oga/content/announcements/unread-count', demo)).data.unread).toBeGreaterThanOrEqual(before);
  });

  it('CT2 a scheduled announcement appears at its publish time; an e-mailed one is queued for each exhibitor once', async () => {
    const later = await post(
      t.app,
      '/oga/organiser/content',
      { kind: 'announcement', title: { en: 'Tomorrow only' }, body: { en: 'x' }, publishedAt: new Date(Date.now() + 86_400_000).toISOString() },
      organiser,
    );
    expect(later.code).toBe(200);
    expect((await get(t.app, '/oga/content/announcements', demo)).data.items.map((a: { title: string }) => a.title)).not.toContain('Tomorrow only');
    const mailed = await post(
      t.app,
      '/oga/organiser/content',
      { kind: 'announcement', title: { en: 'Hall 3 opens early' }, body: { en: 'From 07:30.' }, emailExhibitors: true },
      organiser,
    );
    await put(
      t.app,
      `/oga/organiser/content/${mailed.data.id}`,
      { kind: 'announcement', title: { en: 'Hall 3 opens early' }, body: { en: 'From 07:30.' }, emailExhibitors: true },
      organiser,
    );
    const queued = await t.app.db.selectFrom('mail_outbox').select('to_address').where('subject', 'like', '%Hall 3 opens early%').execute();
    expect(queued.map((m) => m.to_address).sort()).toEqual(['demo@borneo-botanica.example', 'limited@kopi-nusantara.example']);
  });

  describe('CT1 C3 manual attachments', () => {
    type Manual = { id: number; title: string; mandatory: boolean; attachments: Array<{ id: string; name: string; size: number; type: string }> };

    const attach = async (token: string, parts: Part[]): Promise<Answer> => {
      const { payload, contentType } = multipart(parts);
      const response = await t.app.inject({
        method: 'POST',
        url: '/oga/organiser/content/attachments',
        payload,
        headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      });
      return Object.assign(response.json(), { status: response.statusCode, headers: response.headers });
    };
    const download = (token: string, manualId: number, fileId: string) =>
      t.app.inject({ method: 'GET', url: `/oga/content/manuals/${manualId}/attachments/${fileId}`, headers: { authorization: `Bearer ${token}` } });
    const uploadRows = async () => (await t.app.db.selectFrom('uploads').select('id').execute()).length;

    it("the demo's mandatory safety manual carries a PDF the exhibitor downloads and a PDF reader opens", async () => {
      const manuals = (await get(t.app, '/oga/content/manuals', demo)).data as Manual[];
      const withFile = manuals.filter((manual) => manual.attachments.length > 0);
      expect(withFile.map((manual) => manual.mandatory)).toEqual([true]);
      const [file] = withFile[0]!.attachments;
      expect(file).toMatchObject({ type: 'pdf', name: expect.stringMatching(/\.pdf$/) });
      const answer = await download(demo, withFile[0]!.id, file!.id);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/pdf');
      expect(String(answer.headers['content-disposition'])).toContain('attachment');
      expect(answer.rawPayload.length).toBe(file!.size);
      expect(await pdfText(answer.rawPayload)).toContain('Keep aisles clear at all times.');
    });

    it('the organiser attaches a checked file to a new manual; readers of the manual download exactly those bytes, others get 404', async () => {
      const bytes = pdf();
      const uploaded = await attach(organiser, [{ name: 'file', filename: 'Hall plan 2027.pdf', bytes }]);
      expect(bodyOf(uploaded)).toMatchObject({ code: 200, data: { name: 'Hall plan 2027.pdf', size: bytes.length, type: 'pdf' } });
      const fileId = uploaded.data.id as string;
      // The organiser previews it before publishing.
      const preview = await t.app.inject({ method: 'GET', url: `/oga/organiser/content/attachments/${fileId}`, headers: { authorization: `Bearer ${organiser}` } });
      expect(Buffer.compare(preview.rawPayload, Buffer.from(bytes))).toBe(0);

      const created = await post(
        t.app,
        '/oga/organiser/content',
        { kind: 'manual', title: { en: 'Hall plan' }, body: { en: 'See the attached plan.' }, attachments: [{ id: fileId }] },
        organiser,
      );
      expect(bodyOf(created)).toMatchObject({ code: 200, data: { attachments: [{ id: fileId, name: 'Hall plan 2027.pdf', size: bytes.length, type: 'pdf' }] } });
      const manualId = created.data.id as number;

      const answer = await download(demo, manualId, fileId);
      expect(answer.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(answer.rawPayload, Buffer.from(bytes))).toBe(0);
      // limited and the team user hold no Manuals module; another manual does not name the file; a made-up id.
      for (const outsider of [limited, scanner]) expect((await download(outsider, manualId, fileId)).json()).toMatchObject({ code: 403 });
      const other = ((await get(t.app, '/oga/content/manuals', demo)).data as Manual[]).find((manual) => manual.id !== manualId)!;
      expect((await download(demo, other.id, fileId)).json()).toMatchObject({ code: 404, error: 'notFound' });
      expect((await download(demo, manualId, 'x'.repeat(43))).json()).toMatchObject({ code: 404 });
      // Exhibitors do not upload attachments.
      expect((await attach(demo, [{ name: 'file', filename: 'mine.pdf', bytes }])).code).toBe(403);
    });

    it('a file that is not what it says, or not an attachment of this event, is refused and nothing is stored', async () => {
      const before = await uploadRows();
      const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
      expect(bodyOf(await attach(organiser, [{ name: 'file', filename: 'rules.pdf', bytes: html }]))).toMatchObject({ code: 601, error: 'fileRejected' });
      expect(bodyOf(await attach(organiser, [{ name: 'file', filename: 'empty.pdf', bytes: new Uint8Array(0) }]))).toMatchObject({ code: 601, error: 'fileRejected' });
      expect(
        bodyOf(
          await attach(organiser, [
            { name: 'purpose', value: 'logo' },
            { name: 'file', filename: 'a.pdf', bytes: pdf() },
          ]),
        ).error,
      ).toBe('badRequest');
      expect(await uploadRows()).toBe(before);

      // A form upload of an exhibitor cannot be passed off as a manual's attachment.
      const { payload, contentType } = multipart([
        { name: 'purpose', value: 'boothDesign' },
        { name: 'file', filename: 'design.pdf', bytes: pdf() },
      ]);
      const design = (await t.app.inject({ method: 'POST', url: '/oga/uploads', payload, headers: { 'content-type': contentType, authorization: `Bearer ${demo}` } })).json();
      const contentRows = (await t.app.db.selectFrom('content').select('id').execute()).length;
      const refused = await post(t.app, '/oga/organiser/content', { kind: 'manual', title: { en: 'Sneaky' }, body: { en: 'x' }, attachments: [{ id: design.data.id }] }, organiser);
      expect(bodyOf(refused)).toMatchObject({ code: 404, error: 'notFound' });
      expect((await t.app.db.selectFrom('content').select('id').execute()).length).toBe(contentRows);
    });
  });

  describe('CT3 search', () => {
    const search = async (keyword: string, language = 'en', token = demo) => (await get(t.app, '/oga/search', token, { query: { keyword }, ...lang(language) })).data;

    it('finds manuals, announcements, FAQ and forms by title, body and field labels, grouped by kind', async () => {
      const results = await search('badge');
      const kinds = results.items.map((r: { kind: string }) => r.kind);
      expect(kinds).toEqual(expect.arrayContaining(['manual', 'announcement', 'faq', 'form']));
      expect(kinds).toEqual([...kinds].sort((a, b) => ['manual', 'announcement', 'faq', 'form'].indexOf(a) - ['manual', 'announcement', 'faq', 'form'].indexOf(b)));
      expect(results.items.find((r: { kind: string; title: string }) => r.kind === 'form' && r.title.startsWith('S04'))).toMatchObject({
        path: '/myParticipation/exhibitorBadges',
      });
    });

    it('finds a Japanese manual by a two-character word and a Chinese one likewise', async () => {
      expect((await search('搬入', 'ja')).items.map((r: { title: string }) => r.title)).toContain('出展者マニュアル 2027');
      expect((await search('布展', 'cn')).items.map((r: { title: string }) => r.title)).toContain('2027 参展商手册');
      // In English the Japanese word is not in the English text.
      expect((await search('搬入', 'en')).items.filter((r: { kind: string }) => r.kind === 'manual')).toEqual([]);
    });

    it('finds Vietnamese without diacritics', async () => {
      const created = await post(
        t.app,
        '/oga/organiser/content',
        {
          kind: 'faq',
          title: { en: 'Who is our contact?', vi: 'Ai là người liên hệ?' },
          body: { en: 'Ms Nguyen', vi: 'Chị Nguyễn Thị Hương' },
          category: { en: 'Contacts', vi: 'Liên hệ' },
        },
        organiser,
      );
      expect(created.code).toBe(200);
      const found = await search('nguyen thi huong', 'vi');
      expect(found.items.map((r: { title: string }) => r.title)).toContain('Ai là người liên hệ?');
      expect(found.items.find((r: { title: string }) => r.title === 'Ai là người liên hệ?').snippet).toContain('Nguyễn Thị Hương');
    });

    it('never answers 500 for one CJK character, an emoji, 1 KB of text, % or _', async () => {
      for (const keyword of ['证', '😀', 'x'.repeat(1000), '%', '_', '\\', "' or 1=1 --"]) {
        const answer = await get(t.app, '/oga/search', demo, { query: { keyword } });
        expect(answer.status, keyword).toBe(200);
        expect(answer.code, keyword).toBe(200);
      }
      expect((await search('%')).total).toBe(0);
      const tooLong = await get(t.app, '/oga/search', demo, { query: { keyword: 'x'.repeat(1001) } });
      expect(tooLong.status).toBe(400);
    });

    it('follows every change at once: an edited word is found, a removed item is gone, a scheduled one appears only when published', async () => {
      const word = `quokka${engine}`;
      expect((await search(word)).total).toBe(0);
      const created = await post(t.app, '/oga/organiser/content', { kind: 'manual', title: { en: 'Loading dock rules' }, body: { en: 'Vans only.' } }, organiser);
      const id = created.data.id as number;
      expect((await search(word)).total).toBe(0);
      await put(t.app, `/oga/organiser/content/${id}`, { kind: 'manual', title: { en: 'Loading dock rules' }, body: { en: `Vans only; no ${word} at the dock.` } }, organiser);
      expect((await search(word)).items.map((r: { id: string }) => r.id)).toEqual([String(id)]);
      await call(t.app, 'DELETE', `/oga/organiser/content/${id}`, { token: organiser });
      expect((await search(word)).total).toBe(0);
      // Published in an hour: not found yet.
      await post(
        t.app,
        '/oga/organiser/content',
        { kind: 'announcement', title: { en: `Later ${word}` }, body: { en: 'x' }, publishedAt: new Date(Date.now() + 3_600_000).toISOString() },
        organiser,
      );
      expect((await search(word)).total).toBe(0);
    });

    it('only lists what the user may open (limited has no Manuals module)', async () => {
      const results = await search('manual', 'en', limited);
      expect(results.items.filter((r: { kind: string }) => r.kind === 'manual')).toEqual([]);
    });
  });

  it('CT5 support: contacts and FAQ by category; the contact form goes to the support address with a copy to the sender', async () => {
    const support = (await get(t.app, '/oga/content/support', limited)).data;
    expect(support.supportEmail).toBe('exhibitor-support@afhe-expo.example');
    expect(support.contacts.map((c: { title: string }) => c.title)).toContain('Exhibitor services');
    expect(new Set(support.faq.map((f: { category: string }) => f.category)).size).toBeGreaterThanOrEqual(3);
    const sent = await post(t.app, '/oga/content/support/messages', { subject: 'Power socket', message: 'We need a 15 A socket at A03.' }, limited);
    expect(sent.code).toBe(200);
    const queued = await t.app.db.selectFrom('mail_outbox').select(['to_address', 'reply_to', 'text_body']).where('text_body', 'like', '%15 A socket%').execute();
    expect(queued.map((m) => m.to_address).sort()).toEqual(['exhibitor-support@afhe-expo.example', 'limited@kopi-nusantara.example']);
    expect(queued.find((m) => m.to_address.startsWith('exhibitor-support'))?.reply_to).toBe('limited@kopi-nusantara.example');
    const empty = await post(t.app, '/oga/content/support/messages', { subject: ' ', message: 'x' }, limited);
    expect(empty).toMatchObject({ code: 601, error: 'required' });
  });

  it('organiser content routes: refused to exhibitors and without a token; impossible deadlines refused', async () => {
    expect((await get(t.app, '/oga/organiser/content', demo)).code).toBe(403);
    expect((await call(t.app, 'GET', '/oga/organiser/content')).code).toBe(401);
    const late = await post(
      t.app,
      '/oga/organiser/content',
      { kind: 'manual', title: { en: 'Late' }, body: { en: 'x' }, deadline: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      organiser,
    );
    expect(late).toMatchObject({ code: 601, error: 'contentDeadlineAfterShow' });
    const unknownModule = await post(t.app, '/oga/organiser/content', { kind: 'faq', title: { en: 'x' }, body: { en: 'x' }, audience: ['Nope'] }, organiser);
    expect(unknownModule.status).toBe(400);
  });
});
