import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEAM_USER_LOGIN } from '../../src/server/db/seed';
import { pdf } from '../support/fixtures';
import { multipart, type Part } from '../support/multipart';
import { pdfText } from '../support/pdf-text';
import { bodyOf, createTestApp, ENGINES, get, login, post, type Answer, type TestApp } from './helpers';

// Issue 10 (CT1, C3): a manual's attachments — uploaded by the organiser and checked by their
// content, named by the manual, downloaded by whoever may read the manual and by no one else.

type Manual = { id: number; title: string; mandatory: boolean; attachments: Array<{ id: string; name: string; size: number; type: string }> };

describe.each(ENGINES)('manual attachments on %s', (engine) => {
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

  const attach = async (token: string, parts: Part[]): Promise<Answer> => {
    const { payload, contentType } = multipart(parts);
    const response = await t.app.inject({ method: 'POST', url: '/oga/organiser/content/attachments', payload, headers: { 'content-type': contentType, authorization: `Bearer ${token}` } });
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

    const created = await post(t.app, '/oga/organiser/content', { kind: 'manual', title: { en: 'Hall plan' }, body: { en: 'See the attached plan.' }, attachments: [{ id: fileId }] }, organiser);
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
    expect(bodyOf(await attach(organiser, [{ name: 'purpose', value: 'logo' }, { name: 'file', filename: 'a.pdf', bytes: pdf() }])).error).toBe('badRequest');
    expect(await uploadRows()).toBe(before);

    // A form upload of an exhibitor cannot be passed off as a manual's attachment.
    const { payload, contentType } = multipart([{ name: 'purpose', value: 'boothDesign' }, { name: 'file', filename: 'design.pdf', bytes: pdf() }]);
    const design = (await t.app.inject({ method: 'POST', url: '/oga/uploads', payload, headers: { 'content-type': contentType, authorization: `Bearer ${demo}` } })).json();
    const contentRows = (await t.app.db.selectFrom('content').select('id').execute()).length;
    const refused = await post(t.app, '/oga/organiser/content', { kind: 'manual', title: { en: 'Sneaky' }, body: { en: 'x' }, attachments: [{ id: design.data.id }] }, organiser);
    expect(bodyOf(refused)).toMatchObject({ code: 404, error: 'notFound' });
    expect((await t.app.db.selectFrom('content').select('id').execute()).length).toBe(contentRows);
  });
});
