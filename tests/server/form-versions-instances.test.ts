import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EVENT_CODE } from '../../src/server/db/seed';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { createTestApp, eventually, get, login, post, put, type TestApp } from './helpers';

// F11: instances share only PostgreSQL, never a folder. Each instance here reads its own copy of
// the forms; a publish on one is served by the other (NOTIFY, with the poll behind it), and
// instances starting together with changed files import them once.

type Json = Record<string, any>;

function copyOfForms(): { root: string; formsDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'portal-form-instances-'));
  const formsDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
  cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
  return { root, formsDir };
}

describe('form set versions across instances (postgres)', () => {
  const copies = [copyOfForms(), copyOfForms(), copyOfForms(), copyOfForms()];
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp('postgres', { formsDir: copies[0]!.formsDir }, { watchForms: true });
    second = await createTestApp('postgres', { formsDir: copies[1]!.formsDir, databaseUrl: first.config.databaseUrl }, { watchForms: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    for (const copy of copies) rmSync(copy.root, { recursive: true, force: true });
  });

  const versionCount = async () =>
    Number(
      (
        await first.app.db
          .selectFrom('form_set_versions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a second instance with the same files adds no version', async () => {
    expect(await versionCount()).toBe(1);
    expect(second.app.forms.status().number).toBe(1);
    expect(second.app.forms.current().version).toBe(first.app.forms.current().version);
  });

  it('serves a change published on another instance, without a shared folder', async () => {
    const organiser = await login(first.app, 'organiser');
    const eventId = (await first.app.db.selectFrom('events').select('id').where('code', '=', DEMO_EVENT_CODE).executeTakeFirstOrThrow()).id;
    const editor = `/oga/organiser/form-editor/${eventId}/s01`;
    const opened = (await get(first.app, editor, organiser)).data;
    // A narrower rule on S01's company name for the demo event: the patch keeps the event's own changes.
    const patch = structuredClone(opened.patch) as Json;
    patch.schema.properties.company.properties.companyName = { maxLength: 7 };
    const saved = await put(first.app, `${editor}/draft`, { basedOn: opened.version.number, patch, strings: opened.strings }, organiser);
    expect(saved.data.problems).toEqual([]);
    const published = await post(first.app, `${editor}/publish`, { basedOn: opened.version.number, comment: 'shorter names', submissions: 'keep' }, organiser);
    expect(published.status).toBe(200);

    const exhibitor = await login(second.app, 'demo');
    const served = await eventually(
      async () => (await get(second.app, '/oga/forms/s01', exhibitor)).data as Json,
      (form) => form.schema.properties.company.properties.companyName.maxLength === 7,
    );
    expect(served.formsVersion).toBe(first.app.forms.current().version);
    expect(second.app.forms.status().number).toBe(published.data.version.number);
    // The second instance's folder was never written.
    expect(readFileSync(join(copies[1]!.formsDir, 'forms', 's01.schema.json'), 'utf8')).toBe(readFileSync(join(SCHEMAS_DIR, 'forms', 's01.schema.json'), 'utf8'));
  });

  it('instances starting together with changed files import them once', async () => {
    const before = await versionCount();
    for (const copy of copies.slice(2)) {
      const file = join(copy.formsDir, 'forms', 's04.schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Json;
      schema.properties.badges.items.properties.firstName.maxLength = 60;
      writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    }
    const [third, fourth] = await Promise.all(
      copies.slice(2).map((copy) => createTestApp('postgres', { formsDir: copy.formsDir, databaseUrl: first.config.databaseUrl }, { watchForms: false })),
    );
    try {
      expect(await versionCount()).toBe(before + 1);
      expect(third!.app.forms.status().number).toBe(before + 1);
      expect(fourth!.app.forms.status().number).toBe(before + 1);
      // The running instances follow.
      await eventually(
        async () => first.app.forms.current().filesFor('s04', DEMO_EVENT_CODE).schema.properties.badges.items.properties.firstName.maxLength,
        (maxLength) => maxLength === 60,
      );
    } finally {
      await third?.close();
      await fourth?.close();
    }
  });
});
