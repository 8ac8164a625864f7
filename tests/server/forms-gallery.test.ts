import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../src/engine/forms/gallery';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { validateSubmission } from '../../src/server/plugins/forms/validate';
import { addRivalOrganiser, bodyOf, call, createTestApp, ENGINES, get, login, type TestApp } from './helpers';

// The organiser's form gallery. The organiser gets each form as an event's
// exhibitors meet it (the event's patch applied, the validator they run, the strings of every
// language, the event's default flags and quotas) and what the patch changes in the base form;
// another organisation's events are neither listed nor answered; exhibitors and strangers are refused.

interface Change {
  kind: string;
  path: string;
  title?: string | null;
  from?: string | null;
  to?: string | null;
}

describe.each(ENGINES)('form gallery (%s)', (engine) => {
  let t: TestApp;
  let organiser: string;
  let rival: string;
  // A copy of the forms (and the strings beside them): the last test saves a patch into it.
  const root = mkdtempSync(join(tmpdir(), 'portal-gallery-forms-'));
  const formsDir = join(root, 'schemas');

  beforeAll(async () => {
    cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    t = await createTestApp(engine, { formsDir });
    await addRivalOrganiser(t.app);
    organiser = await login(t.app, 'organiser');
    rival = await login(t.app, 'rival');
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists the forms in use and the organisation's own events, each with the forms it patches", async () => {
    const index = bodyOf(await get(t.app, '/oga/organiser/forms/gallery', organiser));
    expect(index.code).toBe(200);
    expect(index.data.version).toBe(t.app.forms.current().version);
    expect(index.data.forms.map((form: { code: string }) => form.code)).toEqual(t.app.forms.current().definitions.map((definition) => definition.code));
    const events = Object.fromEntries(index.data.events.map((event: { code: string; patched: string[]; current: boolean }) => [event.code, event]));
    expect(Object.keys(events).sort()).toEqual(['AFHE2026', 'AFHE2027', 'HALAL2026']);
    expect(events.AFHE2027).toMatchObject({ current: true, patched: ['s01'] });
    expect(events.HALAL2026).toMatchObject({ current: false, patched: ['s04'] });
    expect(events.AFHE2026.patched).toEqual([]);

    // Another organisation sees its own event only.
    const theirs = bodyOf(await get(t.app, '/oga/organiser/forms/gallery', rival));
    expect(theirs.data.events.map((event: { code: string }) => event.code)).toEqual(['RIVAL2027']);
  });

  it("answers a form as the event's exhibitors meet it, with the patch's difference from the base form", async () => {
    const answer = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=HALAL2026', organiser));
    expect(answer.code).toBe(200);
    const preview = answer.data;
    expect(preview).toMatchObject({ patched: true, event: { code: 'HALAL2026', name: 'Halal Ingredients Week 2026' }, definition: { id: 's04', code: 'S04' } });
    const item = preview.schema.properties.badges.items;
    expect(Object.keys(item.properties)).not.toContain('lastName');
    expect(item.required).toEqual(['firstName', 'email', 'companyOnBadge']);
    const changes = preview.changes as Change[];
    expect(changes).toContainEqual({ kind: 'removed', path: 'badges[].lastName', title: 'forms.s04.lastName' });
    expect(changes).toContainEqual({ kind: 'removed', path: 'badges[].lastNameFirst', title: 'forms.s04.lastNameFirst' });
    expect(changes).toContainEqual({ kind: 'nowRequired', path: 'badges[].companyOnBadge', title: 'forms.s04.companyOnBadge' });
    expect(changes).toContainEqual({ kind: 'relabelled', path: 'badges[].firstName', from: 'forms.s04.firstName', to: 'forms.s04.fullName' });
    expect(changes).toHaveLength(4);
    // The labels of every language come with the form; the flags and quotas are the event's defaults.
    expect(preview.strings.ja.fullName).toBe('氏名（パスポートの表記どおり）');
    expect(preview.strings.vi.lastName).toBeTypeOf('string');
    const event = await t.app.db.selectFrom('events').select(['id', 'default_flags']).where('code', '=', 'HALAL2026').executeTakeFirstOrThrow();
    expect(preview.context.flags).toEqual(event.default_flags);
    const quotas = await t.app.db.selectFrom('quotas').select(['name', 'value']).where('event_id', '=', event.id).where('participation_id', 'is', null).execute();
    expect(preview.context.quotas).toEqual(Object.fromEntries(quotas.map((quota) => [quota.name, Number(quota.value)])));

    // The validator named is the patched form's, served as a module.
    const served = t.app.forms.current().validatorFor('s04', 'HALAL2026');
    expect(preview.validator).toEqual({ url: `/oga/forms/validators/${served.hash}.js`, rootKey: served.rootKey });
    const module = await t.app.inject({ method: 'GET', url: preview.validator.url });
    expect(module.statusCode).toBe(200);
    expect(module.headers['content-type']).toContain('text/javascript');
    expect(served.hash).not.toBe(t.app.forms.current().validatorFor('s04', 'AFHE2027').hash);

    // An event without a patch of the form: the base form, nothing changed.
    const plain = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=AFHE2027', organiser)).data;
    expect(plain.patched).toBe(false);
    expect(plain.changes).toEqual([]);
    expect(Object.keys(plain.schema.properties.badges.items.properties)).toContain('lastName');
    // A patch that only adds: listed as added.
    const profile = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s01?event=AFHE2027', organiser)).data;
    expect(profile.changes).toEqual([{ kind: 'added', path: 'company.halalCertified', title: 'forms.s01.halalCertified' }]);
  });

  it("the gallery's try-submit data: an empty S04 is refused, its sample data accepted by the event's validator", async () => {
    const preview = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=HALAL2026', organiser)).data;
    const served = t.app.forms.current().validatorFor('s04', 'HALAL2026');
    expect(validateSubmission(served, {}, preview.context).length).toBeGreaterThan(0);
    expect(validateSubmission(served, sampleData(preview.schema), preview.context)).toEqual([]);
    // The base form's sample (with a last name) is refused by the patched form: a field it no longer has.
    const base = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=AFHE2027', organiser)).data;
    expect(validateSubmission(served, sampleData(base.schema), preview.context).length).toBeGreaterThan(0);
  });

  it("answers 404 for another organisation's event and an unknown form, 403 to an exhibitor, 401 without a token, 400 without an event", async () => {
    expect(bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=RIVAL2027', organiser))).toMatchObject({ code: 404, error: 'notFound' });
    expect(bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=AFHE2027', rival))).toMatchObject({ code: 404, error: 'notFound' });
    expect(bodyOf(await get(t.app, '/oga/organiser/forms/gallery/nosuchform?event=AFHE2027', organiser))).toMatchObject({ code: 404, error: 'notFound' });
    expect(bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=NOSUCH', organiser))).toMatchObject({ code: 404, error: 'notFound' });
    const exhibitor = await login(t.app, 'demo');
    for (const url of ['/oga/organiser/forms/gallery', '/oga/organiser/forms/gallery/s04?event=AFHE2027']) {
      expect([url, (await get(t.app, url, exhibitor)).code]).toEqual([url, 403]);
      expect([url, (await call(t.app, 'GET', url, {})).code]).toEqual([url, 401]);
    }
    const noEvent = await get(t.app, '/oga/organiser/forms/gallery/s04', organiser);
    expect([noEvent.status, bodyOf(noEvent).error]).toEqual([400, 'badRequest']);
  });

  it('follows a patch saved while the portal runs: the event lists the form, the difference names the change', async () => {
    mkdirSync(join(formsDir, 'events', 'AFHE2026'), { recursive: true });
    writeFileSync(
      join(formsDir, 'events', 'AFHE2026', 's04.patch.json'),
      JSON.stringify({ schema: { properties: { badges: { items: { required: ['firstName', 'lastName', 'email', 'gender'] } } } } }),
    );
    expect(t.app.forms.reload('test').problems).toEqual([]);
    const index = bodyOf(await get(t.app, '/oga/organiser/forms/gallery', organiser)).data;
    expect(index.events.find((event: { code: string }) => event.code === 'AFHE2026').patched).toEqual(['s04']);
    const preview = bodyOf(await get(t.app, '/oga/organiser/forms/gallery/s04?event=AFHE2026', organiser)).data;
    expect(preview.formsVersion).toBe(index.version);
    expect(preview.changes).toEqual([{ kind: 'nowRequired', path: 'badges[].gender', title: 'forms.s04.gender' }]);
  });
});
