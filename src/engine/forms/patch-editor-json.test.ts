import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';
import { PATCH_TEXT_LIMIT, patchFileSchema, readPatchText } from './patch-editor-json';

// F11: the "Edit as JSON" tab's schema of a patch file (completion and marks as one types) and the
// reading of pasted text.

const ROOT = join(import.meta.dirname, '../../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const base = (formId: string) => ({ schema: readJson(`schemas/forms/${formId}.schema.json`), ui: readJson(`schemas/forms/${formId}.ui.json`) });

// Compiling the patch schemas with ajv takes seconds on a busy machine (the browser's editor interprets them instead).
describe('F11 patch file schema', { timeout: 60_000 }, () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(patchFileSchema(base('s04'), Object.keys(PROJECT_UPLOADS)));

  it('accepts the real event patches', () => {
    expect(validate(readJson('schemas/events/HALAL2026/s04.patch.json'))).toBe(true);
    const s01 = new Ajv({ strict: false }).compile(patchFileSchema(base('s01'), Object.keys(PROJECT_UPLOADS)));
    expect(s01(readJson('schemas/events/AFHE2027/s01.patch.json'))).toBe(true);
  });

  it('marks a misspelt keyword, an undeclared upload purpose and an unknown top-level key', () => {
    expect(validate({ schema: { properties: { badges: { items: { properties: { email: { maxLenght: 3 } } } } } } })).toBe(false);
    expect(validate({ schema: { properties: { photo: { type: 'object', file: 'selfie' } } } })).toBe(false);
    expect(validate({ schema: { properties: { photo: { type: 'object', file: 'passportPhoto' } } } })).toBe(true);
    expect(validate({ schemas: {} })).toBe(false);
  });
});

describe('F11 reading the JSON tab', () => {
  it('a patch, malformed JSON, something else, too large', () => {
    expect(readPatchText('{"schema":{"properties":{"a":null}}}')).toEqual({ ok: true, patch: { schema: { properties: { a: null } } } });
    expect(readPatchText('{"schema":')).toMatchObject({ ok: false, code: 'patchNotJson' });
    expect(readPatchText('[1]')).toMatchObject({ ok: false, code: 'patchNotObject' });
    expect(readPatchText('{"schema":[]}')).toMatchObject({ ok: false, code: 'patchNotObject' });
    expect(readPatchText(' '.repeat(PATCH_TEXT_LIMIT + 1))).toMatchObject({ ok: false, code: 'patchTooLarge' });
  });
});
