import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { firstSheet } from '../support/xlsx';
import { createTestApp, ENGINES, login, type TestApp } from './helpers';

// A question an event patch adds to a form is titled, in the organiser's submissions
// export, with the form set's own strings in the reader's language, never with its locale key.

type Json = Record<string, any>;

const DIETARY = { en: 'Dietary requirements', cn: '饮食要求', ja: '食事の制限', vi: 'Yêu cầu ăn uống' } as const;

describe.each(ENGINES)('submissions export of an event-patched form on %s', (engine) => {
  let t: TestApp;
  let root: string;
  let organiser: string;

  beforeAll(async () => {
    // A copy of the project's forms and locales: the repository is never written to.
    root = mkdtempSync(join(tmpdir(), 'portal-patched-export-'));
    const formsDir = join(root, 'schemas');
    cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    const ui = JSON.parse(readFileSync(join(formsDir, 'forms', 's04.ui.json'), 'utf8')) as Json;
    const order = [...(ui.badges.items['ui:order'] as string[]), 'dietary'];
    mkdirSync(join(formsDir, 'events', 'AFHE2027'), { recursive: true });
    writeFileSync(
      join(formsDir, 'events', 'AFHE2027', 's04.patch.json'),
      JSON.stringify({
        schema: { properties: { badges: { items: { properties: { dietary: { type: 'string', maxLength: 200, title: 'forms.s04.dietary' } } } } } },
        ui: { badges: { items: { 'ui:order': order } } },
      }),
    );
    for (const [language, text] of Object.entries(DIETARY)) {
      const file = join(root, 'locales', `${language}.json`);
      const table = JSON.parse(readFileSync(file, 'utf8')) as Json;
      table.forms.s04.dietary = text;
      writeFileSync(file, JSON.stringify(table, null, 2));
    }
    t = await createTestApp(engine, { formsDir });
    organiser = await login(t.app, 'organiser');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the added question’s column is titled in the organiser’s language, not with its key', async () => {
    for (const language of ['en', 'ja'] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/oga/organiser/submissions/s04/export',
        headers: { authorization: `Bearer ${organiser}`, 'accept-language': language },
      });
      expect(response.statusCode).toBe(200);
      const { header } = await firstSheet(response.rawPayload);
      expect(header).toContain(DIETARY[language]);
      expect(header.join(' ')).not.toContain('forms.s04');
    }
  });
});
