import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadFormRegistry, SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { bodyOf, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';
import { effectiveDeadline, setParticipationDeadline } from '../support/settings';
import { FORM_LIST_FILE, formListOf } from '../../src/engine/forms/form-list';

// F1 forms list, F9 drafts / submit / submit-once / deadlines, F10 detail, V1 + V7 on the
// server's validation of S04, P5 isolation between exhibitors, F11 event patches in the registry.

const FORMS = formListOf(readFileSync(join(SCHEMAS_DIR, FORM_LIST_FILE), 'utf8')).forms;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' };
const SUBMIT_ONCE_MSG = 'This form is set to be submitted once only (contact support).';
const DEADLINE_MSG = 'The submission is now closed as the deadline has passed.';

let unique = 0;
/** A badge with an e-mail no other test uses. */
function badge(tag: string, extra: Record<string, unknown> = {}) {
  unique += 1;
  return { firstName: 'Aisyah', lastName: 'Rahman', email: `${tag}-${unique}@borneo-botanica.example`, ...extra };
}
const badges = (tag: string, count: number) => Array.from({ length: count }, () => badge(tag));

/** Valid S03 data (contractor, not a stand builder: no green card needed). */
function s03Data(tag: string) {
  unique += 1;
  return {
    contractor: { company: `Stand Works ${tag} ${unique}`, email: `ops-${tag}-${unique}@stand-works.example`, contactPerson: 'Rina Abdullah' },
    contractorType: 'contractor',
  };
}

describe.each(ENGINES)('F1 F9 F10 forms on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;
  let organiser: string;
  const participationOf = async (login: string) =>
    (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', login).executeTakeFirstOrThrow()).participation_id!;
  const entryOf = (participationId: number, formId: string) =>
    t.app.db.selectFrom('form_entries').selectAll().where('participation_id', '=', participationId).where('form_id', '=', formId).executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited, organiser] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited'), login(t.app, 'organiser')]);
  });
  afterAll(async () => t?.close());
  // Every test starts from accounts that have filled in nothing, so none depends on another.
  beforeEach(async () => {
    await t.app.db.deleteFrom('form_entries').execute();
  });

  it('F1 the list has every form of forms.yaml with code, mandatory flag, ISO deadline and status', async () => {
    const answer = await get(t.app, '/oga/forms', demo);
    expect(answer.code).toBe(200);
    const participationId = await participationOf('demo');
    expect(answer.data.map((f: { id: string }) => f.id)).toEqual(FORMS.map((f) => f.id));
    for (const [index, form] of FORMS.entries()) {
      const listed = answer.data[index];
      expect(listed, form.id).toMatchObject({ id: form.id, code: form.code, mandatory: form.mandatory, submittedAt: null });
      expect(listed.deadline, form.id).toMatch(ISO);
      expect(listed.deadline, form.id).toBe((await effectiveDeadline(t.app.db, participationId, form.deadline))!.toISOString());
      // S01 closes with the profile deadline, which has passed; every other form is open.
      expect(listed.status, form.id).toBe(form.id === 's01' ? 'closed' : 'notStarted');
      expect(listed.submitOnce, form.id).toBe(form.id === 's03' || form.id === 's05');
      expect(listed.missingPrerequisites, form.id).toEqual((form.prerequisites ?? []).map((id) => id.toUpperCase()));
    }
    expect(answer.data.find((f: { id: string }) => f.id === 's02').missingPrerequisites).toEqual(['S01']);
  });

  it('F1 S02 stops missing S01 once S01 is submitted', async () => {
    const s02 = async () => (await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's02');
    expect((await s02()).missingPrerequisites).toEqual(['S01']);
    // S01's deadline has passed, so it is submitted directly in the database.
    const submittedAt = new Date();
    await t.app.db
      .insertInto('form_entries')
      .values({ participation_id: await participationOf('demo'), form_id: 's01', data: JSON.stringify({}), status: 'submitted', submitted_at: submittedAt })
      .execute();
    expect((await s02()).missingPrerequisites).toEqual([]);
    const s01 = (await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's01');
    expect(s01).toMatchObject({ status: 'submitted', submittedAt: submittedAt.toISOString() });
    expect((await get(t.app, '/oga/forms/s02', demo)).data.missingPrerequisites).toEqual([]);
  });

  it('F10 one form answers its definition, schema, UI schema, context and no entry yet', async () => {
    const answer = await get(t.app, '/oga/forms/s04', demo);
    expect(answer.code).toBe(200);
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', 's04.schema.json'), 'utf8'));
    expect(answer.data).toMatchObject({
      definition: { id: 's04', code: 'S04', mandatory: true, deadline: 'badges' },
      schema,
      context: { quotas: { badges: 5 } },
      status: 'notStarted',
      locked: false,
      closed: false,
      missingPrerequisites: [],
      entry: null,
    });
    expect(answer.data.deadline).toMatch(ISO);
    expect(answer.data.ui).toEqual(JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', 's04.ui.json'), 'utf8')));
    const s01 = await get(t.app, '/oga/forms/s01', demo);
    expect(s01.data).toMatchObject({ status: 'closed', closed: true });
  });

  it('F9 a draft is saved with versions; a stale version is refused and overwrites nothing', async () => {
    const first = { badges: [badge('draft-v1')] };
    const saved = await put(t.app, '/oga/forms/s04/draft', { data: first, version: 0 }, demo);
    expect(bodyOf(saved)).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });

    const opened = await get(t.app, '/oga/forms/s04', demo);
    expect(opened.data.status).toBe('draft');
    expect(opened.data.entry).toEqual({ data: first, version: 1, status: 'draft', submittedData: null, submittedAt: null, approval: null });
    expect((await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's04').status).toBe('draft');

    const second = { badges: [badge('draft-v2'), badge('draft-v2')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: second, version: 1 }, demo)).data).toEqual({ version: 2 });

    const stale = await put(t.app, '/oga/forms/s04/draft', { data: { badges: [badge('draft-stale')] }, version: 1 }, demo);
    expect(stale.status).toBe(200);
    expect(stale).toMatchObject({ code: 601, error: 'staleVersion', data: null });
    // Starting afresh (version 0) when an entry exists is stale too.
    expect((await put(t.app, '/oga/forms/s04/draft', { data: { badges: [] }, version: 0 }, demo)).error).toBe('staleVersion');
    // A stale submit is refused the same way.
    expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge('submit-stale')] }, version: 1 }, demo)).error).toBe('staleVersion');

    expect((await get(t.app, '/oga/forms/s04', demo)).data.entry).toMatchObject({ data: second, version: 2, status: 'draft' });
    const row = await entryOf(await participationOf('demo'), 's04');
    expect(row).toMatchObject({ version: 2, status: 'draft', data: second });
  });

  it('F9 a draft is not validated beyond its shape', async () => {
    const incomplete = { badges: [{ lastName: 'Tan', email: 'not-an-email' }] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: incomplete, version: 0 }, demo)).data).toEqual({ version: 1 });
    expect((await get(t.app, '/oga/forms/s04', demo)).data.entry.data).toEqual(incomplete);
    // The body itself is checked: data must be an object and version is required.
    expect(await put(t.app, '/oga/forms/s04/draft', { data: 'text', version: 1 }, demo)).toMatchObject({ status: 400, code: 601, error: 'badRequest' });
    expect(await put(t.app, '/oga/forms/s04/draft', { data: {} }, demo)).toMatchObject({ status: 400, code: 601, error: 'badRequest' });
  });

  it('F9 a draft survives logging out and in again', async () => {
    const session = await login(t.app, 'demo');
    const data = { badges: [badge('logout')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data, version: 0 }, session)).data).toEqual({ version: 1 });
    expect((await post(t.app, '/oga/auth/logout', undefined, session)).code).toBe(200);
    expect((await get(t.app, '/oga/forms/s04', session)).error).toBe('invalidSession');
    const again = await login(t.app, 'demo');
    expect((await get(t.app, '/oga/forms/s04', again)).data.entry).toEqual({ data, version: 1, status: 'draft', submittedData: null, submittedAt: null, approval: null });
  });

  it('F9 V1 an invalid submit answers each field error and stores nothing', async () => {
    const draft = { badges: [badge('invalid-draft')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: draft, version: 0 }, demo)).data).toEqual({ version: 1 });
    const duplicate = badge('invalid-dup');
    const invalid = {
      badges: [
        duplicate,
        { ...badge('invalid-dup'), email: duplicate.email.toUpperCase() },
        { ...badge('invalid-fw'), email: 'ａｉｓｙａｈ@borneo-botanica.example' },
        { lastName: 'Tan', email: `no-first-name-${unique}@borneo-botanica.example` },
      ],
    };
    const answer = await post(t.app, '/oga/forms/s04/submit', { data: invalid, version: 1 }, demo);
    expect(answer).toMatchObject({ status: 200, code: 601, error: 'validationFailed', msg: 'Some fields need your attention.' });
    expect(answer.data.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/badges', key: 'validation.uniqueItemProperty' }),
        expect.objectContaining({ path: '/badges/2/email', key: 'validation.noFullWidth' }),
        expect.objectContaining({ path: '/badges/3/firstName', key: 'validation.required' }),
      ]),
    );
    expect(answer.data.errors.find((e: { key: string }) => e.key === 'validation.uniqueItemProperty').params).toMatchObject({ property: 'email' });
    // Nothing stored: the draft is as it was.
    expect((await get(t.app, '/oga/forms/s04', demo)).data.entry).toEqual({ data: draft, version: 1, status: 'draft', submittedData: null, submittedAt: null, approval: null });
    // Without a draft, an invalid submit creates no entry.
    const limitedAnswer = await post(t.app, '/oga/forms/s04/submit', { data: invalid, version: 0 }, limited);
    expect(limitedAnswer.error).toBe('validationFailed');
    expect(await entryOf(await participationOf('limited'), 's04')).toBeUndefined();
  });

  it('V7 six badges exceed the quota of five', async () => {
    const answer = await post(t.app, '/oga/forms/s04/submit', { data: { badges: badges('quota', 6) }, version: 0 }, demo);
    expect(answer).toMatchObject({ code: 601, error: 'validationFailed' });
    expect(answer.data.errors).toEqual([{ path: '/badges', key: 'validation.quota', params: { limit: 5, kind: 'badges' } }]);
    expect(await entryOf(await participationOf('demo'), 's04')).toBeUndefined();
  });

  it('F5 V7 five badges and one marked extra are accepted', async () => {
    const data = { badges: [...badges('extra', 5), badge('extra', { extra: true })] };
    const answer = await post(t.app, '/oga/forms/s04/submit', { data, version: 0 }, demo);
    expect(bodyOf(answer)).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });
    expect((await get(t.app, '/oga/forms/s04', demo)).data.entry).toMatchObject({ data, version: 1, status: 'submitted' });
  });

  it('F9 F10 a valid submit is stored as submitted and listed so', async () => {
    const draft = { badges: [badge('valid-draft')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: draft, version: 0 }, demo)).data).toEqual({ version: 1 });
    const data = { badges: [badge('valid', { middleName: 'binti', lastNameFirst: true, companyOnBadge: 'Borneo Botanica', gender: 'female' }), badge('valid')] };
    const answer = await post(t.app, '/oga/forms/s04/submit', { data, version: 1 }, demo);
    expect(bodyOf(answer)).toEqual({ code: 200, msg: 'ok', data: { version: 2 } });

    const opened = await get(t.app, '/oga/forms/s04', demo);
    expect(opened.data.status).toBe('submitted');
    expect(opened.data.locked).toBe(false);
    expect(opened.data.entry).toMatchObject({ data, version: 2, status: 'submitted' });
    expect(opened.data.entry.submittedAt).toMatch(ISO);
    const listed = (await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's04');
    expect(listed).toMatchObject({ status: 'submitted', submittedAt: opened.data.entry.submittedAt });
    // S07 needs S04 first: no longer missing.
    expect((await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's07').missingPrerequisites).toEqual([]);
    // S04 is not submit-once for demo: it can be submitted again.
    expect((await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge('again')] }, version: 2 }, demo)).data).toEqual({ version: 3 });
  });

  it('F9 a submit-once form (S03) is locked after its submission', async () => {
    const data = s03Data('once');
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data, version: 0 }, demo))).toEqual({ code: 200, msg: 'ok', data: { version: 1 } });
    const locked = { code: 601, msg: SUBMIT_ONCE_MSG, data: null, error: 'submitOnce' };
    expect(bodyOf(await post(t.app, '/oga/forms/s03/submit', { data: s03Data('twice'), version: 1 }, demo))).toEqual(locked);
    expect(bodyOf(await put(t.app, '/oga/forms/s03/draft', { data: s03Data('draft'), version: 1 }, demo))).toEqual(locked);
    const opened = await get(t.app, '/oga/forms/s03', demo);
    expect(opened.data).toMatchObject({ status: 'submitted', locked: true, entry: { data, version: 1, status: 'submitted' } });
  });

  it('F9 a form whose deadline passed (S01) refuses drafts and submits', async () => {
    const closed = { code: 601, msg: DEADLINE_MSG, data: null, error: 'deadlinePassed' };
    expect(bodyOf(await put(t.app, '/oga/forms/s01/draft', { data: {}, version: 0 }, demo))).toEqual(closed);
    expect(bodyOf(await post(t.app, '/oga/forms/s01/submit', { data: {}, version: 0 }, demo))).toEqual(closed);
    expect(await entryOf(await participationOf('demo'), 's01')).toBeUndefined();
  });

  it('F10 a prerequisite closed by its deadline (S01) is named on S02 with the organiser to ask, never a silent deadlock', async () => {
    const s02 = (await get(t.app, '/oga/forms', demo)).data.find((f: { id: string }) => f.id === 's02');
    expect(s02).toMatchObject({ missingPrerequisites: ['S01'], closedPrerequisites: ['S01'] });
    expect((await get(t.app, '/oga/forms/s02', demo)).data).toMatchObject({ missingPrerequisites: ['S01'], closedPrerequisites: ['S01'] });
    const refused = bodyOf(await post(t.app, '/oga/forms/s02/submit', { data: { products: [] }, version: 0 }, demo));
    expect(refused).toEqual({
      code: 601,
      error: 'prerequisiteClosed',
      msg: 'S01 closed at its deadline before it was submitted, and this form needs it first. Ask the organiser (exhibitor-support@afhe-expo.example) to reopen it.',
      data: { forms: ['S01'], supportEmail: 'exhibitor-support@afhe-expo.example' },
    });
    // Reopened (its deadline moved ahead), S01 is only missing, no longer closed.
    const participationId = await participationOf('demo');
    await setParticipationDeadline(t.app.db, participationId, 'profile', new Date(Date.now() + 86_400_000));
    try {
      expect((await get(t.app, '/oga/forms/s02', demo)).data).toMatchObject({ missingPrerequisites: ['S01'], closedPrerequisites: [] });
      expect(bodyOf(await post(t.app, '/oga/forms/s02/submit', { data: { products: [] }, version: 0 }, demo))).toMatchObject({ error: 'submitFormsFirst' });
    } finally {
      await t.app.db.deleteFrom('deadlines').where('participation_id', '=', participationId).where('name', '=', 'profile').execute();
    }
  });

  it('F1 S05 cannot be submitted before S03 (limited)', async () => {
    const data = { badges: [badge('contractor')] };
    const refused = await post(t.app, '/oga/forms/s05/submit', { data, version: 0 }, limited);
    expect(bodyOf(refused)).toEqual({ code: 601, msg: 'Please submit the following form(s) first.', data: { forms: ['S03'] }, error: 'submitFormsFirst' });
    expect(await entryOf(await participationOf('limited'), 's05')).toBeUndefined();
    // A draft needs no prerequisite.
    expect((await put(t.app, '/oga/forms/s05/draft', { data, version: 0 }, limited)).data).toEqual({ version: 1 });
    expect((await get(t.app, '/oga/forms/s05', limited)).data.missingPrerequisites).toEqual(['S03']);
    expect((await post(t.app, '/oga/forms/s03/submit', { data: s03Data('limited'), version: 0 }, limited)).code).toBe(200);
    expect(bodyOf(await post(t.app, '/oga/forms/s05/submit', { data, version: 1 }, limited))).toEqual({ code: 200, msg: 'ok', data: { version: 2 } });
  });

  it("P5 an exhibitor never sees or changes another exhibitor's entry", async () => {
    const demoData = { badges: [badge('demo-own')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: demoData, version: 0 }, demo)).data).toEqual({ version: 1 });
    const seen = await get(t.app, '/oga/forms/s04', limited);
    expect(seen.code).toBe(200);
    expect(seen.data.entry).toBeNull();
    expect((await get(t.app, '/oga/forms', limited)).data.find((f: { id: string }) => f.id === 's04').status).toBe('notStarted');

    // limited's own save starts at version 0 and does not touch demo's entry.
    const limitedData = { badges: [badge('limited-own')] };
    expect((await put(t.app, '/oga/forms/s04/draft', { data: limitedData, version: 0 }, limited)).data).toEqual({ version: 1 });
    expect((await put(t.app, '/oga/forms/s04/draft', { data: limitedData, version: 1 }, limited)).data).toEqual({ version: 2 });
    expect((await get(t.app, '/oga/forms/s04', limited)).data.entry).toMatchObject({ data: limitedData, version: 2 });
    expect((await get(t.app, '/oga/forms/s04', demo)).data.entry).toMatchObject({ data: demoData, version: 1 });
  });

  it('P5 a form that does not exist answers 404; no session answers 401; no participation answers 403', async () => {
    expect(bodyOf(await get(t.app, '/oga/forms/s99', demo))).toEqual(NOT_FOUND);
    expect(bodyOf(await put(t.app, '/oga/forms/s99/draft', { data: {}, version: 0 }, demo))).toEqual(NOT_FOUND);
    expect(bodyOf(await post(t.app, '/oga/forms/s99/submit', { data: {}, version: 0 }, demo))).toEqual(NOT_FOUND);
    expect((await get(t.app, '/oga/forms')).code).toBe(401);
    expect((await get(t.app, '/oga/forms/s04')).code).toBe(401);
    expect((await get(t.app, '/oga/forms', organiser)).code).toBe(403);
    expect(await t.app.db.selectFrom('form_entries').select('id').execute()).toEqual([]);
  });
});

describe('F11 an event patch is applied by the registry', () => {
  let dir: string;
  beforeAll(() => {
    // A copy of the schemas in a temporary directory: the repository is never written to.
    dir = mkdtempSync(join(tmpdir(), 'portal-forms-'));
    cpSync(join(SCHEMAS_DIR, 'forms'), join(dir, 'forms'), { recursive: true });
    mkdirSync(join(dir, 'events', 'AFHE2027'), { recursive: true });
    writeFileSync(
      join(dir, 'events', 'AFHE2027', 's04.patch.json'),
      JSON.stringify({
        schema: { properties: { badges: { items: { properties: { gender: null, halalCertified: { type: 'boolean', title: 'forms.s04.lastNameFirst' } } } } } },
        // F11: a correct patch also orders the new field and no longer the removed one (npm run check refuses it otherwise).
        ui: { badges: { items: { 'ui:order': ['firstName', 'middleName', 'lastName', 'lastNameFirst', 'companyOnBadge', 'halalCertified', 'email', 'extra'] } } },
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('F11 the patched event gets the merged schema; another event keeps the original', () => {
    const registry = loadFormRegistry(dir);
    expect(registry.definitions.map((d) => d.id)).toEqual(FORMS.map((f) => f.id));
    const original = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'forms', 's04.schema.json'), 'utf8'));
    const patched = registry.filesFor('s04', 'AFHE2027');
    const item = patched.schema.properties.badges.items;
    expect(item.properties.gender).toBeUndefined();
    expect(item.properties.halalCertified).toEqual({ type: 'boolean', title: 'forms.s04.lastNameFirst' });
    expect(item.properties.email).toEqual(original.properties.badges.items.properties.email);
    expect(item.required).toEqual(original.properties.badges.items.required);
    expect(patched.ui['ui:order']).toEqual(['badges']);
    const badgesUi = patched.ui.badges as { items: { 'ui:order': string[] }; 'ui:help': string };
    expect(badgesUi.items['ui:order']).toContain('halalCertified');
    // Merged, not replaced: the rest of the list's UI stays.
    expect(badgesUi['ui:help']).toBe('forms.s04.badgesHelp');
    expect(registry.filesFor('s04', 'AFHE2026').schema).toEqual(original);
    // The base schema is not changed by patching.
    expect(registry.filesFor('s04', 'AFHE2026').schema.properties.badges.items.properties.gender).toBeDefined();
  });
});

describe.each(ENGINES)('F3 F10 previous events and submitted copies on %s', (engine) => {
  let t: TestApp;
  let demo: string;
  let limited: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [demo, limited] = await Promise.all([login(t.app, 'demo'), login(t.app, 'limited')]);
  });
  afterAll(async () => t?.close());

  it("F3 demo copies last year's products into its S02 draft, and a second copy appends them again", async () => {
    const first = await post(t.app, '/oga/forms/s02/inherit', undefined, demo);
    expect(first.code).toBe(200);
    const names = (first.data as { data: { products: Array<{ productName: string }> } }).data.products.map((p) => p.productName);
    expect(names).toEqual(['Wild Tualang Honey', 'Bario Rice Crackers']);
    const detail = (await get(t.app, '/oga/forms/s02', demo)).data as { entry: { status: string; data: { products: unknown[] } } };
    expect(detail.entry.status).toBe('draft');
    expect(detail.entry.data.products).toHaveLength(2);
  });

  it('F3 an exhibitor without an earlier event is told there is nothing to copy', async () => {
    const answer = await post(t.app, '/oga/forms/s02/inherit', undefined, limited);
    expect(bodyOf(answer)).toMatchObject({ code: 601, error: 'nothingToInherit', msg: 'Your previous event has no entries to copy.' });
  });

  it('F3 only forms that allow it can be copied', async () => {
    expect((await post(t.app, '/oga/forms/s04/inherit', undefined, demo)).code).toBe(404);
  });

  it('F1 the demo does not start stuck: its S01 is submitted, so S02 needs nothing first', async () => {
    const listed = (await get(t.app, '/oga/forms', demo)).data as Array<{ id: string; status: string; missingPrerequisites: string[] }>;
    expect(listed.find((f) => f.id === 's01')).toMatchObject({ status: 'submitted' });
    expect(listed.find((f) => f.id === 's02')).toMatchObject({ missingPrerequisites: [] });
  });

  it('F9 O1 editing a submitted form never withdraws it: status and approval stay until a new submission replaces them', async () => {
    const badge = (email: string, extra = false) => ({ firstName: 'Aisyah', lastName: 'Rahman', email, extra });
    const submittedBadges = [badge('one@borneo.example'), badge('extra@borneo.example', true)];
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data: { badges: submittedBadges }, version: 0 }, limited);
    expect(submitted.code).toBe(200);
    const participationId = (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', 'limited').executeTakeFirstOrThrow()).participation_id!;
    await t.app.db
      .updateTable('form_entries')
      .set({ approval_status: 'approved', approval_comment: 'Fine', decided_at: new Date() })
      .where('participation_id', '=', participationId)
      .where('form_id', '=', 's04')
      .execute();
    const listed = async () => ((await get(t.app, '/oga/forms', limited)).data as Array<{ id: string; status: string; changesNotSubmitted: boolean }>).find((f) => f.id === 's04');
    expect(await listed()).toMatchObject({ status: 'approved', changesNotSubmitted: false });

    const edited = await put(t.app, '/oga/forms/s04/draft', { data: { badges: [badge('one@borneo.example')] }, version: (submitted.data as { version: number }).version }, limited);
    expect(edited.code).toBe(200);
    expect(await listed()).toMatchObject({ status: 'approved', changesNotSubmitted: true });
    const opened = (await get(t.app, '/oga/forms/s04', limited)).data;
    expect(opened).toMatchObject({
      status: 'approved',
      changesNotSubmitted: true,
      entry: { status: 'submitted', approval: { status: 'approved', comment: 'Fine' }, submittedData: { badges: submittedBadges } },
    });
    // The same data in another key order is no change.
    const reordered = await put(
      t.app,
      '/oga/forms/s04/draft',
      {
        data: { badges: submittedBadges.map(({ extra, email, lastName, firstName }) => ({ extra, email, lastName, firstName })) },
        version: (edited.data as { version: number }).version,
      },
      limited,
    );
    expect(await listed()).toMatchObject({ status: 'approved', changesNotSubmitted: false });

    const resubmitted = await post(
      t.app,
      '/oga/forms/s04/submit',
      { data: { badges: [badge('one@borneo.example')] }, version: (reordered.data as { version: number }).version },
      limited,
    );
    expect(resubmitted.code).toBe(200);
    expect(await listed()).toMatchObject({ status: 'submitted', changesNotSubmitted: false });
  });

  it('F10 a draft change after submitting keeps the submitted copy', async () => {
    const badge = (email: string) => ({ firstName: 'Aisyah', lastName: 'Rahman', email });
    const submitted = await post(t.app, '/oga/forms/s04/submit', { data: { badges: [badge('first@borneo.example')] }, version: 0 }, demo);
    expect(submitted.code).toBe(200);
    const version = (submitted.data as { version: number }).version;
    expect((await put(t.app, '/oga/forms/s04/draft', { data: { badges: [badge('changed@borneo.example')] }, version }, demo)).code).toBe(200);
    const entry = (
      (await get(t.app, '/oga/forms/s04', demo)).data as { entry: { data: { badges: Array<{ email: string }> }; submittedData: { badges: Array<{ email: string }> } } }
    ).entry;
    expect(entry.data.badges[0]!.email).toBe('changed@borneo.example');
    expect(entry.submittedData.badges[0]!.email).toBe('first@borneo.example');
  });
});
