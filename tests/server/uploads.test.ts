import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, DOCUMENT_MAX_BYTES } from '../../src/engine/constants';
import { translate } from '../../src/server/lib/messages';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { createWriteStream } from 'node:fs';
import { localStorage } from '../../src/server/plugins/storage';
import { sweepOrphanFiles } from '../../src/server/modules/files/jobs';
import { concat, empty, jpegExif, jpegJfif, jpegNoDensity, jpegOfSize, pdf, pixelsPerMetre, png } from '../support/fixtures';
import { DEMO_CONTRACTOR_LOGIN } from '../../src/server/db/seed';
import { multipart, type Part } from '../support/multipart';
import { bodyOf, createTestApp, ENGINES, get, login, post, type Answer, type TestApp } from './helpers';

// V2/V3 on the server: POST /oga/uploads checks the received bytes with the engine's rules and
// stores accepted files under a random name; GET /oga/uploads/:id serves them to the owning
// participation and the organisers of its event only.

async function send(app: FastifyInstance, token: string | undefined, parts: Part[], headers: Record<string, string> = {}): Promise<Answer> {
  const { payload, contentType } = multipart(parts);
  const response = await app.inject({
    method: 'POST',
    url: '/oga/uploads',
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return Object.assign(response.json(), { status: response.statusCode, headers: response.headers });
}

const upload = (app: FastifyInstance, token: string, purpose: string, filename: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
  send(
    app,
    token,
    [
      { name: 'purpose', value: purpose },
      { name: 'file', filename, bytes },
    ],
    headers,
  );

const download = (app: FastifyInstance, token: string, id: string) =>
  app.inject({ method: 'GET', url: `/oga/uploads/${encodeURIComponent(id)}`, headers: { authorization: `Bearer ${token}` } });

const rejected = (problems: { key: string; params?: Record<string, string | number> }[]) => ({
  code: 601,
  msg: translate('en', problems[0]!.key, problems[0]!.params),
  data: { problems },
  error: 'fileRejected',
});

const NOT_FOUND = { code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(ENGINES)('V2/V3 uploads on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let team: string;
  let demoParticipation: number;
  const uploadsDir = () => join(t.config.dataDir, 'uploads');
  const stored = async () => ({
    rows: Number(
      (
        await t.app.db
          .selectFrom('uploads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    files: readdirSync(uploadsDir()).length,
  });

  beforeAll(async () => {
    t = await createTestApp(engine);
    const demoUser = await t.app.db.selectFrom('users').selectAll().where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    demoParticipation = demoUser.participation_id!;
    // A team user of demo's participation shares its files.
    await t.app.db
      .insertInto('users')
      .values({
        login: 'demo-team',
        login_key: 'demo-team',
        email: 'team@borneo-botanica.example',
        display_name: 'Team member',
        password_hash: demoUser.password_hash,
        role: 'team_user',
        participation_id: demoUser.participation_id,
        event_id: demoUser.event_id,
        status: 'active',
      })
      .execute();
    [demo, limited, organiser, team] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser'), login(t.app, 'demo-team')]);
  });
  afterAll(async () => t?.close());

  it('V3 a 300 dpi JPEG is accepted as logo: the answer is the reference, the row and the file are stored under a random id', async () => {
    const bytes = jpegJfif(300);
    const answer = await upload(t.app, demo, 'logo', 'Logo 2027 (final)_v2.jpg', bytes);
    expect(bodyOf(answer)).toEqual({
      code: 200,
      msg: 'ok',
      data: { id: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), name: 'Logo 2027 (final)_v2.jpg', size: bytes.length, type: 'jpeg', dpi: 300 },
    });
    const { id } = answer.data;
    const row = await t.app.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      participation_id: demoParticipation,
      purpose: 'logo',
      original_name: 'Logo 2027 (final)_v2.jpg',
      content_type: 'image/jpeg',
      size: bytes.length,
      dpi: 300,
      sha256: sha256(bytes),
    });
    expect(readFileSync(join(uploadsDir(), id))).toEqual(Buffer.from(bytes));
    // The user's name never becomes a path.
    expect(readdirSync(uploadsDir()).some((name) => name.includes('Logo'))).toBe(false);
  });

  it('V3 a JPEG recording 300 dpi only in EXIF is accepted as product image', async () => {
    const answer = await upload(t.app, demo, 'productImage', 'product.jpg', jpegExif({ x: 300, littleEndian: true }));
    expect(answer.code).toBe(200);
    expect(answer.data.dpi).toBe(300);
  });

  it('V3 a 72 dpi JPEG is rejected as logo with the dpi problem; nothing is stored', async () => {
    const before = await stored();
    const answer = await upload(t.app, demo, 'logo', 'logo.jpg', jpegJfif(72));
    expect(answer.status).toBe(200);
    expect(bodyOf(answer)).toEqual(rejected([{ key: 'validation.file.dpi', params: { limit: 300, dpi: 72 } }]));
    expect(answer.msg).toContain('300');
    expect(await stored()).toEqual(before);
  });

  it('V3 a JPEG without density is rejected with noDpi', async () => {
    expect(bodyOf(await upload(t.app, demo, 'logo', 'logo.jpg', jpegNoDensity()))).toEqual(rejected([{ key: 'validation.file.noDpi', params: { limit: 300 } }]));
  });

  it('V2 an empty file answers "Cannot upload empty file!", in the caller\'s language too', async () => {
    const before = await stored();
    const answer = await upload(t.app, demo, 'logo', 'logo.jpg', empty());
    expect(bodyOf(answer)).toEqual({ code: 601, msg: 'Cannot upload empty file!', data: { problems: [{ key: 'validation.file.empty' }] }, error: 'fileRejected' });
    const cn = await upload(t.app, demo, 'logo', 'logo.jpg', empty(), { language: 'cn' });
    expect(cn.msg).toBe(translate('cn', 'validation.file.empty'));
    expect(cn.msg).not.toBe('Cannot upload empty file!');
    expect(await stored()).toEqual(before);
  });

  it('V2 a PNG named .jpg is rejected as logo: the type comes from the content', async () => {
    const answer = await upload(t.app, demo, 'logo', 'logo.jpg', png({ pixelsPerMetre: pixelsPerMetre(300) }));
    expect(bodyOf(answer)).toEqual(rejected([{ key: 'validation.file.type', params: { types: 'JPEG' } }]));
  });

  it('V3 a JPEG over 2 MB is rejected as logo with tooLarge; nothing is stored', async () => {
    const before = await stored();
    const answer = await upload(t.app, demo, 'logo', 'big.jpg', jpegOfSize(IMAGE_MAX_BYTES + 1));
    expect(bodyOf(answer)).toEqual(rejected([{ key: 'validation.file.tooLarge', params: { limit: 2 } }]));
    expect(await stored()).toEqual(before);
  });

  it('V3 a file over 10 MB is rejected as too large for the booth design (past the multipart limit too)', async () => {
    const before = await stored();
    const answer = await upload(t.app, demo, 'boothDesign', 'booth.jpg', jpegOfSize(DOCUMENT_MAX_BYTES + 4096));
    expect(bodyOf(answer)).toEqual(rejected([{ key: 'validation.file.tooLarge', params: { limit: 10 } }]));
    expect(await stored()).toEqual(before);
    // 10 MB exactly is within the limit.
    expect((await upload(t.app, demo, 'boothDesign', 'booth.jpg', jpegOfSize(DOCUMENT_MAX_BYTES))).code).toBe(200);
  });

  it('V3 a PDF is accepted as booth design under its Chinese name, and downloads with it', async () => {
    const bytes = pdf();
    const answer = await upload(t.app, demo, 'boothDesign', '展位设计.pdf', bytes);
    expect(bodyOf(answer)).toEqual({ code: 200, msg: 'ok', data: { id: expect.any(String), name: '展位设计.pdf', size: bytes.length, type: 'pdf', dpi: null } });
    const response = await download(t.app, demo, answer.data.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''%E5%B1%95%E4%BD%8D%E8%AE%BE%E8%AE%A1.pdf");
    expect(response.rawPayload).toEqual(Buffer.from(bytes));
  });

  it('V2 file names with special characters or paths are rejected', async () => {
    const before = await stored();
    for (const name of ['<logo>.jpg', '../logo.jpg', 'dir/logo.jpg', 'logo..jpg', '.hidden.jpg']) {
      const answer = await upload(t.app, demo, 'logo', name, jpegJfif(300));
      expect({ name, body: bodyOf(answer) }).toEqual({ name, body: rejected([{ key: 'validation.file.name' }]) });
    }
    expect(await stored()).toEqual(before);
  });

  it('unknown purpose, file before purpose, no file, two files, or a JSON body answer badRequest', async () => {
    const before = await stored();
    const file = { name: 'file', filename: 'logo.jpg', bytes: jpegJfif(300) };
    const cases: Part[][] = [
      [{ name: 'purpose', value: 'avatar' }, file],
      [file, { name: 'purpose', value: 'logo' }],
      [{ name: 'purpose', value: 'logo' }],
      [{ name: 'purpose', value: 'logo' }, file, { ...file, filename: 'second.jpg' }],
      [
        { name: 'purpose', value: 'logo' },
        { ...file, name: 'attachment' },
      ],
    ];
    for (const parts of cases) {
      const answer = await send(t.app, demo, parts);
      expect({ parts: parts.map((p) => p.name), status: answer.status, code: answer.code, error: answer.error }).toEqual({
        parts: parts.map((p) => p.name),
        status: 400,
        code: 601,
        error: 'badRequest',
      });
    }
    const json = await t.app.inject({ method: 'POST', url: '/oga/uploads', payload: { purpose: 'logo' }, headers: { authorization: `Bearer ${demo}` } });
    expect(json.json()).toMatchObject({ code: 601, error: 'badRequest' });
    expect(await stored()).toEqual(before);
  });

  it('an upload needs a session; organisers do not upload', async () => {
    expect((await upload(t.app, '', 'logo', 'logo.jpg', jpegJfif(300))).code).toBe(401);
    expect((await upload(t.app, organiser, 'logo', 'logo.jpg', jpegJfif(300))).code).toBe(403);
  });

  it('the owner downloads the same bytes as an attachment under the original name, never sniffed', async () => {
    const bytes = jpegJfif(300);
    const { data } = await upload(t.app, demo, 'logo', 'Logo 2027 (final)_v2.jpg', bytes);
    const response = await download(t.app, demo, data.id);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(Buffer.from(bytes));
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Logo 2027 (final)_v2.jpg"; filename*=UTF-8''Logo%202027%20%28final%29_v2.jpg`);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it("an organiser of the same event reads the exhibitor's files; a team user only the business cards of its own leads", async () => {
    const bytes = jpegJfif(300);
    const { data } = await upload(t.app, demo, 'logo', 'logo.jpg', bytes);
    const organiserRead = await download(t.app, organiser, data.id);
    expect(organiserRead.statusCode).toBe(200);
    expect(organiserRead.rawPayload).toEqual(Buffer.from(bytes));
    // The exhibitor's logo is not the team user's business.
    expect(bodyOf(await get(t.app, `/oga/uploads/${data.id}`, team))).toEqual(NOT_FOUND);

    // The team user's own upload is its own and the exhibitor's.
    const byTeam = await upload(t.app, team, 'businessCard', 'card.png', png());
    expect(byTeam.code).toBe(200);
    expect((await download(t.app, team, byTeam.data.id)).statusCode).toBe(200);
    expect((await download(t.app, demo, byTeam.data.id)).statusCode).toBe(200);

    // A card the exhibitor attached to a lead the team user scanned: readable; to another lead: not.
    const teamUser = await t.app.db.selectFrom('users').select('id').where('login_key', '=', 'demo-team').executeTakeFirstOrThrow();
    const [mine, other] = await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', demoParticipation).orderBy('id').limit(2).execute();
    const cardOfMine = await upload(t.app, demo, 'businessCard', 'mine.png', png());
    const cardOfOther = await upload(t.app, demo, 'businessCard', 'other.png', png());
    await t.app.db.updateTable('leads').set({ scanned_by: teamUser.id, business_card: cardOfMine.data.id }).where('id', '=', mine!.id).execute();
    await t.app.db.updateTable('leads').set({ business_card: cardOfOther.data.id }).where('id', '=', other!.id).execute();
    expect((await download(t.app, team, cardOfMine.data.id)).statusCode).toBe(200);
    expect(bodyOf(await get(t.app, `/oga/uploads/${cardOfOther.data.id}`, team))).toEqual(NOT_FOUND);
  });

  it("a scanning device uploads a business card and attaches it to its exhibitor's lead; other purposes are refused to it, nothing stored", async () => {
    const made = await post(t.app, '/oga/leads/devices', { name: 'Booth phone' }, demo);
    expect(made.code).toBe(200);
    const device = made.data.token as string;
    const card = await upload(t.app, device, 'businessCard', 'card.jpg', jpegJfif(72));
    expect(card).toMatchObject({ code: 200, data: { name: 'card.jpg', type: 'jpeg' } });
    const lead = await t.app.db.selectFrom('leads').select('id').where('participation_id', '=', demoParticipation).orderBy('id').executeTakeFirstOrThrow();
    const patched = await t.app.inject({ method: 'PATCH', url: `/oga/leads/${lead.id}`, payload: { businessCard: card.data.id }, headers: { authorization: `Bearer ${device}` } });
    expect(patched.json()).toMatchObject({ code: 200 });
    const attached = await t.app.db.selectFrom('leads').select('business_card').where('id', '=', lead.id).executeTakeFirstOrThrow();
    expect(attached.business_card).toBe(card.data.id);
    const before = await stored();
    for (const purpose of ['logo', 'boothDesign']) {
      expect(bodyOf(await upload(t.app, device, purpose, 'logo.jpg', jpegJfif(300)))).toMatchObject({ code: 403, error: 'deviceTokenScope' });
    }
    expect(await stored()).toEqual(before);
  });

  it("a contractor reads the files of its part of the shared forms, not the exhibitor's part", async () => {
    const contractor = await login(t.app, DEMO_CONTRACTOR_LOGIN);
    const inPart = await upload(t.app, demo, 'boothDesign', 'green-card.pdf', pdf());
    const exhibitorsOwn = await upload(t.app, demo, 'boothDesign', 'booth.pdf', pdf());
    const inWholeForm = await upload(t.app, demo, 'brochure', 'safety.pdf', pdf());
    const entry = (formId: string, data: Record<string, unknown>) => ({ participation_id: demoParticipation, form_id: formId, data: JSON.stringify(data) });
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', demoParticipation).where('form_id', 'in', ['s03', 's05']).execute();
    await t.app.db
      .insertInto('form_entries')
      .values([
        // S03: contractorFields are the contractor's; the booth design is the exhibitor's.
        entry('s03', { contractor: { id: inPart.data.id, name: 'green-card.pdf' }, boothDesign: { id: exhibitorsOwn.data.id, name: 'booth.pdf' } }),
        // S05 is shared whole with contractors.
        entry('s05', { attachment: { id: inWholeForm.data.id, name: 'safety.pdf' } }),
      ] as never)
      .execute();
    expect((await download(t.app, contractor, inPart.data.id)).statusCode).toBe(200);
    expect((await download(t.app, contractor, inWholeForm.data.id)).statusCode).toBe(200);
    expect(bodyOf(await get(t.app, `/oga/uploads/${exhibitorsOwn.data.id}`, contractor))).toEqual(NOT_FOUND);
    // The contractor's own upload stays readable to it.
    const own = await upload(t.app, contractor, 'boothDesign', 'plan.pdf', pdf());
    expect((await download(t.app, contractor, own.data.id)).statusCode).toBe(200);
    await t.app.db.deleteFrom('form_entries').where('participation_id', '=', demoParticipation).where('form_id', 'in', ['s03', 's05']).execute();
  });

  it("another exhibitor gets 404 for demo's file, the same as for an id that does not exist", async () => {
    const { data } = await upload(t.app, demo, 'logo', 'logo.jpg', jpegJfif(300));
    const answer = await get(t.app, `/oga/uploads/${data.id}`, limited);
    expect(answer.status).toBe(200);
    expect(bodyOf(answer)).toEqual(NOT_FOUND);
    expect(bodyOf(await get(t.app, `/oga/uploads/${randomBytes(32).toString('base64url')}`, limited))).toEqual(NOT_FOUND);
    expect(bodyOf(await get(t.app, '/oga/uploads/..%2F..%2Fdb', demo))).toEqual(NOT_FOUND);
    expect((await get(t.app, `/oga/uploads/${data.id}`)).code).toBe(401);
  });

  it('an organiser of another event gets 404', async () => {
    const { data } = await upload(t.app, demo, 'logo', 'logo.jpg', jpegJfif(300));
    const otherEvent = await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2026').executeTakeFirstOrThrow();
    await t.app.db.updateTable('users').set({ event_id: otherEvent.id }).where('login_key', '=', 'organiser').execute();
    try {
      expect(bodyOf(await get(t.app, `/oga/uploads/${data.id}`, organiser))).toEqual(NOT_FOUND);
    } finally {
      const demoEvent = await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
      await t.app.db.updateTable('users').set({ event_id: demoEvent.id }).where('login_key', '=', 'organiser').execute();
    }
  });

  it('a row whose file is missing on disk answers 404, not an error', async () => {
    const { data } = await upload(t.app, demo, 'logo', 'logo.jpg', jpegJfif(300));
    const { rm } = await import('node:fs/promises');
    await rm(join(uploadsDir(), data.id));
    expect(existsSync(join(uploadsDir(), data.id))).toBe(false);
    expect(bodyOf(await get(t.app, `/oga/uploads/${data.id}`, demo))).toEqual(NOT_FOUND);
  });

  it('the OpenAPI document describes both routes under the uploads tag, the upload as multipart/form-data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/oga/openapi.json' })).json();
    const post = doc.paths['/oga/uploads'].post;
    expect(post.tags).toEqual(['uploads']);
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data']);
    // Purposes are data (forms.yaml `uploads:`, live): the document says where they are declared.
    expect(post.requestBody.content['multipart/form-data'].schema.properties.purpose).toMatchObject({
      type: 'string',
      description: expect.stringContaining('forms.yaml `uploads:`'),
    });
    expect(doc.paths['/oga/uploads/{id}'].get.tags).toEqual(['uploads']);
  });
});

/** A JPEG whose comment segment carries a web page: opened as HTML, a browser would run it. */
function htmlJpegPolyglot(): Uint8Array {
  const jpeg = jpegJfif(300);
  const html = new TextEncoder().encode('<html><body><script>alert(document.cookie)</script></body></html>');
  const comment = concat(Uint8Array.of(0xff, 0xfe, (html.length + 2) >> 8, (html.length + 2) & 0xff), html);
  return concat(jpeg.subarray(0, 2), comment, jpeg.subarray(2));
}

/** A JPEG whose frame header claims 30000 × 30000 pixels (a few hundred bytes on the wire). */
function jpegClaiming(width: number, height: number): Uint8Array {
  const bytes = jpegJfif(300).slice();
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const sof = view.indexOf(Buffer.from([0xff, 0xc0]));
  view.writeUInt16BE(height, sof + 5);
  view.writeUInt16BE(width, sof + 7);
  return bytes;
}

/** A JPEG whose scan data is cut off and overwritten: it does not decode. */
function brokenJpeg(): Uint8Array {
  const bytes = jpegJfif(300).slice();
  bytes.fill(0xff, bytes.length - 60, bytes.length - 2);
  return bytes;
}

/** A PDF that runs JavaScript when opened, its catalog inside a compressed object stream. */
async function pdfWithJavaScript(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
  return doc.save({ useObjectStreams: true });
}

describe.each(ENGINES)('uploads judged by content, quota and storage full on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  const image = jpegOfSize(400 * 1024);
  const allFilesIn = (area: string) => (existsSync(join(t.config.dataDir, area)) ? readdirSync(join(t.config.dataDir, area)) : []);
  /** The files this test made: the demo's own (a manual's attachment) were there before it. */
  let demoFiles: string[] = [];
  const filesIn = (area: string) => allFilesIn(area).filter((name) => !demoFiles.includes(name));
  const rowsOf = async (participationId: number) =>
    (await t.app.db.selectFrom('uploads').select('id').where('participation_id', '=', participationId).execute()).map((row) => row.id);

  beforeAll(async () => {
    // Room for exactly three of the test image.
    t = await createTestApp(engine, { uploadQuotaBytes: image.length * 3 + 10 });
    demo = await login(t.app, 'demo');
    demoFiles = allFilesIn('uploads');
  });
  afterAll(async () => t?.close());

  it.each([
    ['a JPEG that does not decode', () => brokenJpeg(), 'validation.file.undecodable', undefined],
    ['a JPEG of 30000 × 30000 pixels', () => jpegClaiming(30000, 30000), 'validation.file.tooManyPixels', { width: 30000, height: 30000, limit: 64 }],
    ['an HTML/JPEG polyglot', () => htmlJpegPolyglot(), 'validation.file.activeContent', undefined],
  ])('%s is refused with a clear message and nothing is stored', async (_label, make, key, params) => {
    const answer = await upload(t.app, demo, 'brochure', 'picture.jpg', make());
    expect(bodyOf(answer)).toEqual(rejected([{ key, ...(params ? { params } : {}) }]));
    expect(answer.msg).not.toBe(translate('en', 'errors.fileRejected'));
    expect(filesIn('uploads')).toEqual([]);
  });

  it('a PDF with JavaScript actions is refused; a plain PDF is accepted', async () => {
    const refused = await upload(t.app, demo, 'brochure', 'brochure.pdf', await pdfWithJavaScript());
    expect(bodyOf(refused)).toEqual(rejected([{ key: 'validation.file.pdfScript' }]));
    const accepted = await upload(t.app, demo, 'brochure', 'brochure.pdf', pdf());
    expect(accepted.code).toBe(200);
    await t.app.db.deleteFrom('uploads').where('id', '=', accepted.data.id).execute();
    await t.app.storage.delete(`uploads/${accepted.data.id}`);
  });

  it('parallel uploads stop at the participation quota with a clear message; every stored file has its row', async () => {
    const participationId = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(t.app, demo, 'logo', `logo-${i}.jpg`, image)));
    const accepted = answers.filter((answer) => answer.code === 200);
    const refused = answers.filter((answer) => answer.error === 'uploadQuotaExceeded');
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.status).toBe(413);
    // 3 × 400 KB used of a 1.2 MB quota.
    expect(refused[0]!.msg).toBe(translate('en', 'errors.uploadQuotaExceeded', { used: 1.2, limit: 1.2 }));
    expect(refused[0]!.data).toEqual({ used: image.length * 3, limit: image.length * 3 + 10 });
    expect((await rowsOf(participationId)).sort()).toEqual(accepted.map((answer) => answer.data.id).sort());
    expect(filesIn('uploads').sort()).toEqual(accepted.map((answer) => answer.data.id).sort());
    // Another language gets the message in its own words.
    const cn = await upload(t.app, demo, 'logo', 'logo.jpg', image, { 'accept-language': 'cn' });
    expect(cn.msg).toContain('MB');
    expect(cn.msg).not.toBe(refused[0]!.msg);
    for (const answer of accepted) {
      await t.app.db.deleteFrom('uploads').where('id', '=', answer.data.id).execute();
      await t.app.storage.delete(`uploads/${answer.data.id}`);
    }
  });

  it('a full disk answers "storage full" (HTTP 507, coded), never a 500, and leaves no partial file', async () => {
    const saved = { ...t.app.storage };
    // The real local store, its writes going to /dev/full: the kernel answers ENOSPC.
    Object.assign(t.app.storage, localStorage(t.config.dataDir, { openWrite: () => createWriteStream('/dev/full') }));
    try {
      const answer = await upload(t.app, demo, 'logo', 'logo.jpg', image);
      expect(answer.status).toBe(507);
      expect(bodyOf(answer)).toEqual({ code: 601, msg: translate('en', 'errors.storageFull'), data: null, error: 'storageFull' });
    } finally {
      Object.assign(t.app.storage, saved);
    }
    expect(filesIn('uploads')).toEqual([]);
    expect(
      await t.app.db
        .selectFrom('uploads')
        .select('id')
        .where('id', 'not in', demoFiles.length ? demoFiles : [''])
        .execute(),
    ).toEqual([]);
  });

  it('the orphan sweep removes files without a row and rows without a file, once they are an hour old', async () => {
    const kept = await upload(t.app, demo, 'logo', 'kept.jpg', image);
    expect(bodyOf(kept)).toMatchObject({ code: 200 });
    const { data } = kept;
    const gone = await upload(t.app, demo, 'logo', 'gone.jpg', image);
    expect(bodyOf(gone)).toMatchObject({ code: 200 });
    await t.app.storage.put('uploads/orphan-file', Buffer.from(image));
    await t.app.storage.delete(`uploads/${gone.data.id}`);
    // Young orphans are left alone (an upload stores its file before its row).
    expect(await sweepOrphanFiles(t.app)).toEqual({ filesRemoved: 0, rowsRemoved: 0 });

    const { utimes } = await import('node:fs/promises');
    const old = new Date(Date.now() - 2 * 3_600_000);
    await utimes(join(t.config.dataDir, 'uploads', 'orphan-file'), old, old);
    await t.app.db.updateTable('uploads').set({ created_at: old }).execute();
    expect(await sweepOrphanFiles(t.app)).toEqual({ filesRemoved: 1, rowsRemoved: 1 });
    expect(filesIn('uploads')).toEqual([data.id]);
    expect(
      (
        await t.app.db
          .selectFrom('uploads')
          .select('id')
          .where('id', 'not in', demoFiles.length ? demoFiles : [''])
          .execute()
      ).map((row) => row.id),
    ).toEqual([data.id]);
    expect((await download(t.app, demo, data.id)).statusCode).toBe(200);
  });
});
