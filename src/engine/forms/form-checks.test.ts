import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocaleTable } from '../i18n';
import { checkForm as checkFormWith } from './form-checks';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';

// F11: each organiser mistake in a form is found, with its file and the JSON
// pointer of the place to fix. Each case takes a real form (S03: an if/then on the contractor
// type) and the real locale tables, and makes one mistake.

const ROOT = join(import.meta.dirname, '../../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
type Json = Record<string, any>;

const LOCALES: Record<string, LocaleTable> = Object.fromEntries(['en', 'cn', 'ja', 'vi'].map((language) => [language, readJson(`locales/${language}.json`)]));
const FILES = { schemaFile: 'forms/s03.schema.json', uiFile: 'forms/s03.ui.json' };
const s03 = (): { schema: Json; ui: Json } => ({ schema: readJson('schemas/forms/s03.schema.json'), ui: readJson('schemas/forms/s03.ui.json') });
/** The locale tables with `key` removed from one language. */
function withoutKey(language: string, key: string): Record<string, LocaleTable> {
  const tables = structuredClone(LOCALES);
  const parts = key.split('.');
  let node: any = tables[language];
  for (const part of parts.slice(0, -1)) node = node[part];
  delete node[parts.at(-1)!];
  return tables;
}
/** The locale tables with `key` set to `text` in every language. */
function withKey(key: string, text: string): Record<string, LocaleTable> {
  const tables = structuredClone(LOCALES);
  for (const table of Object.values(tables)) {
    let node: any = table;
    for (const part of key.split('.').slice(0, -1)) node = node[part] ??= {};
    node[key.split('.').at(-1)!] = text;
  }
  return tables;
}
/** The project's upload purposes (forms.yaml `uploads:`): every case checks with them. */
const UPLOADS = PROJECT_UPLOADS;
const checkForm = (...args: Parameters<typeof checkFormWith>) => checkFormWith(args[0], args[1], args[2], args[3], args[4], args[5] ?? UPLOADS);
const where = (problems: ReturnType<typeof checkForm>) => problems.map((problem) => `${problem.file} ${problem.path}`);

describe('F11 form checks: the file and JSON pointer of each organiser mistake', () => {
  it('the real form has no problems (every case below starts from it)', () => {
    const { schema, ui } = s03();
    expect(checkForm(FILES, 's03', schema, ui, LOCALES)).toEqual([]);
  });

  it('an unknown keyword, at the top or inside then', () => {
    const { schema, ui } = s03();
    schema.properties.boothHeight.maxumum = 3;
    schema.then.requird = ['x'];
    const problems = checkForm(FILES, 's03', schema, ui, LOCALES);
    expect(where(problems)).toEqual(['forms/s03.schema.json /properties/boothHeight/maxumum', 'forms/s03.schema.json /then/requird']);
    expect(problems[0]!.message).toContain('unknown keyword "maxumum"');
  });

  it('a known keyword with a wrong value', () => {
    const { schema, ui } = s03();
    schema.properties.boothHeight.type = 'nmber';
    expect(where(checkForm(FILES, 's03', schema, ui, LOCALES))).toEqual(['forms/s03.schema.json /properties/boothHeight/type']);
  });

  it('a field removed from properties but still required: at the top, inside then, allOf and list items', () => {
    const { schema, ui } = s03();
    delete schema.properties.boothHeight;
    schema.required = ['boothHeight'];
    schema.then.required.push('greenCardColour');
    schema.allOf = [{ required: ['boothWidth'] }];
    schema.properties.contractor.required = ['company', 'vatNumber'];
    ui['ui:order'] = [...ui['ui:order'].filter((name: string) => name !== 'boothHeight')];
    const problems = checkForm(FILES, 's03', schema, ui, LOCALES);
    expect(where(problems)).toEqual([
      'forms/s03.schema.json /required/0',
      'forms/s03.schema.json /then/required/2',
      'forms/s03.schema.json /allOf/0/required/0',
      'forms/s03.schema.json /properties/contractor/required/1',
    ]);
    expect(problems[0]!.message).toContain('"boothHeight" is required but is not a property of the form');
  });

  it('a field required in then that then defines itself, or its object defines, is fine', () => {
    const { schema, ui } = s03();
    schema.then.properties = { greenCardColour: { type: 'string', title: 'forms.s03.greenCardNumber' } };
    schema.then.required.push('greenCardColour');
    ui['ui:order'].push('greenCardColour');
    expect(checkForm(FILES, 's03', schema, ui, LOCALES)).toEqual([]);
  });

  it('ui:order naming a missing field, and ui:order without "*" leaving a field out (rjsf could not render)', () => {
    const { schema, ui } = s03();
    ui['ui:order'] = ['contractor', 'contractorType', 'greenCardNumbr', 'greenCardExpiry', 'boothDesign', 'boothHeight'];
    ui.contractor['ui:order'].push('vatNumber');
    const problems = checkForm(FILES, 's03', schema, ui, LOCALES);
    expect(where(problems)).toEqual(['forms/s03.ui.json /ui:order/2', 'forms/s03.ui.json /ui:order', 'forms/s03.ui.json /contractor/ui:order/12']);
    expect(problems[1]!.message).toContain('"greenCardNumber"');
  });

  it('a title missing in one language, for a field defined only inside then', () => {
    const { schema, ui } = s03();
    schema.then.properties = { greenCardColour: { type: 'string', title: 'forms.s03.greenCardColour' } };
    ui['ui:order'].push('greenCardColour');
    const tables = withoutKey('vi', 'forms.s03.greenCardColour');
    const present = withKey('forms.s03.greenCardColour', 'Green card colour');
    expect(checkForm(FILES, 's03', schema, ui, present)).toEqual([]);
    const problems = checkForm(
      FILES,
      's03',
      schema,
      ui,
      Object.fromEntries(Object.entries(present).map(([language, table]) => [language, language === 'vi' ? tables.vi! : table])),
    );
    expect(problems).toEqual([
      { file: 'forms/s03.schema.json', path: '/then/properties/greenCardColour/title', message: 'title key "forms.s03.greenCardColour" missing in locales/vi.json' },
    ]);
  });

  it('an enum label missing in one language (inside else too)', () => {
    const { schema, ui } = s03();
    const code = schema.properties.contractorType.enum[0];
    expect(where(checkForm(FILES, 's03', schema, ui, withoutKey('ja', `forms.s03.enum.contractorType.${code}`)))).toEqual([
      'forms/s03.schema.json /properties/contractorType/enum/0',
    ]);
    schema.else = { properties: { standType: { type: 'string', enum: ['shell'], title: 'forms.s03.contractorType' } } };
    ui['ui:order'].push('standType');
    expect(where(checkForm(FILES, 's03', schema, ui, LOCALES))).toEqual(['forms/s03.schema.json /else/properties/standType/enum/0']);
  });

  it('a help text key of the UI schema missing in one language', () => {
    const { schema, ui } = s03();
    expect(where(checkForm(FILES, 's03', schema, ui, withoutKey('cn', ui.contractorType['ui:help'])))).toEqual(['forms/s03.ui.json /contractorType/ui:help']);
  });

  it('the message a rule shows missing in one language (a rule no form used before, or a minItemsMessage)', () => {
    const { schema, ui } = s03();
    schema.properties.boothHeight.multipleOf = 0.01;
    const problems = checkForm(FILES, 's03', schema, ui, LOCALES);
    expect(problems).toEqual([
      { file: 'forms/s03.schema.json', path: '/properties/boothHeight/multipleOf', message: expect.stringContaining('message "validation.multipleOf" missing in locales/en.json') },
    ]);
    delete schema.properties.boothHeight.multipleOf;
    // Named once, at the first rule that would show it (the uploaded file's size here).
    expect(checkForm(FILES, 's03', schema, ui, withoutKey('vi', 'validation.minimum'))).toEqual([
      { file: 'forms/s03.schema.json', path: '/properties/boothDesign/properties/size/minimum', message: 'message "validation.minimum" missing in locales/vi.json' },
    ]);
    schema.properties.products = { type: 'array', items: { type: 'string', title: 'forms.s03.boothHeight' }, minItems: 1, minItemsMessage: 'atLeastOneBooth' };
    ui['ui:order'].push('products');
    expect(where(checkForm(FILES, 's03', schema, ui, LOCALES))).toEqual(['forms/s03.schema.json /properties/products/minItemsMessage']);
  });

  it('an unknown file purpose', () => {
    const { schema, ui } = s03();
    schema.properties.boothDesign.file = 'boothDrawing';
    expect(checkForm(FILES, 's03', schema, ui, LOCALES)).toEqual([
      {
        file: 'forms/s03.schema.json',
        path: '/properties/boothDesign/file',
        message: expect.stringMatching(/^unknown file purpose "boothDrawing" \(forms.yaml uploads: .*boothDesign/),
      },
    ]);
  });

  it('a purpose declared in forms.yaml uploads: is known, and only then', () => {
    const { schema, ui } = s03();
    schema.properties.boothDesign.file = 'boothDrawing';
    expect(checkForm(FILES, 's03', schema, ui, LOCALES, { ...UPLOADS, boothDrawing: { types: ['pdf'], maxBytes: 1024 } })).toEqual([]);
    expect(where(checkForm(FILES, 's03', schema, ui, LOCALES, {}))).toEqual(['forms/s03.schema.json /properties/boothDesign/file']);
  });

  it('an event patch: the problems of the patched form point into the patch file', () => {
    const { schema, ui } = s03();
    delete schema.properties.boothHeight;
    const patchFiles = { schemaFile: 'events/AFHE2027/s03.patch.json', schemaPrefix: '/schema', uiFile: 'events/AFHE2027/s03.patch.json', uiPrefix: '/ui' };
    expect(checkForm(patchFiles, 's03', schema, ui, LOCALES)).toEqual([
      { file: 'events/AFHE2027/s03.patch.json', path: '/ui/ui:order/5', message: '"boothHeight" is not a field of the form here' },
    ]);
  });
});
