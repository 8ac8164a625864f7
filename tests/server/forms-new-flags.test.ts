import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFormSet, SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { addParkingForm, PARKING_FORM } from '../support/new-form';
import { createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// Spec §3, H2, O2: a new submit-once form needs no TypeScript. A copy of the project's forms gets
// S09 (tests/support/new-form.ts) with its own submit-once flag and its own deadline, declared in
// forms.yaml only: the organiser may set both, the exhibitor's account info and forms list show
// them, and the second submission is refused.

const DEADLINE_TITLES: Record<string, string> = { en: 'Parking passes', cn: '停车证', ja: '駐車許可証', vi: 'Thẻ đỗ xe' };
const DUE = '2027-01-20T09:00:00.000Z';

function formsWithParking(): { root: string; formsDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'portal-new-flags-'));
  const formsDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
  cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
  cpSync(join(SCHEMAS_DIR, '..', 'screens.yaml'), join(root, 'screens.yaml'));
  addParkingForm(root);
  for (const [language, title] of Object.entries(DEADLINE_TITLES)) {
    const file = join(root, 'locales', `${language}.json`);
    const table = JSON.parse(readFileSync(file, 'utf8'));
    table.forms.s09.deadline = title;
    writeFileSync(file, JSON.stringify(table, null, 2));
  }
  const list = join(formsDir, 'forms', 'forms.yaml');
  const text = readFileSync(list, 'utf8')
    .replace('\ndeadlines:\n', '\ndeadlines:\n  parking: { title: forms.s09.deadline }\n')
    .replace(/(- id: s09\n(?: {4}.*\n)*? {4})deadline: booth\n {4}submitOnceFlag: null\n/, '$1deadline: parking\n    submitOnceFlag: s09SubmitOnceOnly\n');
  expect(text).toContain('submitOnceFlag: s09SubmitOnceOnly');
  writeFileSync(list, text);
  return { root, formsDir };
}

const exhibitor = {
  code: 'PRK1',
  name: 'Parkway Trading',
  legalName: 'Parkway Trading Sdn Bhd',
  boothNum: 'Hall 9 · P1',
  logoUrl: '',
  account: 'prk1.main',
  email: 'prk1@parkway.example',
  contactName: 'Siti Aminah',
  modules: ['Forms', 'Support'],
  flags: { eventShow: true, s09SubmitOnceOnly: true },
  quotas: {},
  deadlines: { parking: DUE },
};

describe.each(ENGINES)('a new submit-once form declared in forms.yaml only (%s)', (engine) => {
  let t: TestApp;
  let root: string;
  let organiser: string;
  let parkway: string;

  beforeAll(async () => {
    let formsDir: string;
    ({ root, formsDir } = formsWithParking());
    t = await createTestApp(engine, { formsDir, publicUrl: 'http://portal.test' });
    organiser = await login(t.app, 'organiser');
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the organiser sets its flag and deadline; account info and the forms list show them; a second submission is refused', async () => {
    const vocabulary = (await get(t.app, '/oga/organiser/vocabulary', organiser)).data;
    expect(vocabulary.flagGroups.submitOnce).toContain('s09SubmitOnceOnly');
    expect(vocabulary.flags).toContain('s09SubmitOnceOnly');
    expect(vocabulary.deadlineNames).toContain('parking');

    const created = await post(t.app, '/oga/organiser/exhibitors', exhibitor, organiser);
    expect(created, JSON.stringify(created)).toMatchObject({ code: 200 });
    const id = created.data.id as number;
    expect((await post(t.app, `/oga/organiser/exhibitors/${id}/activation`, { language: 'en' }, organiser)).code).toBe(200);
    const mail = await t.app.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', exhibitor.email).executeTakeFirstOrThrow();
    const token = mail.text_body.match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1]!;
    expect((await post(t.app, '/oga/auth/password/reset', { token, password: 'Exhibitor-pass-2027', confirmPassword: 'Exhibitor-pass-2027' })).code).toBe(200);
    parkway = await login(t.app, exhibitor.account, 'Exhibitor-pass-2027');

    const account = (await get(t.app, '/oga/system/project/exhibirotCode', parkway)).data;
    expect(account).toMatchObject({ s09SubmitOnceOnly: true, s01SubmitOnceOnly: false, parkingDlinedate: DUE });
    expect(account.deadlines).toContainEqual({ name: 'parking', title: 'forms.s09.deadline', dueAt: DUE });

    const listed = ((await get(t.app, '/oga/forms', parkway)).data as Array<{ id: string; submitOnce: boolean; deadline: string | null }>).find(
      (form) => form.id === PARKING_FORM.id,
    );
    expect(listed).toMatchObject({ submitOnce: true, deadline: DUE });

    const data = { plate: 'WXY 1234' };
    expect((await post(t.app, '/oga/forms/s09/submit', { data, version: 0 }, parkway)).data).toEqual({ version: 1 });
    expect(await post(t.app, '/oga/forms/s09/submit', { data, version: 1 }, parkway)).toMatchObject({ code: 601, error: 'submitOnce' });
  });
});

describe("spec §3: a flag a form's schema names is one its forms.yaml entry declares", () => {
  it("refuses the form set at the schema's pointer until forms.yaml declares it", () => {
    const { root, formsDir } = formsWithParking();
    try {
      const schemaFile = join(formsDir, 'forms', 's09.schema.json');
      const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
      // A field behind a flag is never required.
      schema.properties.plate.showIf = 'parkingPlateShow';
      schema.required = [];
      writeFileSync(schemaFile, JSON.stringify(schema));
      expect(readFormSet(formsDir).problems).toContainEqual({
        file: 'forms/s09.schema.json',
        path: '/properties/plate/showIf',
        message: 'the flag "parkingPlateShow" is not among the form\'s sectionFlags in forms.yaml',
      });
      // Declared, the same schema is accepted and the organiser may set the flag.
      const list = join(formsDir, 'forms', 'forms.yaml');
      writeFileSync(list, readFileSync(list, 'utf8').replace('submitOnceFlag: s09SubmitOnceOnly\n', 'submitOnceFlag: s09SubmitOnceOnly\n    sectionFlags: [parkingPlateShow]\n'));
      expect(readFormSet(formsDir).problems).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
