import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileReference } from '../../src/engine/forms/files';
import { translate } from '../../src/server/lib/messages';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import type { Participation } from '../../src/server/db/schema';
import { jpegJfif, pdf, png } from '../support/fixtures';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';
import { clearParticipationOverrides, setParticipationDeadline, setParticipationQuota } from '../support/settings';
import { FORM_LIST_FILE, formListOf } from '../../src/engine/forms/form-list';

// Every participation form of forms.yaml (S01–S08, VIP), table-driven on both engines: a valid
// submission accepted and read back (F9, F10), an invalid one refused with the field's coded
// error and nothing stored (V1–V8), draft round trips and stale versions (F9), submit-once
// (s01…s05SubmitOnceOnly), deadlines (closed), quotas (S04 badges, S05 contractor badges, V7),
// the organiser's approval where forms.yaml declares one (O1), flags hiding sections (F2, F3)
// and another exhibitor's entries (P5). tests/server/forms.test.ts covers the forms list and
// the S04-specific cases; this file covers what holds for every form.

const FORMS = formListOf(readFileSync(join(SCHEMAS_DIR, FORM_LIST_FILE), 'utf8')).forms;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 24 * 60 * 60 * 1000;
const VALIDATION_MSG = 'Some fields need your attention.';
const SUBMIT_ONCE = { code: 601, msg: 'This form is set to be submitted once only (contact support).', data: null, error: 'submitOnce' };
const CLOSED = { code: 601, msg: 'The submission is now closed as the deadline has passed.', data: null, error: 'deadlinePassed' };
const STALE = { code: 601, msg: 'Someone else saved this form after you opened it. Reload to see their changes, then make yours again.', data: null, error: 'staleVersion' };

/** Uploaded files of one exhibitor, as the upload endpoint answered them. */
interface Files {
  logo: FileReference;
  brochure: FileReference;
  productImage: FileReference;
  boothDesign: FileReference;
  passportPhoto: FileReference;
}

type Data = Record<string, unknown>;

interface ExpectedError {
  path: string;
  key: string;
  params?: Record<string, string | number>;
  /** What the user reads (English). */
  message: string;
}

interface FormCase {
  id: string;
  /** A complete, realistic submission for the demo exhibitor (every flag on). */
  valid: (files: Files, tag: string) => Data;
  /** An invalid submission and the errors the server must answer for it. */
  invalid: (files: Files) => { data: Data; errors: ExpectedError[] };
}

const contact = (name: string, email: string, jobTitle: string, department: string) => ({
  name,
  jobTitle,
  department,
  email,
  mobile: '+60 12-345 6789',
  fax: '+60 3-2712 3456',
  countryCode: '+60',
});

const s01 = (files: Files, tag: string): Data => ({
  company: {
    companyName: `Borneo Botanica Sdn. Bhd. ${tag}`,
    halalCertified: true, // the demo event's own question (schemas/events/AFHE2027/s01.patch.json)
    boothDisplayName: 'Borneo Botanica',
    boothDisplayNameLocal: '婆罗洲植物',
    businessNature: 'Manufacturer and exporter of rainforest honey and herbal teas',
    mainProductCategories: ['beverages', 'healthOrganic'],
    otherProductCategories: 'Gift hampers',
    description: 'Family-run producer from Sabah, supplying hotels and specialty retailers across ASEAN since 2009.',
    descriptionLocal: '来自沙巴的家族企业，自2009年起为东盟各地的酒店和专卖店供货。',
    website: 'https://www.borneo-botanica.example',
    logo: files.logo,
    brochure: files.brochure,
    linkedin: 'https://www.linkedin.com/company/borneo-botanica',
    facebook: 'https://www.facebook.com/borneobotanica',
    x: 'https://x.com/borneobotanica',
    instagram: 'https://www.instagram.com/borneobotanica',
    videoLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    address: 'Lot 12, Jalan Kolam, 88300 Kota Kinabalu, Sabah, Malaysia',
  },
  contacts: {
    operations: contact('Aisyah Rahman', 'ops@borneo-botanica.example', 'Operations Manager', 'Operations'),
    marketingSales: contact('Tan Wei Ling', 'sales@borneo-botanica.example', 'Head of Sales', 'Sales & Marketing'),
  },
  distribution: [
    { relationship: 'agent', company: 'Lim Trading Pte. Ltd.', country: 'SG' },
    { relationship: 'principal', company: 'Borneo Botanica Holdings', country: 'MY' },
  ],
  goals: { categories: ['distribution', 'goal'], notes: 'Meet hotel purchasers and two new distributors in Viet Nam.' },
});

const product = (files: Files, name: string, extra: Data = {}): Data => ({
  brandName: 'Borneo Botanica',
  brandNameLocal: '婆罗洲植物',
  productName: name,
  productNameLocal: '野生图阿朗蜂蜜',
  description: 'Raw honey from the Tualang trees of the Bornean rainforest, 250 g glass jar.',
  descriptionLocal: '来自婆罗洲雨林图阿朗树的生蜂蜜，250克玻璃瓶装。',
  category: 'beverages',
  image: files.productImage,
  videoUrl: 'https://vimeo.com/76979871',
  newLaunch: true,
  productInterest: 'distributors',
  ...extra,
});

const person = (firstName: string, lastName: string, email: string, extra: Data = {}): Data => ({
  firstName,
  middleName: '',
  lastName,
  lastNameFirst: false,
  companyOnBadge: 'Borneo Botanica',
  gender: 'female',
  email,
  ...extra,
});

const applicant = (files: Files, extra: Data = {}): Data => ({
  fullName: 'Tan Wei Ming',
  chineseName: '陈伟明',
  gender: 'male',
  nationality: 'CN',
  dateOfBirth: '1985-04-12',
  placeOfBirth: 'Guangzhou',
  passportNumber: 'E12345678',
  passportPlaceOfIssue: 'Guangdong',
  passportDateOfIssue: '2021-06-01',
  passportDateOfExpiry: '2031-05-31',
  dateOfArrival: '2027-03-15',
  dateOfDeparture: '2027-03-22',
  durationOfStay: 8,
  passportPhoto: files.passportPhoto,
  idType: 'National ID',
  idNumber: '440104198504120011',
  relationship: 'Employee',
  embassyCountry: 'CN',
  embassyCity: 'Guangzhou',
  email: 'weiming.tan@example.com',
  ...extra,
});

/** An applicant without one of the optional fields (a JSON body carries no undefined). */
const applicantWithout = (files: Files, omit: string, extra: Data = {}): Data => {
  const { [omit]: _omitted, ...rest } = applicant(files, extra);
  return rest;
};

const vehicle = (plateNumber: string, extra: Data = {}): Data => ({
  plateNumber,
  vehicleType: 'van',
  driverName: 'Muhammad Hafiz',
  driverMobile: '+60 19-876 5432',
  arrivalDate: '2027-03-14',
  purpose: 'moveIn',
  ...extra,
});

const en = (key: string, params: Record<string, string | number> = {}) => translate('en', key, params);

const CASES: FormCase[] = [
  {
    id: 's01',
    valid: s01,
    invalid: (files) => {
      const data = s01(files, 'invalid') as { company: Data; contacts: { operations: Data } };
      data.company.videoLink = 'https://www.dailymotion.com/video/x8abc12';
      data.contacts.operations.email = 'ops@borneo-botanica';
      return {
        data,
        errors: [
          { path: '/company/videoLink', key: 'validation.videoHost', message: 'Only YouTube and Vimeo links are accepted.' },
          { path: '/contacts/operations/email', key: 'validation.email', message: 'Please enter a valid email address' },
        ],
      };
    },
  },
  {
    id: 's02',
    valid: (files, tag) => ({
      products: [product(files, `Wild Tualang Honey ${tag}`), product(files, 'Sabah Highland Tea', { category: 'processedFood', newLaunch: false, productInterest: 'retailers' })],
    }),
    invalid: () => ({ data: { products: [] }, errors: [{ path: '/products', key: 'validation.atLeastOneProduct', message: 'Please add at least one product.' }] }),
  },
  {
    id: 's03',
    valid: (files, tag) => ({
      contractor: {
        company: `Kuala Lumpur Stand Works ${tag}`,
        address: '23 Jalan Kuchai Maju 8, Kuchai Entrepreneurs Park',
        postalCode: '58200',
        state: 'Kuala Lumpur',
        country: 'MY',
        telephone: '+60 3-7983 1122',
        fax: '+60 3-7983 1123',
        mobile: '+60 12-208 4411',
        email: 'projects@klsw.example',
        contactPerson: 'Rina Abdullah',
        contactPersonTitle: 'Project Manager',
        useOfficialContractor: false,
      },
      contractorType: 'standBuilder',
      greenCardNumber: 'CIDB-GC-2026-118734',
      greenCardExpiry: '2027-12-31',
      boothDesign: files.boothDesign,
      boothHeight: 2.4,
    }),
    invalid: (files) => ({
      // A stand builder needs a valid safety training green card (F4).
      data: {
        contractor: { company: 'KL Stand Works', email: 'projects@klsw.example', contactPerson: 'Rina Abdullah' },
        contractorType: 'standBuilder',
        boothDesign: files.boothDesign,
      },
      errors: [
        { path: '/greenCardNumber', key: 'validation.required', message: 'This field is required.' },
        { path: '/greenCardExpiry', key: 'validation.required', message: 'This field is required.' },
      ],
    }),
  },
  {
    id: 's04',
    valid: (_files, tag) => ({
      badges: [
        person('Aisyah', 'Rahman', `aisyah.${tag}@borneo-botanica.example`, { middleName: 'binti', lastNameFirst: true }),
        person('Ravi', 'Kumar', `ravi.${tag}@borneo-botanica.example`, { gender: 'male' }),
        person('Mei', 'Chen', `mei.${tag}@borneo-botanica.example`),
      ],
    }),
    invalid: () => ({
      data: { badges: [person('R2-D2', 'Rahman', 'r2@borneo-botanica.example')] },
      errors: [{ path: '/badges/0/firstName', key: 'validation.realName', message: 'Please enter a real name.' }],
    }),
  },
  {
    id: 's05',
    valid: (_files, tag) => ({
      badges: [
        person('Rina', 'Abdullah', `rina.${tag}@klsw.example`, { companyOnBadge: 'KL Stand Works' }),
        person('Hafiz', 'Ismail', `hafiz.${tag}@klsw.example`, { companyOnBadge: 'KL Stand Works', gender: 'male' }),
      ],
    }),
    invalid: () => ({
      data: { badges: [person('Rina', 'Abdullah', 'ｒｉｎａ@klsw.example')] },
      // Full-width letters make the address invalid as well: one message says why (not two problems).
      errors: [{ path: '/badges/0/email', key: 'validation.noFullWidth', message: 'Full-width characters are not allowed.' }],
    }),
  },
  {
    id: 's06',
    valid: (files) => ({
      applicants: [
        applicant(files),
        applicantWithout(files, 'chineseName', {
          fullName: 'Nguyễn Văn Đức',
          nationality: 'VN',
          passportNumber: 'C7654321',
          placeOfBirth: 'Hà Nội',
          embassyCountry: 'VN',
          embassyCity: 'Hà Nội',
          email: 'duc.nguyen@example.com',
        }),
      ],
      confirmTruth: true,
    }),
    invalid: (files) => ({
      data: { applicants: [applicant(files, { chineseName: 'Tan Wei Ming', nationality: 'XX' })], confirmTruth: false },
      errors: [
        { path: '/applicants/0/chineseName', key: 'validation.chineseName', message: 'Please enter the name in Chinese characters.' },
        // L1: a country field holds an ISO code; a made-up one is refused.
        { path: '/applicants/0/nationality', key: 'validation.country', message: 'Choose a country or region from the list.' },
        { path: '/confirmTruth', key: 'validation.const', message: 'Please confirm that the information is true.' },
      ],
    }),
  },
  {
    id: 's07',
    valid: (_files, tag) => ({ vehicles: [vehicle(`SAB 1234 ${tag}`.slice(0, 20)), vehicle('WXY 8821', { vehicleType: 'lorry', purpose: 'both', driverName: 'Lee Chong Wei' })] }),
    invalid: () => ({
      data: { vehicles: [vehicle('SAB 1234', { driverMobile: 'call the office' })] },
      errors: [
        { path: '/vehicles/0/driverMobile', key: 'validation.pattern', params: { pattern: '^\\+?[0-9][0-9()\\- ]{3,29}$' }, message: 'The value is not in the expected format.' },
      ],
    }),
  },
  {
    id: 's08',
    valid: (_files, tag) => ({ vehicles: [vehicle(`VKL ${tag}`.slice(0, 20), { driverName: 'Rina Abdullah', purpose: 'moveOut' })] }),
    invalid: () => ({
      data: { vehicles: [vehicle('VKL 5521', { arrivalDate: '2027-02-30' }), { vehicleType: 'car' }] },
      errors: [
        { path: '/vehicles/0/arrivalDate', key: 'validation.date', params: { format: 'date' }, message: 'Please enter a valid date (YYYY-MM-DD).' },
        { path: '/vehicles/1/plateNumber', key: 'validation.required', message: 'This field is required.' },
      ],
    }),
  },
  {
    id: 'vip',
    valid: (_files, tag) => ({
      invitations: [
        {
          name: 'Datuk Lim Wei',
          company: 'Lim Holdings Berhad',
          jobTitle: 'Chairman',
          email: `lim.wei.${tag}@lim-holdings.example`,
          mobile: '+60 12-888 1234',
          country: 'MY',
        },
        { name: 'Nguyễn Thị Lan', company: 'Saigon Fine Foods', jobTitle: 'Purchasing Director', email: `lan.${tag}@saigon-fine-foods.example`, country: 'VN' },
      ],
    }),
    invalid: () => ({
      data: {
        invitations: [
          { name: 'Datuk Lim Wei', email: 'Lim.Wei@lim-holdings.example' },
          { name: 'Lim Mei Hua', email: 'lim.wei@lim-holdings.example' },
        ],
      },
      errors: [
        {
          path: '/invitations',
          key: 'validation.uniqueItemProperty',
          params: { property: 'email', value: 'lim.wei@lim-holdings.example' },
          message: 'Emails in this list must be unique: lim.wei@lim-holdings.example appears more than once.',
        },
      ],
    }),
  },
];

const FORM_OF = new Map(FORMS.map((form) => [form.id, form]));
const formOf = (id: string) => FORM_OF.get(id)!;
/** Does the valid submission of this form wait for the organiser? */
const validNeedsApproval = (id: string) => formOf(id).approval?.when === 'always';

/** A multipart body as a browser sends it. */
function multipart(purpose: string, filename: string, bytes: Uint8Array, contentType: string) {
  const boundary = `----portal-forms-${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function uploadFile(app: FastifyInstance, token: string, purpose: string, filename: string, bytes: Uint8Array, contentType: string): Promise<FileReference> {
  const { payload, contentType: type } = multipart(purpose, filename, bytes, contentType);
  const response = await app.inject({ method: 'POST', url: '/oga/uploads', payload, headers: { 'content-type': type, authorization: `Bearer ${token}` } });
  const body = response.json() as { code: number; data: FileReference };
  if (body.code !== 200) throw new Error(`upload of ${filename} failed: ${response.body}`);
  return body.data;
}

/** Real uploads of one exhibitor, so the forms hold references the server made. */
async function uploadAll(app: FastifyInstance, token: string): Promise<Files> {
  return {
    logo: await uploadFile(app, token, 'logo', 'borneo-botanica-logo.jpg', jpegJfif(300), 'image/jpeg'),
    brochure: await uploadFile(app, token, 'brochure', 'brochure 2027.pdf', pdf(), 'application/pdf'),
    productImage: await uploadFile(app, token, 'productImage', 'tualang-honey.jpg', jpegJfif(300), 'image/jpeg'),
    boothDesign: await uploadFile(app, token, 'boothDesign', 'booth-b12.pdf', pdf(), 'application/pdf'),
    passportPhoto: await uploadFile(app, token, 'passportPhoto', 'passport.png', png(), 'image/png'),
  };
}

describe.each(ENGINES)('every form on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  let demoFiles: Files;
  let limitedFiles: Files;
  let demoId: number;
  let limitedId: number;
  /** The participations as the tests start them (S01's profile deadline moved ahead). */
  let original: Map<number, Participation>;
  let counter = 0;
  /** A fresh tag, so that no two submissions share e-mails or names. */
  const tag = () => `t${++counter}`;

  const participationOf = async (account: string) =>
    (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', account).executeTakeFirstOrThrow()).participation_id!;
  const rowOf = (participationId: number, formId: string) =>
    t.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).where('form_id', '=', formId).executeTakeFirst();
  const setFlags = async (participationId: number, flags: Record<string, boolean>) => {
    const current = await t.app.db.selectFrom('participations').select('flags').where('id', '=', participationId).executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('participations')
      .set({ flags: JSON.stringify({ ...current.flags, ...flags }) })
      .where('id', '=', participationId)
      .execute();
  };
  /** The forms that must be submitted first, marked submitted in the database. */
  const satisfyPrerequisites = async (participationId: number, formId: string) => {
    for (const prerequisite of formOf(formId).prerequisites ?? []) {
      await t.app.db
        .insertInto('form_entries')
        .values({ participation_id: participationId, form_id: prerequisite, data: '{}', submitted_data: '{}', status: 'submitted', submitted_at: new Date() })
        .execute();
    }
  };
  const statusInList = async (token: string, formId: string) =>
    ((await get(t.app, '/oga/forms', token)).data as Array<{ id: string; status: string }>).find((f) => f.id === formId)!.status;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser')]);
    [demoId, limitedId] = await Promise.all([participationOf('demo'), participationOf('limited')]);
    // The demo seed's profile deadline has passed; S01 is tested open here (and closed below).
    for (const id of [demoId, limitedId]) await setParticipationDeadline(t.app.db, id, 'profile', new Date(Date.now() + 30 * DAY));
    const rows = await t.app.db.selectFrom('participations').selectAll().where('id', 'in', [demoId, limitedId]).execute();
    original = new Map(rows.map((row) => [row.id, row]));
    demoFiles = await uploadAll(t.app, demo);
    limitedFiles = await uploadAll(t.app, limited);
  });
  afterAll(async () => t?.close());

  // Each test starts from no entries and the participations' flags, deadlines and quotas as seeded.
  beforeEach(async () => {
    await t.app.db.deleteFrom('form_entries').where('participation_id', 'in', [demoId, limitedId]).execute();
    for (const row of original.values()) {
      await t.app.db
        .updateTable('participations')
        .set({ flags: JSON.stringify(row.flags) })
        .where('id', '=', row.id)
        .execute();
      await clearParticipationOverrides(t.app.db, row.id);
      await setParticipationDeadline(t.app.db, row.id, 'profile', new Date(Date.now() + 30 * DAY));
    }
  });

  it('every form of forms.yaml has a case here', () => {
    expect(CASES.map((c) => c.id)).toEqual(FORMS.map((f) => f.id));
  });

  describe.each(CASES)('$id', (form) => {
    const definition = formOf(form.id);

    it('F9 F10 a valid submission is accepted and read back: working copy, submitted copy, time and status', async () => {
      await satisfyPrerequisites(demoId, form.id);
      // Submit-once (tested below) would refuse the later draft change.
      if (definition.submitOnceFlag) await setFlags(demoId, { [definition.submitOnceFlag]: false });
      const data = form.valid(demoFiles, tag());
      const answer = await post(t.app, `/oga/forms/${form.id}/submit`, { data, version: 0 }, demo);
      expect(bodyOf(answer)).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });

      const status = validNeedsApproval(form.id) ? 'pendingApproval' : 'submitted';
      const opened = (await get(t.app, `/oga/forms/${form.id}`, demo)).data;
      expect(opened).toMatchObject({ status, closed: false, missingPrerequisites: [] });
      expect(opened.entry).toEqual({
        data,
        version: 1,
        status: 'submitted',
        submittedData: data,
        submittedAt: expect.stringMatching(ISO),
        approval: validNeedsApproval(form.id) ? { status: 'pending', comment: null, decidedAt: null } : null,
      });
      expect(await statusInList(demo, form.id)).toBe(status);
      const row = await rowOf(demoId, form.id);
      expect(row).toMatchObject({ status: 'submitted', version: 1, data, submitted_data: data });
      expect(row!.submitted_by).toBe(row!.updated_by);

      // F9 F10: a later draft change keeps the submission (its copy, status and decision) and says it is not submitted yet.
      const changed = form.valid(demoFiles, tag());
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: changed, version: 1 }, demo)).data).toEqual({ version: 2 });
      const reopened = (await get(t.app, `/oga/forms/${form.id}`, demo)).data;
      // (a form whose valid data takes no tag gets the same data again: no change to submit)
      expect(reopened).toMatchObject({ status, changesNotSubmitted: JSON.stringify(changed) !== JSON.stringify(data) });
      expect(reopened.entry).toMatchObject({ data: changed, version: 2, status: 'submitted', submittedData: data, submittedAt: opened.entry.submittedAt });
      expect(await statusInList(demo, form.id)).toBe(status);
    });

    it("V1–V8 an invalid submission is refused with each field's coded error and message; nothing is stored", async () => {
      await satisfyPrerequisites(demoId, form.id);
      const draft = form.valid(demoFiles, tag());
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: draft, version: 0 }, demo)).data).toEqual({ version: 1 });
      const { data, errors } = form.invalid(demoFiles);
      const answer = await post(t.app, `/oga/forms/${form.id}/submit`, { data, version: 1 }, demo);
      expect(answer).toMatchObject({ status: 200, code: 601, error: 'validationFailed', msg: VALIDATION_MSG });
      const received = answer.data.errors as Array<{ path: string; key: string; params: Record<string, string | number> }>;
      expect(received.map((e) => `${e.path} ${e.key}`).sort()).toEqual(errors.map((e) => `${e.path} ${e.key}`).sort());
      for (const error of errors) {
        const got = received.find((e) => e.path === error.path && e.key === error.key)!;
        if (error.params) expect(got.params, error.path).toMatchObject(error.params);
        expect(en(got.key, got.params), error.path).toBe(error.message);
      }
      // Nothing stored: the draft is as it was.
      expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data.entry).toEqual({
        data: draft,
        version: 1,
        status: 'draft',
        submittedData: null,
        submittedAt: null,
        approval: null,
      });
      // Without an entry, an invalid submission creates none.
      await satisfyPrerequisites(limitedId, form.id);
      expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data, version: 0 }, limited)).error).toBe('validationFailed');
      expect(await rowOf(limitedId, form.id)).toBeUndefined();
    });

    it('F9 a draft round-trips unchanged, version by version, and is listed as a draft', async () => {
      const first = form.valid(demoFiles, tag());
      expect(bodyOf(await put(t.app, `/oga/forms/${form.id}/draft`, { data: first, version: 0 }, demo))).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });
      expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data).toMatchObject({
        status: 'draft',
        entry: { data: first, version: 1, status: 'draft', submittedData: null, submittedAt: null },
      });
      // A half-filled draft is kept as typed: drafts are not validated beyond their shape.
      const partial = form.invalid(demoFiles).data;
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: partial, version: 1 }, demo)).data).toEqual({ version: 2 });
      expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data.entry).toMatchObject({ data: partial, version: 2, status: 'draft' });
      expect(await statusInList(demo, form.id)).toBe('draft');
      expect(await rowOf(demoId, form.id)).toMatchObject({ data: partial, version: 2, status: 'draft', submitted_data: null });
    });

    it('F9 a save based on an older version is refused, draft or submit, and overwrites nothing', async () => {
      await satisfyPrerequisites(demoId, form.id);
      const first = form.valid(demoFiles, tag());
      const second = form.valid(demoFiles, tag());
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: first, version: 0 }, demo)).data).toEqual({ version: 1 });
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: second, version: 1 }, demo)).data).toEqual({ version: 2 });
      const other = form.valid(demoFiles, tag());
      expect(bodyOf(await put(t.app, `/oga/forms/${form.id}/draft`, { data: other, version: 1 }, demo))).toEqual(STALE);
      expect(bodyOf(await post(t.app, `/oga/forms/${form.id}/submit`, { data: other, version: 1 }, demo))).toEqual(STALE);
      expect(bodyOf(await put(t.app, `/oga/forms/${form.id}/draft`, { data: other, version: 0 }, demo))).toEqual(STALE);
      expect(bodyOf(await post(t.app, `/oga/forms/${form.id}/submit`, { data: other, version: 3 }, demo))).toEqual(STALE);
      expect(await rowOf(demoId, form.id)).toMatchObject({ data: second, version: 2, status: 'draft', submitted_data: null });
    });

    it(`F9 after its deadline (${definition.deadline}) the form is closed: drafts and submissions are refused`, async () => {
      await satisfyPrerequisites(demoId, form.id);
      const draft = form.valid(demoFiles, tag());
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: draft, version: 0 }, demo)).data).toEqual({ version: 1 });
      const passed = new Date(Date.now() - 60_000);
      await setParticipationDeadline(t.app.db, demoId, definition.deadline, passed);

      const opened = (await get(t.app, `/oga/forms/${form.id}`, demo)).data;
      expect(opened).toMatchObject({ status: 'closed', closed: true, deadline: passed.toISOString(), entry: { data: draft, version: 1 } });
      expect(await statusInList(demo, form.id)).toBe('closed');
      expect(bodyOf(await put(t.app, `/oga/forms/${form.id}/draft`, { data: form.valid(demoFiles, tag()), version: 1 }, demo))).toEqual(CLOSED);
      expect(bodyOf(await post(t.app, `/oga/forms/${form.id}/submit`, { data: form.valid(demoFiles, tag()), version: 1 }, demo))).toEqual(CLOSED);
      expect(await rowOf(demoId, form.id)).toMatchObject({ data: draft, version: 1, status: 'draft', submitted_data: null });
      // Another exhibitor's deadline is its own: limited's form stays open.
      expect((await get(t.app, `/oga/forms/${form.id}`, limited)).data.closed).toBe(false);
    });

    if (definition.submitOnceFlag) {
      const flag = definition.submitOnceFlag;
      it(`F9 with ${flag} on, the form is locked after one submission; with it off it can be submitted again`, async () => {
        await satisfyPrerequisites(demoId, form.id);
        await setFlags(demoId, { [flag]: true });
        const data = form.valid(demoFiles, tag());
        expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data, version: 0 }, demo)).data).toEqual({ version: 1 });
        expect(bodyOf(await post(t.app, `/oga/forms/${form.id}/submit`, { data: form.valid(demoFiles, tag()), version: 1 }, demo))).toEqual(SUBMIT_ONCE);
        expect(bodyOf(await put(t.app, `/oga/forms/${form.id}/draft`, { data: form.valid(demoFiles, tag()), version: 1 }, demo))).toEqual(SUBMIT_ONCE);
        expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data).toMatchObject({ locked: true, entry: { data, version: 1, status: 'submitted' } });
        expect(((await get(t.app, '/oga/forms', demo)).data as Array<{ id: string; submitOnce: boolean }>).find((f) => f.id === form.id)!.submitOnce).toBe(true);

        await setFlags(demoId, { [flag]: false });
        expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data.locked).toBe(false);
        const again = form.valid(demoFiles, tag());
        expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: again, version: 1 }, demo)).data).toEqual({ version: 2 });
        expect(await rowOf(demoId, form.id)).toMatchObject({ version: 2, submitted_data: again });
      });
    } else {
      it('F9 it is never submit-once: a second submission replaces the first', async () => {
        await satisfyPrerequisites(demoId, form.id);
        // Every submit-once flag on changes nothing for this form.
        await setFlags(demoId, Object.fromEntries(FORMS.flatMap((f) => (f.submitOnceFlag ? [[f.submitOnceFlag, true]] : []))));
        expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: form.valid(demoFiles, tag()), version: 0 }, demo)).data).toEqual({ version: 1 });
        const again = form.valid(demoFiles, tag());
        expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: again, version: 1 }, demo)).data).toEqual({ version: 2 });
        expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data).toMatchObject({ locked: false, entry: { submittedData: again, version: 2 } });
      });
    }

    it("P5 another exhibitor's entry is never readable or writable", async () => {
      await satisfyPrerequisites(demoId, form.id);
      const demoData = form.valid(demoFiles, tag());
      expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: demoData, version: 0 }, demo)).data).toEqual({ version: 1 });

      // limited sees its own, empty form.
      const seen = (await get(t.app, `/oga/forms/${form.id}`, limited)).data;
      expect(seen.entry).toBeNull();
      expect(seen.status).toBe('notStarted');
      expect(JSON.stringify(seen)).not.toContain(JSON.stringify(demoData).slice(1, 40));
      expect(await statusInList(limited, form.id)).toBe('notStarted');

      // Writing with demo's version does not reach demo's entry: for limited it is stale (or, with
      // demo's files in it, refused because those uploads are not limited's).
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: {}, version: 1 }, limited)).error).toBe('staleVersion');
      expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: demoData, version: 1 }, limited)).error).toMatch(/^(staleVersion|submitFormsFirst|validationFailed)$/);
      // limited's own entry starts at version 1 and leaves demo's as it was.
      const limitedData = form.invalid(limitedFiles).data;
      expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: limitedData, version: 0 }, limited)).data).toEqual({ version: 1 });
      expect((await get(t.app, `/oga/forms/${form.id}`, limited)).data.entry).toMatchObject({ data: limitedData, version: 1 });
      expect((await get(t.app, `/oga/forms/${form.id}`, demo)).data.entry).toMatchObject({ data: demoData, submittedData: demoData, version: 1 });

      // An organiser has no form entries to read or write, and no session reads nothing.
      for (const token of [organiser, undefined]) {
        const code = token ? 403 : 401;
        expect((await get(t.app, `/oga/forms/${form.id}`, token)).code).toBe(code);
        expect((await put(t.app, `/oga/forms/${form.id}/draft`, { data: {}, version: 1 }, token)).code).toBe(code);
        expect((await post(t.app, `/oga/forms/${form.id}/submit`, { data: demoData, version: 1 }, token)).code).toBe(code);
      }
      expect(await rowOf(demoId, form.id)).toMatchObject({ version: 1, data: demoData });
    });
  });

  describe('V7 quotas', () => {
    const badges = (count: number, domain: string, extra: Data = {}) =>
      Array.from({ length: count }, (_, i) =>
        person(['Aisyah', 'Ravi', 'Mei', 'Siti', 'Daniel', 'Farid'][i % 6]!, ['Rahman', 'Kumar', 'Chen'][i % 3]!, `badge${i + 1}.${tag()}@${domain}`, extra),
      );

    it("F5 S04 follows the exhibitor's badge quota as the organiser sets it; badges marked extra do not count", async () => {
      await setParticipationQuota(t.app.db, demoId, 'badges', 2);
      expect((await get(t.app, '/oga/forms/s04', demo)).data.context.quotas).toMatchObject({ badges: 2 });
      const over = await post(t.app, '/oga/forms/s04/submit', { data: { badges: badges(3, 'borneo-botanica.example') }, version: 0 }, demo);
      expect(over).toMatchObject({ code: 601, error: 'validationFailed' });
      expect(over.data.errors).toEqual([{ path: '/badges', key: 'validation.quota', params: { limit: 2, kind: 'badges' } }]);
      expect(en('validation.quota')).toBe('You have already reached your quota limit.');
      expect(await rowOf(demoId, 's04')).toBeUndefined();

      const data = { badges: [...badges(2, 'borneo-botanica.example'), ...badges(2, 'extra.borneo-botanica.example', { extra: true })] };
      expect((await post(t.app, '/oga/forms/s04/submit', { data, version: 0 }, demo)).data).toEqual({ version: 1 });
      // The other exhibitor keeps its own quota of five.
      expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: badges(5, 'kopi-nusantara.example') }, version: 0 }, limited)).data).toEqual({ version: 1 });
    });

    it('F6 S05 contractor badges: up to the contractor badge quota (10 by default), not one more', async () => {
      await satisfyPrerequisites(demoId, 's05');
      await setFlags(demoId, { s05SubmitOnceOnly: false });
      expect((await get(t.app, '/oga/forms/s05', demo)).data.context.quotas).toMatchObject({ contractorBadges: 10 });
      const over = await post(t.app, '/oga/forms/s05/submit', { data: { badges: badges(11, 'klsw.example') }, version: 0 }, demo);
      expect(over).toMatchObject({ code: 601, error: 'validationFailed' });
      expect(over.data.errors).toEqual([{ path: '/badges', key: 'validation.quota', params: { limit: 10, kind: 'contractorBadges' } }]);
      expect(await rowOf(demoId, 's05')).toBeUndefined();
      // S05 has no extra badges: an item marked extra is not part of the form.
      const extra = await post(
        t.app,
        '/oga/forms/s05/submit',
        { data: { badges: [...badges(10, 'klsw.example'), ...badges(1, 'extra.klsw.example', { extra: true })] }, version: 0 },
        demo,
      );
      expect(extra.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/badges/10', key: 'validation.additionalProperties' })]));

      const ten = { badges: badges(10, 'klsw.example') };
      expect((await post(t.app, '/oga/forms/s05/submit', { data: ten, version: 0 }, demo)).data).toEqual({ version: 1 });
      await setParticipationQuota(t.app.db, demoId, 'contractorBadges', 12);
      const twelve = { badges: badges(12, 'klsw.example') };
      expect((await post(t.app, '/oga/forms/s05/submit', { data: twelve, version: 1 }, demo)).data).toEqual({ version: 2 });
    });
  });

  describe('O1 approvals declared in forms.yaml', () => {
    /**
     * Per form with an approval rule: a submission that waits, one changed so that it waits again
     * (default: `waits` again), and (unless always) one that does not. S03's decision is its booth
     * part's (P1 F4): the changed submission changes the booth height.
     */
    const APPROVAL_CASES: Array<{ id: string; waits: (files: Files) => Data; changed?: (files: Files) => Data; plain?: (files: Files) => Data }> = [
      {
        id: 's03',
        waits: (files) => ({ ...CASES[2]!.valid(files, tag()), boothHeight: 3.5 }),
        changed: (files) => ({ ...CASES[2]!.valid(files, tag()), boothHeight: 3.6 }),
        plain: (files) => ({ ...CASES[2]!.valid(files, tag()), boothHeight: 2.44 }),
      },
      {
        id: 's04',
        waits: (files) => ({ badges: [...(CASES[3]!.valid(files, tag()).badges as Data[]), person('Farid', 'Ismail', `farid.${tag()}@borneo-botanica.example`, { extra: true })] }),
        plain: (files) => CASES[3]!.valid(files, tag()),
      },
      { id: 'vip', waits: (files) => CASES[8]!.valid(files, tag()) },
    ];

    it('the cases match the forms that declare an approval', () => {
      expect(APPROVAL_CASES.map((c) => c.id)).toEqual(FORMS.filter((f) => f.approval).map((f) => f.id));
    });

    it.each(APPROVAL_CASES)('$id: waits, is approved, and a new submission waits again with the decision cleared', async ({ id, waits, changed, plain }) => {
      await setFlags(demoId, Object.fromEntries(FORMS.flatMap((f) => (f.submitOnceFlag ? [[f.submitOnceFlag, false]] : []))));
      await satisfyPrerequisites(demoId, id);
      expect((await post(t.app, `/oga/forms/${id}/submit`, { data: waits(demoFiles), version: 0 }, demo)).data).toEqual({ version: 1 });
      expect(await statusInList(demo, id)).toBe('pendingApproval');
      const waiting = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ id: number; formId?: string; formCode: string; exhibitor: string }>;
      const mine = waiting.filter((w) => w.formCode === formOf(id).code && w.exhibitor === 'Borneo Botanica');
      expect(mine).toHaveLength(1);

      expect((await post(t.app, `/oga/approvals/${mine[0]!.id}`, { decision: 'approved', comment: 'Checked by the hall manager.' }, organiser)).code).toBe(200);
      expect(await statusInList(demo, id)).toBe('approved');
      expect((await get(t.app, `/oga/forms/${id}`, demo)).data.entry.approval).toEqual({
        status: 'approved',
        comment: 'Checked by the hall manager.',
        decidedAt: expect.stringMatching(ISO),
      });

      // A changed submission needs a new decision.
      expect((await post(t.app, `/oga/forms/${id}/submit`, { data: (changed ?? waits)(demoFiles), version: 1 }, demo)).data).toEqual({ version: 2 });
      expect((await get(t.app, `/oga/forms/${id}`, demo)).data.entry.approval).toEqual({ status: 'pending', comment: null, decidedAt: null });
      expect(await statusInList(demo, id)).toBe('pendingApproval');

      if (plain) {
        // Below the rule, a submission is simply submitted and nothing waits for the organiser.
        expect((await post(t.app, `/oga/forms/${id}/submit`, { data: plain(demoFiles), version: 2 }, demo)).data).toEqual({ version: 3 });
        expect(await statusInList(demo, id)).toBe('submitted');
        expect((await get(t.app, `/oga/forms/${id}`, demo)).data.entry.approval).toBeNull();
        const after = (await get(t.app, '/oga/approvals', organiser)).data as Array<{ formCode: string; exhibitor: string }>;
        expect(after.filter((w) => w.formCode === formOf(id).code && w.exhibitor === 'Borneo Botanica')).toEqual([]);
      }
    });

    it('forms without an approval rule never wait for the organiser', () => {
      // Checked by every valid submission above: status "submitted" and approval null.
      expect(CASES.filter((c) => !formOf(c.id).approval).map((c) => c.id)).toEqual(['s01', 's02', 's05', 's06', 's07', 's08']);
    });
  });

  // KNOWN GAP (forms module, not this file's to fix): a submission's file reference is checked
  // only by what it claims ({ id, name, size, type, dpi }), not against the uploads table, so a
  // hand-made reference claiming 300 dpi, or another exhibitor's upload id, is accepted. Remove
  // `.skip` once modules/forms checks each reference's id, owner and purpose against `uploads`.
  it('V3 P5 a file reference must be an upload of this exhibitor, with the metadata the server recorded', async () => {
    const forged = {
      ...s01(demoFiles, tag()),
      company: { ...(s01(demoFiles, tag()).company as Data), logo: { id: 'A'.repeat(43), name: 'logo.jpg', size: 2048, type: 'jpeg', dpi: 300 } },
    };
    expect((await post(t.app, '/oga/forms/s01/submit', { data: forged, version: 0 }, demo)).error).toBe('validationFailed');
    const borrowed = { ...s01(limitedFiles, tag()), company: { ...(s01(limitedFiles, tag()).company as Data), logo: demoFiles.logo } };
    expect((await post(t.app, '/oga/forms/s01/submit', { data: borrowed, version: 0 }, limited)).error).toBe('validationFailed');
    const lowDpi = { ...s01(demoFiles, tag()), company: { ...(s01(demoFiles, tag()).company as Data), logo: { ...demoFiles.brochure, type: 'jpeg', dpi: 300 } } };
    expect((await post(t.app, '/oga/forms/s01/submit', { data: lowDpi, version: 0 }, demo)).error).toBe('validationFailed');
  });

  describe('F2 F3 sections and fields behind an exhibitor flag', () => {
    it('S01: a section shown by its flag cannot be left out (an API client sending {} is refused)', async () => {
      const refused = await post(t.app, '/oga/forms/s01/submit', { data: {}, version: 0 }, limited);
      expect(refused).toMatchObject({ code: 601, error: 'validationFailed' });
      expect(refused.data.errors).toEqual([{ path: '', key: 'validation.sectionRequired', params: { section: 'company' } }]);
      expect(await rowOf(limitedId, 's01')).toBeUndefined();
    });

    it('S01: with s01CompanyShow off the company section is refused, the rest accepted', async () => {
      await setFlags(limitedId, { s01CompanyShow: false });
      const full = s01(limitedFiles, tag());
      const refused = await post(t.app, '/oga/forms/s01/submit', { data: full, version: 0 }, limited);
      expect(refused).toMatchObject({ code: 601, error: 'validationFailed' });
      expect(refused.data.errors).toEqual([{ path: '/company', key: 'validation.hidden', params: {} }]);
      expect(en('validation.hidden')).not.toBe('validation.hidden');
      const { company: _company, ...rest } = full;
      expect((await post(t.app, '/oga/forms/s01/submit', { data: rest, version: 0 }, limited)).data).toEqual({ version: 1 });
    });

    it('S01: with profileSecondLanguage off the local-language fields are refused', async () => {
      await setFlags(limitedId, { profileSecondLanguage: false });
      const refused = await post(t.app, '/oga/forms/s01/submit', { data: s01(limitedFiles, tag()), version: 0 }, limited);
      expect(refused.data.errors).toEqual(
        expect.arrayContaining([
          { path: '/company/boothDisplayNameLocal', key: 'validation.hidden', params: {} },
          { path: '/company/descriptionLocal', key: 'validation.hidden', params: {} },
        ]),
      );
      expect(refused.data.errors).toHaveLength(2);
    });

    it('S02: limited (no brand names, no second language) cannot send them; without them its products are accepted', async () => {
      await satisfyPrerequisites(limitedId, 's02');
      const withHidden = { products: [product(limitedFiles, 'Kopi Luwak Arabica')] };
      const refused = await post(t.app, '/oga/forms/s02/submit', { data: withHidden, version: 0 }, limited);
      // brandNameLocal is behind both flags (its error comes twice: once per keyword).
      expect([...new Set(refused.data.errors.map((e: { path: string; key: string }) => `${e.path} ${e.key}`))].sort()).toEqual(
        ['brandName', 'brandNameLocal', 'descriptionLocal', 'productNameLocal'].map((name) => `/products/0/${name} validation.hidden`),
      );
      const plain = {
        products: [
          {
            productName: 'Kopi Luwak Arabica',
            description: 'Single-origin beans from Aceh, medium roast.',
            category: 'beverages',
            image: limitedFiles.productImage,
            newLaunch: false,
          },
        ],
      };
      expect((await post(t.app, '/oga/forms/s02/submit', { data: plain, version: 0 }, limited)).data).toEqual({ version: 1 });
      expect((await get(t.app, '/oga/forms/s02', limited)).data.entry.submittedData).toEqual(plain);
    });
  });
});
