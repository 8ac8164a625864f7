import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/server/lib/messages';
import { SCHEMAS_DIR } from '../../src/server/plugins/forms/form-set';
import { concat, jpegJfif, pixelsPerMetre, png } from '../support/fixtures';
import { multipart } from '../support/multipart';
import { addParkingForm } from '../support/new-form';
import { createTestApp, ENGINES, get, login, post, type TestApp } from './helpers';

// V2 V3: upload purposes are data. An organiser declares a new purpose in
// forms.yaml `uploads:` and names it from a form's file field; the running portal accepts uploads
// for it, checks them by that declaration (type, size, dpi: refusals in the caller's language),
// serves the rule with the form for the browser's own check, and validates the reference on submit.
// Nothing in TypeScript knows the purpose.

type Json = Record<string, any>;
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** The new purpose: a scan of the parking permit, PNG only, at most half a megabyte, at least 150 dpi. */
const PERMIT = { name: 'parkingPermit', declaration: '  parkingPermit: { types: [png], maxMegabytes: 0.5, minDpi: 150 }\n' };

async function uploadAs(app: FastifyInstance, token: string, purpose: string, filename: string, bytes: Uint8Array, language = 'en') {
  const { payload, contentType } = multipart([
    { name: 'purpose', value: purpose },
    { name: 'file', filename, bytes },
  ]);
  const response = await app.inject({ method: 'POST', url: '/oga/uploads', payload, headers: { 'content-type': contentType, authorization: `Bearer ${token}`, language } });
  return response.json() as { code: number; msg: string; data: any; error?: string };
}

describe.each(ENGINES)('forms as data: upload purposes on %s', (engine) => {
  let t: TestApp;
  let root: string;
  let demo: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'portal-upload-purposes-'));
    const formsDir = join(root, 'schemas');
    cpSync(SCHEMAS_DIR, formsDir, { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'locales'), join(root, 'locales'), { recursive: true });
    cpSync(join(SCHEMAS_DIR, '..', 'screens.yaml'), join(root, 'screens.yaml'));
    t = await createTestApp(engine, { formsDir });
    demo = await login(t.app, 'demo');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a purpose nobody declared is refused as a bad request', async () => {
    const answer = await uploadAs(t.app, demo, PERMIT.name, 'permit.png', png({ pixelsPerMetre: pixelsPerMetre(300) }));
    expect(answer).toMatchObject({ error: 'badRequest' });
    expect(await t.app.db.selectFrom('uploads').select('id').where('purpose', '=', PERMIT.name).execute()).toEqual([]);
  });

  it('a form field naming an undeclared purpose is refused whole, at its path', () => {
    addParkingForm(root);
    const schemaFile = join(root, 'schemas', 'forms', 's09.schema.json');
    const schema = readJson(schemaFile);
    schema.properties.permit = { type: 'object', file: PERMIT.name };
    writeJson(schemaFile, schema);
    writeJson(join(root, 'schemas', 'forms', 's09.ui.json'), { 'ui:order': ['plate', 'permit'], permit: { 'ui:field': 'upload' } });
    const result = t.app.forms.reload('test');
    expect(result.changed).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ file: 'forms/s09.schema.json', path: '/properties/permit/file', message: expect.stringContaining(`unknown file purpose "${PERMIT.name}"`) }),
    ]);
  });

  it('declared in forms.yaml, the purpose is accepted at once and judged by its declaration, refusals translated', async () => {
    const list = join(root, 'schemas', 'forms', 'forms.yaml');
    writeFileSync(list, readFileSync(list, 'utf8').replace(/\nuploads:\n/, `\nuploads:\n${PERMIT.declaration}`));
    expect(t.app.forms.reload('test')).toMatchObject({ changed: true, problems: [] });

    const accepted = await uploadAs(t.app, demo, PERMIT.name, 'permit.png', png({ pixelsPerMetre: pixelsPerMetre(300) }));
    expect(accepted).toMatchObject({ code: 200, data: { name: 'permit.png', type: 'png', dpi: 300 } });
    const row = await t.app.db.selectFrom('uploads').select(['purpose']).where('id', '=', accepted.data.id).executeTakeFirstOrThrow();
    expect(row.purpose).toBe(PERMIT.name);

    const wrongType = await uploadAs(t.app, demo, PERMIT.name, 'permit.jpg', jpegJfif(300), 'ja');
    expect(wrongType).toMatchObject({ code: 601, error: 'fileRejected', msg: translate('ja', 'validation.file.type', { types: 'PNG' }) });
    expect(wrongType.msg).toContain('PNG');
    const lowDpi = await uploadAs(t.app, demo, PERMIT.name, 'permit.png', png({ pixelsPerMetre: pixelsPerMetre(72) }), 'vi');
    expect(lowDpi).toMatchObject({ code: 601, msg: translate('vi', 'validation.file.dpi', { limit: 150, dpi: 72 }) });
    const tooLarge = await uploadAs(t.app, demo, PERMIT.name, 'permit.png', concat(png({ pixelsPerMetre: pixelsPerMetre(300) }), new Uint8Array(600 * 1024)), 'cn');
    expect(tooLarge).toMatchObject({ code: 601, msg: translate('cn', 'validation.file.tooLarge', { limit: 0.5 }) });
    expect(tooLarge.data.problems).toEqual([{ key: 'validation.file.tooLarge', params: { limit: 0.5 } }]);
  });

  it("the form serves the purpose's rule and the server validates the reference by it on submit", async () => {
    const form = (await get(t.app, '/oga/forms/s09', demo)).data as Json;
    expect(form.uploads).toEqual({ [PERMIT.name]: { types: ['png'], maxBytes: 0.5 * 1024 * 1024, minDpi: 150 } });

    const permit = (await uploadAs(t.app, demo, PERMIT.name, 'permit.png', png({ pixelsPerMetre: pixelsPerMetre(200) }))).data;
    // A file uploaded for another purpose cannot stand in for the permit, even when it would pass its rules.
    const other = (await uploadAs(t.app, demo, 'passportPhoto', 'photo.png', png({ pixelsPerMetre: pixelsPerMetre(200) }))).data;
    const borrowed = await post(t.app, '/oga/forms/s09/submit', { data: { plate: 'WXY 1234', permit: other }, version: 0 }, demo);
    expect(borrowed.error).toBe('validationFailed');
    expect(borrowed.data.errors).toEqual([expect.objectContaining({ path: '/permit', key: 'validation.file.unknown' })]);
    const submitted = await post(t.app, '/oga/forms/s09/submit', { data: { plate: 'WXY 1234', permit }, version: 0 }, demo);
    expect(submitted).toMatchObject({ code: 200 });
  });

  it('a purpose name that is the portal’s own, or an unknown key in a declaration, is refused with its path', () => {
    const list = join(root, 'schemas', 'forms', 'forms.yaml');
    const good = readFileSync(list, 'utf8');
    try {
      writeFileSync(list, good.replace(/\nuploads:\n/, '\nuploads:\n  businessCard: { types: [png], maxMegabytes: 1 }\n  flyer: { types: [pdf], maxMegabyte: 1 }\n'));
      const result = t.app.forms.reload('test');
      expect(result.changed).toBe(false);
      expect(result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/uploads\/businessCard: .*portal's own/),
          '/uploads/flyer/maxMegabyte: unknown key "maxMegabyte"',
          '/uploads/flyer/maxMegabytes: required key missing',
        ]),
      );
    } finally {
      writeFileSync(list, good);
      t.app.forms.reload('test');
    }
  });
});
