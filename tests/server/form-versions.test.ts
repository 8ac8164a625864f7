import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EVENT_CODE } from '../../src/server/db/seed';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { exportVersion, importFolder } from '../../src/server/plugins/forms/transfer';
import { formProblems } from '../../scripts/check-forms';
import { addRivalOrganiser, call, createTestApp, ENGINES, get, login, post, put, type TestApp } from './helpers';

// F11: the form set lives in the database as versions. FORMS_DIR is imported at start when it
// changed; an organiser edits an event's patch of a form as a draft (checked, previewed), sees
// what publishing does to the exhibitors who answered, publishes (refused when stale or with
// problems), compares versions and rolls back; every step is audited.

type Json = Record<string, any>;

function copyOfForms(): { root: string; formsDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'portal-form-versions-'));
  const formsDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
  cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
  return { root, formsDir };
}

/** The form's strings as the editor got them (flat, per language). */
let s04Strings: Record<string, Record<string, string>> = {};
/** S04's question order in the base form. */
let s04Order: string[] = [];
/** S04's required questions in the base form (a merge patch replaces the list whole). */
let s04Required: string[] = [];
let s04BadgeOrder: string[] = [];

/** A draft adding a required yes/no question to S04, titled in every language given (the others keep the form's strings without it). */
function halalDraft(basedOn: number, languages = ['en', 'cn', 'ja', 'vi']) {
  const titles: Record<string, string> = { en: 'Halal certified?', cn: '是否清真认证？', ja: 'ハラール認証はありますか？', vi: 'Có chứng nhận Halal?' };
  return {
    basedOn,
    // A new required question, and the badges' gender question removed.
    patch: {
      schema: {
        properties: { halalCertified: { type: 'boolean', title: 'forms.s04.halalCertified' }, badges: { items: { properties: { gender: null } } } },
        required: [...s04Required, 'halalCertified'],
      },
      ui: { 'ui:order': [...s04Order, 'halalCertified'], badges: { items: { 'ui:order': s04BadgeOrder.filter((name) => name !== 'gender'), gender: null } } },
    },
    strings: Object.fromEntries(
      Object.entries(s04Strings).map(([language, table]) => [language, languages.includes(language) ? { ...table, 'forms.s04.halalCertified': titles[language]! } : table]),
    ),
  };
}

describe.each(ENGINES)('form set versions (%s)', (engine) => {
  let t: TestApp;
  let root: string;
  let formsDir: string;
  let organiser: string;
  let rival: string;
  let exhibitor: string;
  let eventId: number;
  let rivalEventId: number;
  let editor: string;

  beforeAll(async () => {
    ({ root, formsDir } = copyOfForms());
    t = await createTestApp(engine, { formsDir });
    ({ eventId: rivalEventId } = await addRivalOrganiser(t.app));
    [organiser, rival, exhibitor] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'rival'), login(t.app, 'demo')]);
    eventId = (await t.app.db.selectFrom('events').select('id').where('code', '=', DEMO_EVENT_CODE).executeTakeFirstOrThrow()).id;
    editor = `/oga/organiser/form-editor/${eventId}/s04`;
    const opened = (await get(t.app, editor, organiser)).data;
    s04Strings = opened.strings;
    s04Order = opened.base.ui['ui:order'];
    s04Required = opened.base.schema.required ?? [];
    s04BadgeOrder = opened.base.ui.badges.items['ui:order'];
    await seedS04Entries();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Four more exhibitors of the event: three submitted S04 (two answering gender), one has a draft. */
  async function seedS04Entries() {
    const organisationId = (await t.app.db.selectFrom('events').select('organisation_id').where('id', '=', eventId).executeTakeFirstOrThrow()).organisation_id;
    for (const index of [1, 2, 3, 4]) {
      const exhibitorRow = await t.app.db
        .insertInto('exhibitors')
        .values({ name: `Halal Foods ${index}`, legal_name: `Halal Foods ${index} Sdn. Bhd.`, logo_url: '', organisation_id: organisationId, code: `HALAL${index}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.app.db
        .insertInto('participations')
        .values({ exhibitor_id: exhibitorRow.id, event_id: eventId, booth_num: `H${index}`, displayed_modules: JSON.stringify(['Forms']), flags: '{}' })
        .execute();
    }
    const without = await t.app.db
      .selectFrom('participations')
      .select('id')
      .where('event_id', '=', eventId)
      .where('status', '=', 'active')
      .where('id', 'not in', (eb) => eb.selectFrom('form_entries').select('participation_id').where('form_id', '=', 's04'))
      .orderBy('id')
      .limit(4)
      .execute();
    const badge = (gender?: string) => ({ badges: [{ firstName: 'Aisha', lastName: 'Rahman', email: 'aisha@example.com', ...(gender ? { gender } : {}) }] });
    for (const [index, participation] of without.entries()) {
      const data = JSON.stringify(badge(index < 2 ? 'female' : undefined));
      const submitted = index < 3;
      await t.app.db
        .insertInto('form_entries')
        .values({
          participation_id: participation.id,
          form_id: 's04',
          data,
          submitted_data: submitted ? data : null,
          status: submitted ? 'submitted' : 'draft',
          submitted_at: submitted ? new Date() : null,
        })
        .execute();
    }
  }

  /** The event's active S04 entries as stored. */
  const s04Entries = () =>
    t.app.db
      .selectFrom('form_entries')
      .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
      .select(['form_entries.participation_id', 'form_entries.status', 'form_entries.data', 'form_entries.submitted_data'])
      .where('participations.event_id', '=', eventId)
      .where('participations.status', '=', 'active')
      .where('form_entries.form_id', '=', 's04')
      .execute();

  const versionCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('form_set_versions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('imports FORMS_DIR as the first published version at start; unchanged files make no new version', async () => {
    expect(await versionCount()).toBe(1);
    expect(t.app.forms.status().number).toBe(1);
    const versions = await get(t.app, '/oga/organiser/form-versions', organiser);
    expect(versions.data).toEqual([expect.objectContaining({ number: 1, status: 'published', source: 'files', current: true, problems: [] })]);
    expect(t.app.forms.reload('test').changed).toBe(false);
    await t.app.forms.settled();
    expect(await versionCount()).toBe(1);
  });

  it('gives the editor the base form, the patch and the strings; refuses exhibitors (403) and other organisations (404)', async () => {
    const opened = await get(t.app, editor, organiser);
    expect(opened.status).toBe(200);
    expect(opened.data).toMatchObject({ exhibitCode: DEMO_EVENT_CODE, formId: 's04', version: { number: 1 }, patch: null, draft: null });
    expect(opened.data.base.schema.properties.badges).toBeTruthy();
    expect(opened.data.strings.ja['forms.s04.title']).toBeTruthy();
    // A file question may take any upload purpose forms.yaml declares.
    expect(opened.data.uploadPurposes).toEqual(['logo', 'productImage', 'brochure', 'boothDesign', 'passportPhoto']);
    expect(Object.keys(opened.data.strings.en).every((key: string) => key.startsWith('forms.s04.'))).toBe(true);

    // Body codes of spec §8 (answered with HTTP 200 like every other refusal of the portal).
    expect((await get(t.app, editor, exhibitor)).code).toBe(403);
    expect((await put(t.app, `${editor}/draft`, halalDraft(1), exhibitor)).code).toBe(403);
    expect((await get(t.app, editor, rival)).code).toBe(404);
    expect((await get(t.app, `/oga/organiser/form-editor/${rivalEventId}/s04`, organiser)).code).toBe(404);
    expect((await get(t.app, `/oga/organiser/form-editor/${eventId}/nosuchform`, organiser)).code).toBe(404);
    expect((await get(t.app, '/oga/organiser/form-versions', exhibitor)).code).toBe(403);
    expect((await call(t.app, 'GET', editor, {})).code).toBe(401);
  });

  it('saves a draft with its problems (a missing translation), and refuses to publish it (422)', async () => {
    const saved = await put(t.app, `${editor}/draft`, halalDraft(1, ['en']), organiser);
    expect(saved.status).toBe(200);
    expect(saved.data.problems.map((problem: Json) => problem.message).join('\n')).toContain('forms.s04.halalCertified');
    expect(saved.data.preview.validator).toBeNull();
    const opened = await get(t.app, editor, organiser);
    expect(opened.data.draft).toMatchObject({ basedOn: 1, author: expect.any(String) });
    expect(opened.data.draft.problems.length).toBeGreaterThan(0);
    const refused = await post(t.app, `${editor}/publish`, { basedOn: 1, comment: 'halal', submissions: 'keep' }, organiser);
    expect(refused.status).toBe(422);
    expect(refused.error).toBe('formVersionProblems');
    expect(refused.data.problems.length).toBeGreaterThan(0);
    expect(await versionCount()).toBe(1);
  });

  it('refuses malformed and huge drafts with coded answers', async () => {
    const wrongKey = await put(t.app, `${editor}/draft`, { basedOn: 1, patch: null, strings: { en: { 'forms.s01.title': 'x' } } }, organiser);
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.error).toBe('formPatchInvalid');
    const notAPatch = await put(t.app, `${editor}/draft`, { basedOn: 1, patch: { schema: 'x' }, strings: {} }, organiser);
    expect(notAPatch.status).toBe(400);
    const huge = await put(t.app, `${editor}/draft`, { basedOn: 1, patch: { schema: { description: 'x'.repeat(600_000) } }, strings: {} }, organiser);
    expect(huge.status).toBe(413);
  });

  it('previews a valid draft with its served validator, shows its impact, and publishes it reopening the affected submissions', async () => {
    const saved = await put(t.app, `${editor}/draft`, halalDraft(1), organiser);
    expect(saved.data.problems).toEqual([]);
    expect(saved.data.preview.schema.properties.halalCertified).toEqual({ type: 'boolean', title: 'forms.s04.halalCertified' });
    expect(saved.data.preview.strings.ja.halalCertified).toBe('ハラール認証はありますか？');
    const module = await t.app.inject({ method: 'GET', url: saved.data.preview.validator.url });
    expect(module.statusCode).toBe(200);

    const entries = await s04Entries();
    const answersGender = (data: any) => Array.isArray(data?.badges) && data.badges.some((item: any) => item?.gender !== undefined && item.gender !== '');
    const impact = await get(t.app, `${editor}/impact`, organiser);
    expect(impact.status).toBe(200);
    expect(impact.data.drafts).toBe(entries.filter((entry) => entry.status === 'draft').length);
    expect(impact.data.submissions).toBe(entries.filter((entry) => entry.submitted_data !== null).length);
    expect(impact.data.submissions).toBeGreaterThanOrEqual(3);
    expect(impact.data.drafts).toBeGreaterThanOrEqual(1);
    expect(impact.data.dropped).toEqual([
      { path: 'badges[].gender', title: 'forms.s04.gender', answers: entries.filter((entry) => answersGender(entry.data) || answersGender(entry.submitted_data)).length },
    ]);
    expect(impact.data.dropped[0].answers).toBeGreaterThanOrEqual(2);
    expect(impact.data.questions).toEqual([{ path: 'halalCertified', kind: 'added', title: 'forms.s04.halalCertified' }]);
    // A new required question: every submission lacks it.
    expect(impact.data.invalidCount).toBe(impact.data.submissions);
    for (const entry of impact.data.invalid) expect(entry).toMatchObject({ fields: ['/halalCertified'], exhibitor: expect.any(String), company: expect.any(String) });

    const published = await post(t.app, `${editor}/publish`, { basedOn: 1, comment: 'Halal question', submissions: 'reopen' }, organiser);
    expect(published.status).toBe(200);
    expect(published.data).toMatchObject({ version: { number: 2 }, reopened: impact.data.invalidCount });
    expect(t.app.forms.status().number).toBe(2);
    expect(t.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.halalCertified).toBeTruthy();
    // Another event keeps its form.
    expect(t.app.forms.current().filesFor('s04', 'AFHE2026').schema.properties.halalCertified).toBeUndefined();
    expect((await get(t.app, editor, organiser)).data).toMatchObject({ version: { number: 2 }, draft: null, patch: halalDraft(1).patch });

    const reopens = await t.app.db.selectFrom('form_reopens').select(['participation_id', 'fields']).where('form_id', '=', 's04').where('fields', 'is not', null).execute();
    expect(reopens.length).toBe(impact.data.invalidCount);
    for (const reopen of reopens) expect(reopen.fields).toEqual(['halalCertified']);
    // The reopened submissions are drafts again; their submitted copies are kept; the answers to
    // the removed question left the working copies.
    const after = await s04Entries();
    expect(after.filter((entry) => entry.submitted_data !== null).every((entry) => entry.status === 'draft')).toBe(true);
    expect(after.some((entry) => answersGender(entry.submitted_data))).toBe(true);
    expect(after.some((entry) => answersGender(entry.data))).toBe(false);
    // One e-mail per exhibitor user of each reopened participation, naming the new question.
    const mails = await t.app.db.selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body']).where('kind', '=', 'formChanged').execute();
    expect(mails.length).toBeGreaterThanOrEqual(1);
    for (const mail of mails) expect(mail.text_body).toMatch(/Halal|清真|ハラール/);
    // The exhibitor's form lists the questions to answer again.
    const demoParticipation = (await t.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow()).participation_id;
    const form = await get(t.app, '/oga/forms/s04', exhibitor);
    expect(form.data.askAgain).toEqual(reopens.some((reopen) => reopen.participation_id === demoParticipation) ? ['halalCertified'] : null);
    expect(form.data.schema.properties.halalCertified).toBeTruthy();

    const audit = await t.app.db.selectFrom('audit_log').select(['action', 'before', 'after']).where('action', 'in', ['formDraft.save', 'forms.publish']).orderBy('id').execute();
    expect(audit.map((row) => row.action)).toContain('forms.publish');
    const publish = audit.find((row) => row.action === 'forms.publish')!;
    expect(publish.before).toMatchObject({ version: 1, patch: null });
    expect(publish.after).toMatchObject({ version: 2, patch: halalDraft(1).patch });
  });

  it('refuses a publish based on an older version (409) with who changed what since; nothing is overwritten', async () => {
    await put(t.app, `${editor}/draft`, { ...halalDraft(1), patch: null }, organiser);
    const stale = await post(t.app, `${editor}/publish`, { basedOn: 1, comment: 'late', submissions: 'keep' }, organiser);
    expect(stale.status).toBe(409);
    expect(stale.error).toBe('formVersionStale');
    expect(stale.data.current).toBe(2);
    expect(stale.data.since).toEqual([expect.objectContaining({ number: 2, comment: 'Halal question' })]);
    expect(stale.data.files).toEqual([{ file: `events/${DEMO_EVENT_CODE}/s04.patch.json`, change: 'added' }]);
    expect(t.app.forms.status().number).toBe(2);
    expect((await call(t.app, 'DELETE', `${editor}/draft`, { token: organiser })).status).toBe(200);
    expect((await get(t.app, editor, organiser)).data.draft).toBeNull();
  });

  it('compares two versions and rolls back to an earlier one as a new version', async () => {
    const diff = await get(t.app, '/oga/organiser/form-versions/1/diff/2', organiser);
    expect(diff.status).toBe(200);
    expect(diff.data.forms).toEqual([
      {
        formId: 's04',
        exhibitCode: DEMO_EVENT_CODE,
        changes: [expect.objectContaining({ kind: 'added', path: 'halalCertified' }), expect.objectContaining({ kind: 'removed', path: 'badges[].gender' })],
      },
    ]);
    expect(diff.data.strings.filter((entry: Json) => entry.key === 'forms.s04.halalCertified')).toHaveLength(4);
    expect((await get(t.app, '/oga/organiser/form-versions/1/diff/99', organiser)).code).toBe(404);

    const staleRollback = await post(t.app, '/oga/organiser/form-versions/1/rollback', { basedOn: 1 }, organiser);
    expect(staleRollback.status).toBe(409);
    const rolledBack = await post(t.app, '/oga/organiser/form-versions/1/rollback', { basedOn: 2, comment: 'undo' }, organiser);
    expect(rolledBack.status).toBe(200);
    expect(rolledBack.data.number).toBe(3);
    expect(t.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.halalCertified).toBeUndefined();
    const versions = await get(t.app, '/oga/organiser/form-versions', organiser);
    expect(versions.data.map((version: Json) => [version.number, version.source, version.current])).toEqual([
      [3, 'rollback', true],
      [2, 'editor', false],
      [1, 'files', false],
    ]);
    const audit = await t.app.db.selectFrom('audit_log').select(['before', 'after']).where('action', '=', 'forms.rollback').executeTakeFirstOrThrow();
    expect(audit.before).toMatchObject({ version: 2 });
    expect(audit.after).toMatchObject({ version: 3, contentOf: 1 });
  });

  it('copies an event’s patches to another event as a new version', async () => {
    const version = await t.app.forms.copyEventPatches('HALAL2026', 'AFHE2026', { id: null, name: 'test' });
    expect(version?.number).toBe(4);
    const set = t.app.forms.current();
    expect(set.filesFor('s04', 'AFHE2026')).toEqual(set.filesFor('s04', 'HALAL2026'));
  });

  it('exports a version as files that `npm run check` accepts, and importing them gives the same version back, byte for byte', async () => {
    const out = mkdtempSync(join(tmpdir(), 'portal-forms-export-'));
    const again = mkdtempSync(join(tmpdir(), 'portal-forms-export-'));
    try {
      // Version 1 is FORMS_DIR as it was imported: the export is those very files and strings.
      expect(await exportVersion(t.app.db, join(out, 'schemas'), { number: 1, formsDir })).toBe(1);
      const { 'README.md': _readme, ...original } = filesUnder(formsDir);
      expect(filesUnder(join(out, 'schemas'))).toEqual(original);
      expect(filesUnder(join(out, 'locales'))).toEqual(filesUnder(join(root, 'locales')));

      // Version 2: the organiser's S04 change with its strings in four languages.
      expect(await exportVersion(t.app.db, join(out, 'schemas'), { number: 2, formsDir })).toBe(2);
      expect(formProblems(join(out, 'schemas'))).toEqual([]);
      expect(JSON.parse(readFileSync(join(out, 'schemas', 'events', DEMO_EVENT_CODE, 's04.patch.json'), 'utf8')).schema.properties.halalCertified).toBeTruthy();
      expect(JSON.parse(readFileSync(join(out, 'locales', 'ja.json'), 'utf8')).forms.s04.halalCertified).toBe('ハラール認証はありますか？');

      const before = await versionCount();
      const imported = await importFolder(t.app.db, join(out, 'schemas'), { id: null, name: 'test' });
      expect(imported.kind).toBe('published');
      const number = imported.kind === 'published' ? imported.version.number : 0;
      expect(await versionCount()).toBe(before + 1);
      // The same content as version 2: a re-import of unchanged files adds nothing.
      expect((await importFolder(t.app.db, join(out, 'schemas'), { id: null, name: 'test' })).kind).toBe('unchanged');
      expect(await exportVersion(t.app.db, join(again, 'schemas'), { number, formsDir })).toBe(number);
      expect(filesUnder(again)).toEqual(filesUnder(out));

      // A folder with problems is refused whole.
      writeFileSync(join(out, 'schemas', 'forms', 's04.schema.json'), '{ not json');
      const refused = await importFolder(t.app.db, join(out, 'schemas'), { id: null, name: 'test' });
      expect(refused.kind).toBe('problems');
      expect(await versionCount()).toBe(before + 1);
    } finally {
      rmSync(out, { recursive: true, force: true });
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("removes a question an approval summary shows, listing it under the entry's optional: in the same draft; publishes both", async () => {
    // The version the folder import above stored is the one in use.
    await t.app.forms.refresh();
    const basedOn = (await get(t.app, editor, organiser)).data.version.number;
    const removal = {
      basedOn,
      patch: {
        schema: { properties: { badges: { items: { properties: { companyOnBadge: null } } } } },
        ui: { badges: { items: { 'ui:order': s04BadgeOrder.filter((name) => name !== 'companyOnBadge'), companyOnBadge: null } } },
      },
      strings: s04Strings,
    };
    // Removed alone, the summary's name is a problem naming forms.yaml.
    const alone = await put(t.app, `${editor}/draft`, removal, organiser);
    expect(alone.status).toBe(200);
    expect(alone.data.problems.map((problem: Json) => problem.message).join('\n')).toContain('"companyOnBadge" under that entry\'s optional:');
    // With the fix in the same draft: no problem; the draft keeps the listing.
    const listing = { entry: '/forms/3/approvalSummary/0', name: 'companyOnBadge' };
    const fixed = await put(t.app, `${editor}/draft`, { ...removal, listings: [listing, listing] }, organiser);
    expect(fixed.data.problems).toEqual([]);
    expect((await get(t.app, editor, organiser)).data.draft.listings).toEqual([listing]);
    // A listing of another form's entry, or of an entry forms.yaml lacks, is refused; the draft stays as it was.
    for (const wrong of [
      { entry: '/forms/2/approvalSummary/0', name: 'boothHeight' },
      { entry: '/forms/3/approvalSummary/7', name: 'companyOnBadge' },
    ]) {
      const refused = await put(t.app, `${editor}/draft`, { ...removal, listings: [wrong] }, organiser);
      expect([refused.status, refused.error]).toEqual([400, 'formPatchInvalid']);
    }
    expect((await get(t.app, editor, organiser)).data.draft.listings).toEqual([listing]);

    const published = await post(t.app, `${editor}/publish`, { basedOn, comment: 'no company on badges', submissions: 'keep' }, organiser);
    expect(published.status).toBe(200);
    const source = t.app.forms.currentVersion().set.source;
    const formsYaml = source.files['forms/forms.yaml']!;
    expect(formsYaml).toContain('approvalSummary: [{ field: badges, show: [firstName, middleName, lastName, companyOnBadge], optional: [lastName, companyOnBadge] }]');
    // Only that line changed.
    const before = readFileSync(join(formsDir, 'forms', 'forms.yaml'), 'utf8').split('\n');
    expect(formsYaml.split('\n').filter((line, index) => line !== before[index])).toHaveLength(1);
    expect(t.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.badges.items.properties.companyOnBadge).toBeUndefined();
    const audit = await t.app.db.selectFrom('audit_log').select('after').where('action', '=', 'forms.publish').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.after).toMatchObject({ listings: [listing] });
  });

  it("shows an organisation only its own versions and the implementers'; another's is 404; a rollback restores only the organisation's events", async () => {
    await t.app.forms.refresh();
    const rivalEditor = `/oga/organiser/form-editor/${rivalEventId}/s04`;
    const rivalOpened = (await get(t.app, rivalEditor, rival)).data;
    const hiddenGender = { ui: { badges: { items: { gender: { 'ui:field': 'hidden' } } } } };
    expect((await put(t.app, `${rivalEditor}/draft`, { basedOn: rivalOpened.version.number, patch: hiddenGender, strings: rivalOpened.strings }, rival)).data.problems).toEqual([]);
    const rivalPublished = await post(t.app, `${rivalEditor}/publish`, { basedOn: rivalOpened.version.number, comment: 'rival hides gender', submissions: 'keep' }, rival);
    expect(rivalPublished.status).toBe(200);
    const rivalNumber: number = rivalPublished.data.version.number;

    const seen = (await get(t.app, '/oga/organiser/form-versions', organiser)).data as Json[];
    expect(seen.map((version) => version.number)).not.toContain(rivalNumber);
    expect(seen.map((version) => version.comment)).toContain('no company on badges');
    expect(seen.find((version) => version.number === 1)).toMatchObject({ source: 'files' });
    expect((await get(t.app, `/oga/organiser/form-versions/1/diff/${rivalNumber}`, organiser)).code).toBe(404);
    expect((await post(t.app, `/oga/organiser/form-versions/${rivalNumber}/rollback`, { basedOn: rivalNumber }, organiser)).code).toBe(404);
    const rivalSeen = (await get(t.app, '/oga/organiser/form-versions', rival)).data as Json[];
    expect(rivalSeen.map((version) => version.comment)).toContain('rival hides gender');
    expect(rivalSeen.map((version) => version.comment)).not.toContain('no company on badges');

    // The organiser rolls back to the files' version: its event's form is the base again; the rival's change stays.
    expect(t.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.badges.items.properties.companyOnBadge).toBeUndefined();
    const rolledBack = await post(t.app, '/oga/organiser/form-versions/1/rollback', { basedOn: rivalNumber, comment: 'company back' }, organiser);
    expect(rolledBack.status).toBe(200);
    expect(t.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.badges.items.properties.companyOnBadge).toBeTruthy();
    expect((t.app.forms.current().filesFor('s04', 'RIVAL2027').ui as Json).badges.items.gender['ui:field']).toBe('hidden');
    expect((await get(t.app, '/oga/organiser/form-versions', rival)).data.map((version: Json) => version.number)).not.toContain(rolledBack.data.number);
  });
});

/** Every file under a folder by relative path, with its bytes as text. */
function filesUnder(dir: string, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(join(dir, prefix)).sort()) {
    const path = join(prefix, name);
    if (statSync(join(dir, path)).isDirectory()) Object.assign(files, filesUnder(dir, path));
    else files[path] = readFileSync(join(dir, path), 'utf8');
  }
  return files;
}
