import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EVENT_CODE } from '../../src/server/db/seed';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
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

/** A draft adding a required yes/no question to S04, titled in every language given (the others keep the form's strings without it). */
function halalDraft(basedOn: number, languages = ['en', 'cn', 'ja', 'vi']) {
  const titles: Record<string, string> = { en: 'Halal certified?', cn: '是否清真认证？', ja: 'ハラール認証はありますか？', vi: 'Có chứng nhận Halal?' };
  return {
    basedOn,
    patch: {
      schema: { properties: { halalCertified: { type: 'boolean', title: 'forms.s04.halalCertified' } }, required: [...s04Required, 'halalCertified'] },
      ui: { 'ui:order': [...s04Order, 'halalCertified'] },
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
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

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

    const submitted = await t.app.db
      .selectFrom('form_entries')
      .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
      .select(['form_entries.participation_id', 'form_entries.status'])
      .where('participations.event_id', '=', eventId)
      .where('participations.status', '=', 'active')
      .where('form_entries.form_id', '=', 's04')
      .execute();
    const impact = await get(t.app, `${editor}/impact`, organiser);
    expect(impact.status).toBe(200);
    expect(impact.data.drafts + impact.data.submissions).toBeGreaterThanOrEqual(submitted.length > 0 ? 1 : 0);
    expect(impact.data.questions).toEqual([{ path: 'halalCertified', kind: 'added', title: 'forms.s04.halalCertified' }]);
    // A new required question: every submission lacks it.
    expect(impact.data.invalidCount).toBe(impact.data.submissions);
    for (const entry of impact.data.invalid) expect(entry.fields).toEqual(['/halalCertified']);

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
    expect(diff.data.forms).toEqual([{ formId: 's04', exhibitCode: DEMO_EVENT_CODE, changes: [expect.objectContaining({ kind: 'added', path: 'halalCertified' })] }]);
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
});
