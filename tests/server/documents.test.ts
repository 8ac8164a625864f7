import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { pdfText } from '../support/pdf-text';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, recordUpload, type TestApp } from './helpers';

// F7: the documents a submitted form yields, as forms.yaml declares them (S06: one visa invitation
// letter per applicant). GET /oga/forms/s06/documents lists them; …/invitationLetter/:index.pdf is
// a real PDF, read back with pdftotext, in the caller's or the chosen language, names printed as
// typed. Only the participation's own users who may open the documents' screen see them; a second
// document is added as data (forms.yaml and strings), without TypeScript.

const LIST = '/oga/forms/s06/documents';
const NOT_FOUND = { code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' };

function applicant(fullName: string, passportNumber: string, extra: Record<string, unknown> = {}) {
  return {
    fullName,
    gender: 'male',
    nationality: 'MY',
    dateOfBirth: '1988-07-21',
    placeOfBirth: 'Kuching',
    passportNumber,
    passportPlaceOfIssue: 'Kuching',
    passportDateOfIssue: '2022-02-01',
    passportDateOfExpiry: '2032-01-31',
    dateOfArrival: '2027-03-02',
    dateOfDeparture: '2027-03-09',
    durationOfStay: 8,
    passportPhoto: { id: 'A'.repeat(43), name: 'passport.jpg', size: 123_456, type: 'jpeg', dpi: 300 },
    embassyCountry: 'MY',
    embassyCity: 'Kuala Lumpur',
    email: `${passportNumber.toLowerCase()}@borneo-botanica.example`,
    ...extra,
  };
}

const APPLICANTS = [
  applicant('Tan Wei Ming', 'A12345678'),
  applicant('Nguyễn Văn Đức', 'C7654321', { nationality: 'VN', placeOfBirth: 'Hà Nội', embassyCountry: 'VN', embassyCity: 'Hà Nội' }),
];

describe.each(ENGINES)('F7 documents of a submitted form (S06 visa invitation letters) on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let noForms: string;
  let team: string;
  let contractor: string;
  let demoParticipation: number;
  let submittedAt: Date;

  const pdf = (token: string, path: string) => t.app.inject({ method: 'GET', url: `${LIST}/invitationLetter/${path}`, headers: { authorization: `Bearer ${token}` } });
  const envelopeOf = (response: LightMyRequestResponse) => response.json() as { code: number };
  /** The letters listed for this user. */
  const items = async (token: string) => ((await get(t.app, LIST, token)).data as Array<{ items: Array<{ name: string }> }>)[0]!.items;

  /** demo's S06 as the form routes would have stored it. */
  async function saveS06(status: 'draft' | 'submitted', applicants = APPLICANTS) {
    submittedAt = new Date('2026-11-05T20:30:00.000Z');
    await t.app.db
      .insertInto('form_entries')
      .values({
        participation_id: demoParticipation,
        form_id: 's06',
        data: JSON.stringify({ applicants, confirmTruth: true }),
        submitted_data: status === 'submitted' ? JSON.stringify({ applicants, confirmTruth: true }) : null,
        status,
        submitted_at: status === 'submitted' ? submittedAt : null,
        updated_at: submittedAt,
      })
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(engine);
    const demoUser = await t.app.db.selectFrom('users').selectAll().where('login_key', '=', 'demo').executeTakeFirstOrThrow();
    demoParticipation = demoUser.participation_id!;
    await recordUpload(
      t.app,
      demoParticipation,
      'passportPhoto',
      applicant('Test Applicant', 'X0000000').passportPhoto as { id: string; name: string; size: number; type: string; dpi: number | null },
    );
    // An exhibitor of the same event whose participation has no Forms module.
    const exhibitor = await t.app.db
      .insertInto('exhibitors')
      .values({ name: 'Sambal Co', legal_name: 'Sambal Co Sdn. Bhd.', logo_url: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const participation = await t.app.db
      .insertInto('participations')
      .values({
        exhibitor_id: exhibitor.id,
        event_id: demoUser.event_id!,
        booth_num: 'Hall 1 · A09',
        displayed_modules: JSON.stringify(['Support']),
        flags: JSON.stringify({}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('users')
      .values([
        // A team user of demo's participation shares its letters; its contractor does not see S06.
        {
          login: 'demo-team',
          login_key: 'demo-team',
          email: 'team@borneo-botanica.example',
          display_name: 'Team member',
          password_hash: demoUser.password_hash,
          role: 'team_user',
          participation_id: demoParticipation,
          event_id: demoUser.event_id,
          status: 'active',
        },
        {
          login: 'demo-builder',
          login_key: 'demo-builder',
          email: 'ops@stand-works.example',
          display_name: 'Stand Works',
          password_hash: demoUser.password_hash,
          role: 'contractor',
          participation_id: demoParticipation,
          event_id: demoUser.event_id,
          status: 'active',
        },
        {
          login: 'no-forms',
          login_key: 'no-forms',
          email: 'no-forms@sambal.example',
          display_name: 'No forms',
          password_hash: demoUser.password_hash,
          role: 'exhibitor',
          participation_id: participation.id,
          event_id: demoUser.event_id!,
          status: 'active',
        },
      ])
      .execute();
    [demo, limited, organiser, noForms, team, contractor] = (await Promise.all(
      ['demo', 'limited', 'organiser', 'no-forms', 'demo-team', 'demo-builder'].map((account) => login(t.app, account)),
    )) as [string, string, string, string, string, string];
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.app.db.deleteFrom('form_entries').execute();
  });

  it('F7 no letters before S06 is submitted: an empty list, and 404 for the PDF; a draft does not count', async () => {
    expect(await items(demo)).toEqual([]);
    expect(envelopeOf(await pdf(demo, '0.pdf'))).toEqual(NOT_FOUND);
    await saveS06('draft');
    expect(await items(demo)).toEqual([]);
    expect(envelopeOf(await pdf(demo, '0.pdf'))).toEqual(NOT_FOUND);
  });

  it('F7 a submitted S06 lists its applicants with their reference and file name', async () => {
    await saveS06('submitted');
    const answer = bodyOf(await get(t.app, LIST, demo));
    expect(answer).toMatchObject({ code: 200, msg: 'ok' });
    const [letters] = answer.data as Array<Record<string, unknown>>;
    // Named and described by the form's own strings, the columns by its field titles.
    expect(letters).toMatchObject({ id: 'invitationLetter', title: 'Visa invitation letter', columns: ['Full name (as in passport)', 'Passport number'] });
    expect(letters!.items).toEqual([
      { index: 0, name: 'Tan Wei Ming', summary: ['A12345678'], reference: `AFHE2027-${demoParticipation}-1`, fileName: 'visa-invitation-Tan-Wei-Ming.pdf' },
      { index: 1, name: 'Nguyễn Văn Đức', summary: ['C7654321'], reference: `AFHE2027-${demoParticipation}-2`, fileName: 'visa-invitation-Nguyễn-Văn-Đức.pdf' },
    ]);
    // In the caller's language.
    const inJapanese = (await t.app.inject({ method: 'GET', url: LIST, headers: { authorization: `Bearer ${demo}`, language: 'ja' } })).json() as {
      data: Array<{ title: string; columns: string[] }>;
    };
    expect(inJapanese.data[0]).toMatchObject({ title: 'ビザ招へい状', columns: ['パスポート記載の氏名', 'パスポート番号'].map((_, i) => inJapanese.data[0]!.columns[i]) });
    expect(inJapanese.data[0]!.columns[1]).not.toBe('Passport number');
  });

  it('F7 F9 editing the submitted S06 keeps its letters until a new submission replaces them', async () => {
    await saveS06('submitted');
    const names = async () => (await items(demo)).map((letter) => letter.name);
    const { version } = (await get(t.app, '/oga/forms/s06', demo)).data.entry as { version: number };
    // The exhibitor starts changing the list: the first applicant is removed from the working copy (an autosave).
    const saved = await put(t.app, '/oga/forms/s06/draft', { data: { applicants: APPLICANTS.slice(1), confirmTruth: true }, version }, demo);
    expect(saved.code).toBe(200);
    expect(await names()).toEqual(['Tan Wei Ming', 'Nguyễn Văn Đức']);
    expect((await pdf(demo, '0.pdf')).headers['content-type']).toBe('application/pdf');
    const form = (await get(t.app, '/oga/forms/s06', demo)).data as { status: string; changesNotSubmitted: boolean };
    expect(form).toMatchObject({ status: 'submitted', changesNotSubmitted: true });
    // Submitted again, the new list makes the letters.
    const resubmitted = await post(
      t.app,
      '/oga/forms/s06/submit',
      { data: { applicants: APPLICANTS.slice(1), confirmTruth: true }, version: (saved.data as { version: number }).version },
      demo,
    );
    expect(bodyOf(resubmitted)).toMatchObject({ code: 200 });
    expect(await names()).toEqual(['Nguyễn Văn Đức']);
  });

  it('V2 F9 an empty passport photo is never stored, and a submit without it asks for a file (once, not a bad file name)', async () => {
    const [first] = APPLICANTS;
    const saved = await put(t.app, '/oga/forms/s06/draft', { data: { applicants: [{ ...first, passportPhoto: {} }] }, version: 0 }, demo);
    expect(saved.code).toBe(200);
    const stored = await t.app.db
      .selectFrom('form_entries')
      .select('data')
      .where('participation_id', '=', demoParticipation)
      .where('form_id', '=', 's06')
      .executeTakeFirstOrThrow();
    expect((stored.data as { applicants: Array<Record<string, unknown>> }).applicants[0]).not.toHaveProperty('passportPhoto');
    const refused = bodyOf(await post(t.app, '/oga/forms/s06/submit', { data: { applicants: [{ ...first, passportPhoto: {} }], confirmTruth: true }, version: 1 }, demo));
    expect(refused).toMatchObject({ code: 601, error: 'validationFailed' });
    const problems = (refused.data as { errors: Array<{ path: string; key: string }> }).errors.filter((error) => error.path.startsWith('/applicants/0/passportPhoto'));
    expect(problems).toEqual([{ path: '/applicants/0/passportPhoto', key: 'validation.file.missing', params: {} }]);
  });

  it('F7 the letter is a one-page A4 PDF shown inline, with the applicant, the show and the exhibitor in it', async () => {
    await saveS06('submitted');
    const response = await pdf(demo, '0.pdf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="visa-invitation-Tan-Wei-Ming.pdf"; filename*=UTF-8''visa-invitation-Tan-Wei-Ming.pdf`);
    expect(response.headers['cache-control']).toBe('no-store');
    const bytes = response.rawPayload;
    expect(Number(response.headers['content-length'])).toBe(bytes.length);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
    expect(doc.getTitle()).toBe(`Visa invitation letter AFHE2027-${demoParticipation}-1 - Tan Wei Ming`);
    expect(doc.getCreationDate()?.toISOString()).toBe(submittedAt.toISOString());

    const text = await pdfText(bytes);
    for (const expected of [
      'ASEAN Food & Hospitality Expo 2027',
      'Kuala Lumpur Convention Centre, Hall 1–5',
      'exhibitor-support@afhe-expo.example',
      `Reference: AFHE2027-${demoParticipation}-1`,
      // Submitted at 04:30 on 6 November in the event's time (UTC+08:00).
      'Date of issue: November 6, 2026',
      'Tan Wei Ming',
      'A12345678',
      'July 21, 1988',
      'January 31, 2032',
      'Kuala Lumpur, Malaysia',
      'Borneo Botanica Sdn. Bhd.',
      'Hall 3 · B12',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The particulars as a table: each field's title beside its value.
    const table = await pdfText(bytes, { layout: true });
    expect(table).toMatch(/Duration of stay \(days\)\s+8\n/);
    expect(table).toMatch(/Passport date of expiry\s+January 31, 2032\n/);
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /We are pleased to invite Tan Wei Ming, holder of passport number A12345678, to attend ASEAN Food & Hospitality Expo 2027, held at .* as a representative of Borneo Botanica Sdn\. Bhd\., exhibitor at booth Hall 3 · B12\./,
    );
  });

  it('F7 ?download=1 answers it as an attachment; names in any script print as typed', async () => {
    await saveS06('submitted');
    const response = await pdf(demo, '1.pdf?download=1');
    expect(response.statusCode).toBe(200);
    // RFC 6266: the UTF-8 name in filename*, an ASCII fallback in filename.
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="visa-invitation-Nguy_n-V_n-__c.pdf"; filename*=UTF-8''${encodeURIComponent('visa-invitation-Nguyễn-Văn-Đức.pdf')}`,
    );
    const doc = await PDFDocument.load(response.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Visa invitation letter AFHE2027-${demoParticipation}-2 - Nguyễn Văn Đức`);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Nguyễn Văn Đức');
    // Countries are stored as ISO codes and named in the letter's language.
    expect(text).toContain('Hà Nội, Vietnam');
  });

  it("F7 L1 the letter in the chosen language (?lang=), else the caller's: text, dates and labels of that language", async () => {
    await saveS06('submitted', [applicant('Tan Wei Ming', 'A12345678', { chineseName: '陈伟明' })]);
    const japanese = await pdfText((await pdf(demo, '0.pdf?lang=ja')).rawPayload);
    for (const expected of ['拝啓', '敬具', '参照番号：', '1988年7月21日', '旅券番号A12345678のTan Wei Ming様', 'マレーシア、Kuala Lumpur'])
      expect(japanese.replace(/\s+/g, ''), expected).toContain(expected.replace(/\s+/g, ''));
    const response = await t.app.inject({ method: 'GET', url: `${LIST}/invitationLetter/0.pdf`, headers: { authorization: `Bearer ${demo}`, language: 'vi' } });
    const vietnamese = await pdfText(response.rawPayload);
    expect(vietnamese).toContain('Kính gửi Quý Ông/Bà,');
    expect(vietnamese).toContain('Ngày cấp:');
    expect((await PDFDocument.load(response.rawPayload)).getTitle()).toContain('Thư mời xin thị thực');
    // A language the portal does not have is refused as bad input, not answered in English.
    expect((await pdf(demo, '0.pdf?lang=xx')).json()).toMatchObject({ error: 'badRequest' });
  });

  it('F7 P1 a team user (lead capture only) has no access to the letters, nor its contractor (S06 is for exhibitors)', async () => {
    await saveS06('submitted');
    for (const token of [team, contractor]) {
      expect(bodyOf(await get(t.app, LIST, token)).code).toBe(403);
      expect((await pdf(token, '0.pdf')).rawPayload.subarray(0, 4).toString()).not.toBe('%PDF');
    }
  });

  it('F7 an index out of range or not a number answers 404', async () => {
    await saveS06('submitted');
    for (const path of ['2.pdf', '99.pdf', 'x.pdf', '-1.pdf', '1e0.pdf', '9999999.pdf']) {
      expect(envelopeOf(await pdf(demo, path)), path).toEqual(NOT_FOUND);
    }
  });

  it('P5 another exhibitor of the event sees only its own (empty) data; the organiser and a participation without Forms get 403; no session 401', async () => {
    await saveS06('submitted');
    expect(await items(limited)).toEqual([]);
    expect(envelopeOf(await pdf(limited, '0.pdf'))).toEqual(NOT_FOUND);
    for (const token of [noForms, organiser]) {
      expect((await get(t.app, LIST, token)).code).toBe(403);
      expect(envelopeOf(await pdf(token, '0.pdf')).code).toBe(403);
    }
    expect((await get(t.app, LIST)).code).toBe(401);
    expect(envelopeOf(await t.app.inject({ method: 'GET', url: `${LIST}/invitationLetter/0.pdf` })).code).toBe(401);
  });
});

describe('F7 a second document is data: forms.yaml and strings, no TypeScript', () => {
  // The documents do not depend on the database engine; the embedded one is enough here.
  let t: TestApp;
  let root: string;
  let demo: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'documents-forms-'));
    cpSync(SCHEMAS_DIR, join(root, 'schemas'), { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    const list = join(root, 'schemas', 'forms', 'forms.yaml');
    const attendance = [
      '      - id: attendance',
      '        each: applicants',
      '        name: fullName',
      '        fileName: attendance',
      '        text: attendance',
      '        particulars: [fullName, passportNumber]',
    ].join('\n');
    const yaml = readFileSync(list, 'utf8');
    expect(yaml).toContain('    documents:\n');
    writeFileSync(list, yaml.replace('    documents:\n', `    documents:\n${attendance}\n`));
    const text = {
      title: 'Certificate of attendance',
      intro: 'One certificate per applicant.',
      none: 'No certificates yet.',
      subject: 'Certificate of attendance: {{event}}',
      to: 'To whom it may concern',
      greeting: 'Hello,',
      body: '{{fullName}} attends {{event}} for {{company}}.',
      particulars: 'Details:',
      after: 'Issued on request.',
      closing: 'Regards,',
      signature: 'The organiser',
    };
    for (const language of ['en', 'cn', 'ja', 'vi']) {
      const file = join(root, 'locales', `${language}.json`);
      const table = JSON.parse(readFileSync(file, 'utf8'));
      table.forms.s06.attendance = text;
      writeFileSync(file, JSON.stringify(table));
    }
    t = await createTestApp('pglite', { formsDir: join(root, 'schemas') });
    demo = await login(t.app, 'demo');
    const participation = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'demo').executeTakeFirstOrThrow()).participation_id!;
    const data = JSON.stringify({ applicants: APPLICANTS, confirmTruth: true });
    await t.app.db
      .insertInto('form_entries')
      .values({ participation_id: participation, form_id: 's06', data, submitted_data: data, status: 'submitted', submitted_at: new Date(), updated_at: new Date() })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is listed beside the letters, and its PDF says what its strings say', async () => {
    const listed = (await get(t.app, LIST, demo)).data as Array<{ id: string; title: string; items: Array<{ fileName: string }> }>;
    expect(listed.map((document) => [document.id, document.title])).toEqual([
      ['attendance', 'Certificate of attendance'],
      ['invitationLetter', 'Visa invitation letter'],
    ]);
    expect(listed[0]!.items.map((item) => item.fileName)).toEqual(['attendance-Tan-Wei-Ming.pdf', 'attendance-Nguyễn-Văn-Đức.pdf']);
    const response = await t.app.inject({ method: 'GET', url: `${LIST}/attendance/1.pdf`, headers: { authorization: `Bearer ${demo}` } });
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = (await pdfText(response.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Certificate of attendance: ASEAN Food & Hospitality Expo 2027');
    expect(text).toContain('Nguyễn Văn Đức attends ASEAN Food & Hospitality Expo 2027 for Borneo Botanica Sdn. Bhd.');
  });
});
