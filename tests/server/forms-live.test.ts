import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashForSchema } from '@rjsf/utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formListOf } from '../../src/engine/forms/form-list';
import { mergePatch } from '../../src/engine/forms/merge-patch';
import { runValidator, validateForm } from '../../src/engine/forms/validator';
import { loadFormRegistry, SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { addParkingForm, PARKING_FORM } from '../support/new-form';
import { bodyOf, createTestApp, ENGINES, eventually, get, login, post, type TestApp } from './helpers';

// The forms are read live from FORMS_DIR. Each test works on a copy of the project's
// schemas/ (and the locales beside it) in a temporary folder: the repository is never written to.

type Json = Record<string, any>;

function copyOfForms(): { root: string; formsDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'portal-live-forms-'));
  const formsDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
  cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
  return { root, formsDir };
}

const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** The S04 schema with the first name limited to `maxLength` characters. */
function s04WithFirstNameLimit(formsDir: string, maxLength: number): Json {
  const schema = readJson(join(formsDir, 'forms', 's04.schema.json'));
  schema.properties.badges.items.properties.firstName.maxLength = maxLength;
  return schema;
}

const badge = (firstName: string) => ({ firstName, lastName: 'Rahman', email: `${firstName.toLowerCase()}@borneo-botanica.example` });

describe.each(ENGINES)('live forms: a changed form file is served without a restart on %s', (engine) => {
  let t: TestApp;
  let root: string;
  let formsDir: string;
  let limited: string;
  let organiser: string;

  beforeAll(async () => {
    ({ root, formsDir } = copyOfForms());
    t = await createTestApp(engine, { formsDir }, { watchForms: true });
    [limited, organiser] = await Promise.all([login(t.app, 'limited'), login(t.app, 'organiser')]);
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });
  // Each test starts from the project's forms, in use.
  afterEach(() => {
    cpSync(join(SCHEMAS_DIR, 'forms'), join(formsDir, 'forms'), { recursive: true });
    expect(t.app.forms.reload('test').problems).toEqual([]);
  });

  /** The version limited's next S04 save is based on. */
  const s04Version = async (): Promise<number> => (await get(t.app, '/oga/forms/s04', limited)).data.entry?.version ?? 0;
  const submitS04 = async (firstName: string) => post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge(firstName)] }, version: await s04Version() }, limited);

  const formsStatus = async () =>
    (await get(t.app, '/oga/organiser/forms', organiser)).data as { version: string; refused: { problems: Array<{ file: string; path: string; message: string }> } | null };

  it('a valid change is picked up while the server runs: the form served and the server validation follow it', async () => {
    const before = (await get(t.app, '/oga/forms/s04', limited)).data;
    expect(before.schema.properties.badges.items.properties.firstName.maxLength).toBe(100);
    writeJson(join(formsDir, 'forms', 's04.schema.json'), s04WithFirstNameLimit(formsDir, 5));

    const after = await eventually(
      async () => (await get(t.app, '/oga/forms/s04', limited)).data,
      (payload) => payload.formsVersion !== before.formsVersion,
    );
    expect(after.schema.properties.badges.items.properties.firstName.maxLength).toBe(5);
    // A new schema has its own validator module.
    expect(after.validator.url).not.toBe(before.validator.url);
    expect((await formsStatus()).version).toBe(after.formsVersion);

    const refused = await submitS04('Aisyahx');
    expect(refused.error).toBe('validationFailed');
    expect(refused.data.errors).toEqual([expect.objectContaining({ path: '/badges/0/firstName', key: 'validation.maxLength' })]);
    expect((await submitS04('Ayu')).code).toBe(200);
  });

  it('an invalid change is refused whole: the forms in use keep answering, and the organiser sees each problem', async () => {
    const before = (await get(t.app, '/oga/forms/s04', limited)).data;
    // Two files change together: a valid S04 change and a misspelt keyword in S05.
    writeJson(join(formsDir, 'forms', 's04.schema.json'), s04WithFirstNameLimit(formsDir, 5));
    const s05 = readJson(join(formsDir, 'forms', 's05.schema.json'));
    s05.maxLenght = 3;
    writeJson(join(formsDir, 'forms', 's05.schema.json'), s05);

    const status = await eventually(formsStatus, (value) => value.refused !== null);
    expect(status.version).toBe(before.formsVersion);
    expect(status.refused!.problems).toEqual([expect.objectContaining({ file: 'forms/s05.schema.json', message: expect.stringContaining('maxLenght') })]);

    // Nothing of the change is in use, not even the valid half.
    const still = (await get(t.app, '/oga/forms/s04', limited)).data;
    expect(still.formsVersion).toBe(before.formsVersion);
    expect(still.schema.properties.badges.items.properties.firstName.maxLength).toBe(100);
    expect((await submitS04('Aisyahx')).code).toBe(200);
    // The validator the browser loads still exists.
    expect((await t.app.inject({ method: 'GET', url: still.validator.url, headers: { authorization: `Bearer ${limited}` } })).statusCode).toBe(200);

    // Fixed: the whole change goes in, and the refusal is gone.
    delete s05.maxLenght;
    writeJson(join(formsDir, 'forms', 's05.schema.json'), s05);
    const fixed = await eventually(formsStatus, (value) => value.refused === null && value.version !== before.formsVersion);
    expect((await get(t.app, '/oga/forms/s04', limited)).data.formsVersion).toBe(fixed.version);
  });

  it('F11 a typo in forms.yaml (aproval:) refuses the whole set with its path; the valid change beside it waits too', async () => {
    const before = (await get(t.app, '/oga/forms/s04', limited)).data;
    writeJson(join(formsDir, 'forms', 's04.schema.json'), s04WithFirstNameLimit(formsDir, 5));
    const listFile = join(formsDir, 'forms', 'forms.yaml');
    const list = readFileSync(listFile, 'utf8');
    expect(list).toContain('    approval: { when: always }');
    writeFileSync(listFile, list.replace('    approval: { when: always }', '    aproval: { when: always }'));

    const status = await eventually(formsStatus, (value) => value.refused !== null);
    const vip = formListOf(list).forms.findIndex((form) => form.id === 'vip');
    expect(status.refused!.problems).toEqual([{ file: 'forms/forms.yaml', path: `/forms/${vip}/aproval`, message: 'unknown key "aproval"' }]);
    expect(status.version).toBe(before.formsVersion);
    // The VIP list still waits for the organiser and S04 still takes long first names: nothing of the change is in use.
    expect(t.app.forms.current().find('vip')?.approval).toEqual({ when: 'always' });
    expect((await submitS04('Aisyahx')).code).toBe(200);
  });

  it('a submit during a reload is validated with one form set from start to end', async () => {
    // The change is on disk; the reload happens right after the submit has taken its form set.
    writeJson(join(formsDir, 'forms', 's04.schema.json'), s04WithFirstNameLimit(formsDir, 5));
    const before = t.app.forms.current().version;
    const version = await s04Version();
    const current = t.app.forms.current;
    let reloaded = false;
    t.app.forms.current = () => {
      const set = current();
      if (!reloaded) {
        reloaded = true;
        expect(t.app.forms.reload('test').changed).toBe(true);
      }
      return set;
    };
    try {
      // Valid under the set it started with (first names up to 100 characters), though not under the new one.
      expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge('Aisyahx')] }, version }, limited)).code).toBe(200);
    } finally {
      t.app.forms.current = current;
    }
    expect(reloaded).toBe(true);
    expect(t.app.forms.current().version).not.toBe(before);
    expect((await submitS04('Aisyahx')).error).toBe('validationFailed');
  });

  it('P1 F4 a submit during a reload decides the parts it sends by the same form set it validates with', async () => {
    // The new set gives the contractor type a default: a contractor part holding only that value is
    // no entry there. Under the set the submit started with, it is an entry: the contractor's part
    // is sent, and refused for the contractor it lacks.
    const schema = readJson(join(formsDir, 'forms', 's03.schema.json'));
    schema.properties.contractorType.default = 'contractor';
    const data = { contractorType: 'contractor', boothHeight: 2.3 };
    const version = (await get(t.app, '/oga/forms/s03', limited)).data.entry?.version ?? 0;
    const current = t.app.forms.current;
    let reloaded = false;
    // The change is written and swapped in right after the submit has taken its form set (written
    // here, not before, so that the file watcher cannot swap it in earlier).
    t.app.forms.current = () => {
      const set = current();
      if (!reloaded) {
        reloaded = true;
        writeJson(join(formsDir, 'forms', 's03.schema.json'), schema);
        expect(t.app.forms.reload('test').changed).toBe(true);
      }
      return set;
    };
    try {
      const refused = await post(t.app, '/oga/forms/s03/submit', { data, version }, limited);
      expect(refused.error).toBe('validationFailed');
      expect((refused.data as { errors: Array<{ path: string }> }).errors.map((error) => error.path)).toContain('/contractor');
    } finally {
      t.app.forms.current = current;
    }
    expect(reloaded).toBe(true);
    // Under the new set the same submission sends the booth alone.
    expect((await post(t.app, '/oga/forms/s03/submit', { data, version }, limited)).code).toBe(200);
  });

  it('the organiser reloads from the forms page; exhibitors may not', async () => {
    writeJson(join(formsDir, 'forms', 's04.schema.json'), s04WithFirstNameLimit(formsDir, 7));
    const answer = bodyOf(await post(t.app, '/oga/organiser/forms/reload', {}, organiser));
    expect(answer.data).toMatchObject({ status: { refused: null } });
    expect((await get(t.app, '/oga/forms/s04', limited)).data.schema.properties.badges.items.properties.firstName.maxLength).toBe(7);
    expect((await post(t.app, '/oga/organiser/forms/reload', {}, limited)).code).toBe(403);
  });

  it('CT3 search finds a form by its title as the reloaded form set has it, without a restart', async () => {
    const word = 'Zephyrpass';
    const search = async () => (await get(t.app, '/oga/search', limited, { query: { keyword: word } })).data as { items: Array<{ kind: string; id: string; title: string }> };
    expect((await search()).items).toEqual([]);
    const stringsFile = join(root, 'locales', 'en.json');
    const original = readFileSync(stringsFile, 'utf8');
    try {
      const strings = JSON.parse(original) as Json;
      strings.forms.s04.title = `${word} badges`;
      writeJson(stringsFile, strings);
      t.app.forms.reload('test');
      expect((await search()).items).toContainEqual(expect.objectContaining({ kind: 'form', id: 's04', title: `S04 ${word} badges` }));
    } finally {
      writeFileSync(stringsFile, original);
    }
    // Back to the project's title: the changed one is found no more.
    t.app.forms.reload('test');
    expect((await search()).items).toEqual([]);
  });
});

/** Data each served validator must judge exactly as a validator compiled at run time does. */
const CONTEXT = { flags: { s01CompanyShow: true, s01ContactShow: true }, quotas: { badges: 2, contractorBadges: 2 } };
const SAMPLES: Record<string, unknown[]> = {
  s04: [
    { badges: [] },
    { badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'a@x.example' }] },
    {
      badges: [
        { firstName: 'A1', lastName: 'R', email: 'ａ@x.example' },
        { firstName: 'B', lastName: 'C', email: 'ａ@x.example' },
        { firstName: 'D', lastName: 'E', email: 'd@x.example' },
      ],
    },
  ],
  s01: [{}, { company: { companyName: 'Borneo Botanica', website: 'not a url' } }, { goals: { categories: ['company'] } }],
};

describe('served validators', () => {
  const forms = loadFormRegistry();
  const cases = forms.definitions.flatMap((definition) =>
    [[definition.id, ''] as const, ['AFHE2027', definition.id] as const].map(([a, b]) => (b === '' ? { id: a, event: '' } : { id: b, event: a })),
  );

  it.each(cases)('$id ($event): the served validator agrees with one compiled at run time', ({ id, event }) => {
    const served = forms.validatorFor(id, event);
    const validate = served.validators[served.rootKey]!;
    for (const data of SAMPLES[id] ?? [{}, { unexpected: true }]) {
      expect(runValidator(validate, () => validate.errors, data, CONTEXT)).toEqual(validateForm(forms.filesFor(id, event).schema, data, CONTEXT, forms.uploads));
    }
  });

  it('V1 V7 the served S04 validator reports the spec messages', () => {
    const served = forms.validatorFor('s04', '');
    const validate = served.validators[served.rootKey]!;
    const keys = runValidator(validate, () => validate.errors, SAMPLES.s04![2], CONTEXT).map((e) => e.key);
    expect(keys).toEqual(expect.arrayContaining(['validation.noFullWidth', 'validation.uniqueItemProperty', 'validation.quota', 'validation.realName']));
  });

  let root: string;
  let formsDir: string;
  beforeAll(() => ({ root, formsDir } = copyOfForms()));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a schema whose hash is an identifier (exported as `exports.<hash>`) compiles and validates', () => {
    // The case: S04 for one event without lastName (removed from properties, required and
    // ui:order). A comment varies until rjsf's hash of the schema is an identifier.
    const base = readJson(join(formsDir, 'forms', 's04.schema.json'));
    const ui = readJson(join(formsDir, 'forms', 's04.ui.json'));
    const required = (base.properties.badges.items.required as string[]).filter((name) => name !== 'lastName');
    const order = ((ui.badges?.items?.['ui:order'] as string[] | undefined) ?? []).filter((name) => name !== 'lastName');
    let patch: Json | undefined;
    for (let variant = 1; variant < 20_000 && !patch; variant++) {
      const candidate = {
        schema: { $comment: `AFHE2027 badges without a last name (${variant})`, properties: { badges: { items: { required, properties: { lastName: null } } } } },
      };
      if (/^[a-z_$][\w$]*$/i.test(hashForSchema(mergePatch(base, candidate.schema) as Json))) patch = candidate;
    }
    expect(patch).toBeDefined();
    if (order.length > 0) patch!.ui = { badges: { items: { 'ui:order': order } } };
    mkdirSync(join(formsDir, 'events', 'AFHE2027'), { recursive: true });
    writeJson(join(formsDir, 'events', 'AFHE2027', 's04.patch.json'), patch);

    const forms = loadFormRegistry(formsDir);
    const served = forms.validatorFor('s04', 'AFHE2027');
    expect(served.module).toContain(`exports.${served.rootKey} =`);
    const validate = served.validators[served.rootKey]!;
    expect(validate({ badges: [{ firstName: 'Aisyah', email: 'aisyah@borneo-botanica.example' }] })).toBe(true);
    expect(validate({ badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'aisyah@borneo-botanica.example' }] })).toBe(false);
    // The other events keep the base form.
    expect(forms.validatorFor('s04', 'AFHE2026').rootKey).toBe(hashForSchema(base));
  });
});

describe.each(ENGINES)('validator modules on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('the browser loads a form validator as a same-origin ES module, cacheable for good', async () => {
    const limited = await login(t.app, 'limited');
    const { validator } = (await get(t.app, '/oga/forms/s04', limited)).data;
    expect(validator.url).toMatch(/^\/oga\/forms\/validators\/[0-9a-f]{20}\.js$/);
    // A module import carries no bearer token: the module is public (a schema, no one's data).
    const answer = await t.app.inject({ method: 'GET', url: validator.url });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers['cache-control']).toContain('immutable');
    expect(answer.body).toMatch(/^export default function formValidators\(require\)/);
    expect(answer.body).not.toMatch(/\bimport\b/);
    expect((await t.app.inject({ method: 'GET', url: '/oga/forms/validators/0123456789abcdef0123.js' })).statusCode).toBe(404);
  });
});

describe.each(ENGINES)('a whole new form, and its screen, while the portal runs on %s', (engine) => {
  let t: TestApp;
  let root: string;
  let formsDir: string;
  let demo: string;
  let organiser: string;

  beforeAll(async () => {
    ({ root, formsDir } = copyOfForms());
    cpSync(join(SCHEMAS_DIR, '..', 'screens.yaml'), join(root, 'screens.yaml'));
    t = await createTestApp(engine, { formsDir }, { watchForms: true });
    [demo, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'organiser')]);
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is served with its screen and title, listed to exhibitors, and validated by the server', async () => {
    const before = (await get(t.app, '/oga/catalogue')).data as { version: string; screens: Array<{ id: string }> };
    expect(before.screens.map((screen) => screen.id)).not.toContain('parkingPass');
    addParkingForm(root);

    const catalogue = await eventually(
      async () =>
        (await t.app.inject({ method: 'GET', url: '/oga/catalogue', headers: { language: 'ja' } })).json().data as {
          version: string;
          screens: Array<Record<string, unknown>>;
          strings: Record<string, Record<string, string>>;
        },
      (answer) => answer.version !== before.version,
    );
    expect(catalogue.screens.find((screen) => screen.id === 'parkingPass')).toMatchObject({ path: '/myParticipation/parkingPass', form: 's09' });
    expect(catalogue.strings.ja?.['forms.s09.title']).toBe(PARKING_FORM.strings.ja!.title);

    const listed = (await get(t.app, '/oga/forms', demo)).data as Array<{ id: string; screen: string | null }>;
    expect(listed.find((form) => form.id === 's09')).toMatchObject({ screen: 'parkingPass' });
    const form = (await get(t.app, '/oga/forms/s09', demo)).data as { schema: Json; strings: Record<string, Json> };
    expect(form.schema.properties.plate.maxLength).toBe(10);
    expect(form.strings.en).toMatchObject({ plate: PARKING_FORM.strings.en!.plate });

    const refused = await post(t.app, '/oga/forms/s09/submit', { data: { plate: 'WXY 1234 ABC' }, version: 0 }, demo);
    expect(refused.error).toBe('validationFailed');
    expect(refused.data.errors).toEqual([expect.objectContaining({ path: '/plate', key: 'validation.maxLength' })]);
    const submitted = await post(t.app, '/oga/forms/s09/submit', { data: { plate: 'WXY 1234' }, version: 0 }, demo);
    expect(bodyOf(submitted)).toMatchObject({ code: 200 });
  });

  it('a screens.yaml that drops a screen the build relies on, or names a page it lacks, is refused whole with its path', async () => {
    const file = join(root, 'screens.yaml');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('page: leads/LeadListPage', 'page: leads/LeadWallPage').replace(/\n {2}- id: faq\n( {4}.*\n)+?(?= {2}- id: )/, '\n'));
    try {
      const result = t.app.forms.reload('test');
      expect(result.changed).toBe(false);
      const problems = ((await get(t.app, '/oga/organiser/forms', organiser)).data as { refused: { problems: Array<{ file: string; path: string; message: string }> } }).refused
        .problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: '../screens.yaml', message: expect.stringContaining('page "leads/LeadWallPage" does not exist in this build') }),
          expect.objectContaining({ file: '../screens.yaml', path: '$.screens', message: expect.stringContaining('"faq"') }),
        ]),
      );
      // The screens in use keep answering.
      expect(((await get(t.app, '/oga/catalogue')).data as { screens: Array<{ id: string }> }).screens.map((screen) => screen.id)).toContain('faq');
    } finally {
      writeFileSync(file, good);
      expect(t.app.forms.reload('test').problems).toEqual([]);
    }
  });
});
