import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, recordUpload, type TestApp } from './helpers';

// F7: GET /oga/visa/letters lists the applicants of the participation's submitted S06 form;
// GET /oga/visa/letters/:index.pdf is a real PDF invitation letter for one of them. Only the
// participation's own users see them; the screen's module (Forms) is needed.

const NOT_FOUND = { code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' };

function applicant(fullName: string, passportNumber: string, extra: Record<string, unknown> = {}) {
  return {
    fullName,
    gender: 'male',
    nationality: 'Malaysian',
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
    embassyCountry: 'Malaysia',
    embassyCity: 'Kuala Lumpur',
    email: `${passportNumber.toLowerCase()}@borneo-botanica.example`,
    ...extra,
  };
}

const APPLICANTS = [applicant('Tan Wei Ming', 'A12345678'), applicant('Nguyễn Văn Đức', 'C7654321', { nationality: 'Vietnamese', placeOfBirth: 'Hà Nội', embassyCountry: 'Viet Nam', embassyCity: 'Hà Nội' })];

describe.each(ENGINES)('F7 visa invitation letters on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let noForms: string;
  let team: string;
  let contractor: string;
  let demoParticipation: number;
  let submittedAt: Date;

  const pdf = (token: string, path: string) => t.app.inject({ method: 'GET', url: `/oga/visa/letters/${path}`, headers: { authorization: `Bearer ${token}` } });
  const envelopeOf = (response: LightMyRequestResponse) => response.json() as { code: number };

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
    await recordUpload(t.app, demoParticipation, 'passportPhoto', applicant('Test Applicant', 'X0000000').passportPhoto as { id: string; name: string; size: number; type: string; dpi: number | null });
    // An exhibitor of the same event whose participation has no Forms module.
    const exhibitor = await t.app.db.insertInto('exhibitors').values({ name: 'Sambal Co', legal_name: 'Sambal Co Sdn. Bhd.', logo_url: '' }).returning('id').executeTakeFirstOrThrow();
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
        { login: 'demo-team', login_key: 'demo-team', email: 'team@borneo-botanica.example', display_name: 'Team member', password_hash: demoUser.password_hash, role: 'team_user', participation_id: demoParticipation, event_id: demoUser.event_id, status: 'active' },
        { login: 'demo-builder', login_key: 'demo-builder', email: 'ops@stand-works.example', display_name: 'Stand Works', password_hash: demoUser.password_hash, role: 'contractor', participation_id: demoParticipation, event_id: demoUser.event_id, status: 'active' },
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
    [demo, limited, organiser, noForms, team, contractor] = await Promise.all(
      ['demo', 'limited', 'organiser', 'no-forms', 'demo-team', 'demo-builder'].map((account) => login(t.app, account)),
    );
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.app.db.deleteFrom('form_entries').execute();
  });

  it('F7 no letters before S06 is submitted: an empty list, and 404 for the PDF; a draft does not count', async () => {
    expect(bodyOf(await get(t.app, '/oga/visa/letters', demo))).toEqual({ code: 200, msg: 'ok', data: [] });
    expect(envelopeOf(await pdf(demo, '0.pdf'))).toEqual(NOT_FOUND);
    await saveS06('draft');
    expect(bodyOf(await get(t.app, '/oga/visa/letters', demo))).toEqual({ code: 200, msg: 'ok', data: [] });
    expect(envelopeOf(await pdf(demo, '0.pdf'))).toEqual(NOT_FOUND);
  });

  it('F7 a submitted S06 lists its applicants with their reference and file name', async () => {
    await saveS06('submitted');
    const answer = await get(t.app, '/oga/visa/letters', demo);
    expect(bodyOf(answer)).toEqual({
      code: 200,
      msg: 'ok',
      data: [
        { index: 0, name: 'Tan Wei Ming', passportNumber: 'A12345678', reference: `AFHE2027-${demoParticipation}-1`, fileName: 'visa-invitation-Tan-Wei-Ming.pdf' },
        { index: 1, name: 'Nguyễn Văn Đức', passportNumber: 'C7654321', reference: `AFHE2027-${demoParticipation}-2`, fileName: 'visa-invitation-Nguyễn-Văn-Đức.pdf' },
      ],
    });
  });

  it('F7 F9 editing the submitted S06 keeps its letters until a new submission replaces them', async () => {
    await saveS06('submitted');
    const names = async () => ((await get(t.app, '/oga/visa/letters', demo)).data as Array<{ name: string }>).map((letter) => letter.name);
    const { version } = (await get(t.app, '/oga/forms/s06', demo)).data.entry as { version: number };
    // The exhibitor starts changing the list: the first applicant is removed from the working copy (an autosave).
    const saved = await put(t.app, '/oga/forms/s06/draft', { data: { applicants: APPLICANTS.slice(1), confirmTruth: true }, version }, demo);
    expect(saved.code).toBe(200);
    expect(await names()).toEqual(['Tan Wei Ming', 'Nguyễn Văn Đức']);
    expect((await pdf(demo, '0.pdf')).headers['content-type']).toBe('application/pdf');
    const form = (await get(t.app, '/oga/forms/s06', demo)).data as { status: string; changesNotSubmitted: boolean };
    expect(form).toMatchObject({ status: 'submitted', changesNotSubmitted: true });
    // Submitted again, the new list makes the letters.
    const resubmitted = await post(t.app, '/oga/forms/s06/submit', { data: { applicants: APPLICANTS.slice(1), confirmTruth: true }, version: (saved.data as { version: number }).version }, demo);
    expect(bodyOf(resubmitted)).toMatchObject({ code: 200 });
    expect(await names()).toEqual(['Nguyễn Văn Đức']);
  });

  it('V2 F9 an empty passport photo is never stored, and a submit without it asks for a file (once, not a bad file name)', async () => {
    const [first] = APPLICANTS;
    const saved = await put(t.app, '/oga/forms/s06/draft', { data: { applicants: [{ ...first, passportPhoto: {} }] }, version: 0 }, demo);
    expect(saved.code).toBe(200);
    const stored = await t.app.db.selectFrom('form_entries').select('data').where('participation_id', '=', demoParticipation).where('form_id', '=', 's06').executeTakeFirstOrThrow();
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
      'Date of issue: 6 November 2026',
      'Tan Wei Ming',
      'A12345678',
      '21 July 1988',
      '31 January 2032',
      '8 days',
      'Kuala Lumpur, Malaysia',
      'Borneo Botanica Sdn. Bhd.',
      'Hall 3 · B12',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.replace(/\n/g, ' ')).toMatch(/We are pleased to invite Tan Wei Ming, holder of passport number A12345678, to attend ASEAN Food & Hospitality Expo 2027, held at .* as a representative of Borneo Botanica Sdn\. Bhd\., exhibitor at booth Hall 3 · B12\./);
  });

  it('F7 ?download=1 answers it as an attachment; a name Helvetica cannot show is transliterated, the file name keeps it', async () => {
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
    expect(text).toContain('Nguyen Van Duc');
    expect(text).toContain('Ha Noi, Viet Nam');
  });

  it('F7 P1 a team user (lead capture only) has no access to the letters; its contractor (S06 is for exhibitors) gets none', async () => {
    await saveS06('submitted');
    expect(bodyOf(await get(t.app, '/oga/visa/letters', team)).code).toBe(403);
    expect((await pdf(team, '0.pdf')).rawPayload.subarray(0, 4).toString()).not.toBe('%PDF');
    expect(bodyOf(await get(t.app, '/oga/visa/letters', contractor))).toEqual({ code: 200, msg: 'ok', data: [] });
    expect(envelopeOf(await pdf(contractor, '0.pdf'))).toEqual(NOT_FOUND);
  });

  it('F7 an index out of range or not a number answers 404', async () => {
    await saveS06('submitted');
    for (const path of ['2.pdf', '99.pdf', 'x.pdf', '-1.pdf', '1e0.pdf', '9999999.pdf']) {
      expect(envelopeOf(await pdf(demo, path)), path).toEqual(NOT_FOUND);
    }
  });

  it('P5 another exhibitor of the event sees only its own (empty) data; the organiser and a participation without Forms get 403; no session 401', async () => {
    await saveS06('submitted');
    expect(bodyOf(await get(t.app, '/oga/visa/letters', limited))).toEqual({ code: 200, msg: 'ok', data: [] });
    expect(envelopeOf(await pdf(limited, '0.pdf'))).toEqual(NOT_FOUND);
    for (const token of [noForms, organiser]) {
      expect((await get(t.app, '/oga/visa/letters', token)).code).toBe(403);
      expect(envelopeOf(await pdf(token, '0.pdf')).code).toBe(403);
    }
    expect((await get(t.app, '/oga/visa/letters')).code).toBe(401);
    expect(envelopeOf(await t.app.inject({ method: 'GET', url: '/oga/visa/letters/0.pdf' })).code).toBe(401);
  });
});
