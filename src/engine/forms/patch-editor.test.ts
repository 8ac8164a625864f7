import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { flattenKeys, lookup, type LocaleTable } from '../i18n';
import { LANGUAGES } from '../language';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';
import type { FormDefinition } from './definitions';
import { checkForm } from './form-checks';
import { mergePatch } from './merge-patch';
import {
  addQuestion,
  createMergePatch,
  eventKeyPrefix,
  missingTranslations,
  moveQuestion,
  patchedFiles,
  problemsByQuestion,
  questionsOf,
  removeQuestion,
  routeOfPointer,
  setCondition,
  setHidden,
  setOptions,
  setRequired,
  setText,
  stringsToSave,
  draftStrings,
  ownKeys,
  setTexts,
  touchedReferences,
  type EditOutcome,
  type EditorForm,
  type Strings,
} from './patch-editor';
import { validateForm } from './validator';

// F11: the form editor's operations on an event's merge patch, on the real forms and locales: each
// answer is a patch that `npm run check`'s form checks accept, that the server's validator and
// rjsf read alike, and that keeps other events' strings untouched.

const ROOT = join(import.meta.dirname, '../../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
type Json = Record<string, any>;
const LOCALES: Record<string, LocaleTable> = Object.fromEntries(LANGUAGES.map((language) => [language, readJson(`locales/${language}.json`)]));
const FORM_LIST = parse(readFileSync(join(ROOT, 'schemas/forms/forms.yaml'), 'utf8')) as { forms: FormDefinition[]; showroom: unknown };
const UPLOAD_PURPOSES = Object.keys(PROJECT_UPLOADS);

/** The form's strings as the form set has them: full keys, per language. */
function knownStrings(formId: string): Strings {
  const known: Strings = {};
  for (const language of LANGUAGES) {
    const table = LOCALES[language]!;
    const forms = (table.forms as LocaleTable)[formId] as LocaleTable;
    known[language] = Object.fromEntries(flattenKeys(forms, `forms.${formId}.`).map((key) => [key, lookup(table, key)!]));
  }
  return known;
}

function formOf(formId: string, exhibitCode = 'TEST2027', patch: EditorForm['patch'] = null): EditorForm {
  return {
    formId,
    exhibitCode,
    base: { schema: readJson(`schemas/forms/${formId}.schema.json`), ui: readJson(`schemas/forms/${formId}.ui.json`) },
    patch,
    strings: {},
    known: knownStrings(formId),
  };
}

/** The form after an operation that must succeed. */
function next(form: EditorForm, outcome: EditOutcome): EditorForm {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code} ${JSON.stringify(outcome.error.params)}`);
  return { ...form, patch: outcome.patch, strings: outcome.strings };
}

/** The locale tables with the draft's strings added. */
function tablesWith(strings: Strings): Record<string, LocaleTable> {
  const tables = structuredClone(LOCALES);
  for (const language of LANGUAGES)
    for (const [key, text] of Object.entries(strings[language] ?? {})) {
      let node: any = tables[language];
      const parts = key.split('.');
      for (const part of parts.slice(0, -1)) node = node[part] ??= {};
      node[parts.at(-1)!] = text;
    }
  return tables;
}

/** The form checks of `npm run check` on the event's patched form. */
function problemsOf(form: EditorForm) {
  const files = patchedFiles(form.base, form.patch);
  return checkForm(
    { schemaFile: 'patch', schemaPrefix: '/schema', uiFile: 'patch', uiPrefix: '/ui' },
    form.formId,
    files.schema,
    files.ui,
    tablesWith(form.strings),
    PROJECT_UPLOADS,
  );
}

const all = (text: string) => ({ en: `${text} (en)`, cn: `${text} (cn)`, ja: `${text}（日本語）`, vi: `${text} (vi)` });
const badge = (extra: Json = {}) => ({ firstName: 'Aiko', lastName: 'Tanaka', email: 'aiko@example.com', ...extra });
const CONTEXT = { flags: {}, quotas: { badges: 10 } };

describe('F11 createMergePatch is the inverse of mergePatch (RFC 7386)', () => {
  it('removes with null, replaces arrays whole, leaves equal parts out', () => {
    const from = { a: 1, b: { c: [1, 2], d: 'x' }, e: { f: 1 } };
    const to = { a: 1, b: { c: [1], d: 'x' }, g: { h: true } };
    const patch = createMergePatch(from, to);
    expect(patch).toEqual({ b: { c: [1] }, e: null, g: { h: true } });
    expect(mergePatch(structuredClone(from), patch)).toEqual(to);
    expect(createMergePatch(from, structuredClone(from))).toBeUndefined();
  });
});

describe('F11 adding questions', () => {
  it('every kind the editor offers, to S01 of one event: the checks accept the patched form', () => {
    let form = formOf('s01');
    const kinds = [
      { id: 'halalCertified', kind: 'yesNo' },
      { id: 'employees', kind: 'number' },
      { id: 'founded', kind: 'date' },
      { id: 'story', kind: 'longText' },
      { id: 'tagline', kind: 'text' },
      { id: 'billingEmail', kind: 'email' },
      { id: 'origin', kind: 'country' },
      { id: 'certificate', kind: 'file', purpose: 'brochure' },
      { id: 'awards', kind: 'list' },
      {
        id: 'stand',
        kind: 'choice',
        options: [
          { code: 'corner', labels: all('Corner') },
          { code: 'inline', labels: all('Inline') },
        ],
      },
    ] as const;
    for (const question of kinds)
      form = next(form, addQuestion(form, { container: [], title: all(question.id), required: question.kind === 'text', ...question }, UPLOAD_PURPOSES));
    expect(problemsOf(form)).toEqual([]);
    expect(missingTranslations(form)).toEqual([]);
    const questions = questionsOf(patchedFiles(form.base, form.patch), form.base);
    expect(questions.slice(-kinds.length).map((question) => [question.id, question.kind, question.inBase])).toEqual(kinds.map((question) => [question.id, question.kind, false]));
    expect(questions.find((question) => question.id === 'tagline')?.required).toBe(true);
    // The new titles are this event's keys; the choice labels are keyed as the engine reads them.
    expect(form.strings.ja?.[`${eventKeyPrefix(form)}tagline.title`]).toBe('tagline（日本語）');
    expect(form.strings.en?.['forms.s01.enum.stand.corner']).toBe('Corner (en)');
    // Base arrays are sent whole: the new required list and order.
    expect(form.patch?.schema?.required).toEqual([...(readJson('schemas/forms/s01.schema.json').required ?? []), 'tagline']);
    // A list holds one text per item, and takes more questions like a section.
    form = next(form, addQuestion(form, { container: ['awards'], id: 'year', kind: 'number', title: all('Year') }));
    expect(questionsOf(patchedFiles(form.base, form.patch), form.base, ['awards']).map((question) => question.id)).toEqual(['item', 'year']);
    expect(problemsOf(form)).toEqual([]);
  });

  it('refuses a clashing or malformed id, a choice without options, an undeclared upload purpose, with codes', () => {
    const form = formOf('s04');
    const refusal = (outcome: EditOutcome) => (outcome.ok ? null : outcome.error);
    expect(refusal(addQuestion(form, { container: ['badges'], id: 'email', kind: 'text', title: all('x') }))).toEqual({ code: 'questionIdTaken', params: { id: 'email' } });
    expect(refusal(addQuestion(form, { container: ['badges'], id: 'Bad id', kind: 'text', title: all('x') }))?.code).toBe('questionIdInvalid');
    expect(refusal(addQuestion(form, { container: [], id: 'gender', kind: 'choice', title: all('x'), options: [{ code: 'a', labels: all('A') }] }))?.code).toBe('questionIdTaken');
    expect(refusal(addQuestion(form, { container: [], id: 'kind', kind: 'choice', title: all('x'), options: [] }))?.code).toBe('optionsMissing');
    expect(refusal(addQuestion(form, { container: [], id: 'doc', kind: 'file', title: all('x'), purpose: 'nope' }, UPLOAD_PURPOSES))?.code).toBe('uploadPurposeMissing');
    expect(refusal(addQuestion(form, { container: ['nowhere'], id: 'x', kind: 'text', title: all('x') }))?.code).toBe('containerMissing');
    // A field this event removed from the base form cannot come back as another question.
    const halal = formOf('s04', 'HALAL2026', readJson('schemas/events/HALAL2026/s04.patch.json'));
    expect(refusal(addQuestion(halal, { container: ['badges'], id: 'lastName', kind: 'number', title: all('x') }))?.code).toBe('questionIdTaken');
  });

  it('two events adding the same question get keys of their own; a missing translation is flagged by question', () => {
    const one = next(formOf('s04', 'AAA'), addQuestion(formOf('s04', 'AAA'), { container: ['badges'], id: 'dietary', kind: 'text', title: all('Diet') }));
    const other = formOf('s04', 'BBB');
    other.known = { ...other.known, en: { ...other.known.en, ...one.strings.en } };
    const two = next(other, addQuestion(other, { container: ['badges'], id: 'dietary', kind: 'text', title: { en: 'Diet' } }));
    expect(Object.keys(one.strings.en!)).not.toEqual(Object.keys(two.strings.en!));
    expect(missingTranslations(two)).toEqual([{ key: `${eventKeyPrefix(two)}badges_dietary.title`, route: ['badges', 'dietary'], languages: ['cn', 'ja', 'vi'] }]);
    // The translations panel fills one in; a base form's shared text is refused.
    const key = `${eventKeyPrefix(two)}badges_dietary.title`;
    expect(ownKeys(two)).toEqual([key]);
    const translated = next(two, setText(two, key, 'ja', '食事制限'));
    expect(missingTranslations(translated)[0]?.languages).toEqual(['cn', 'vi']);
    // Saved in full (the form set's strings with the event's over them) and read back as the event's own.
    const saved = stringsToSave(translated);
    expect(saved.ja[key]).toBe('食事制限');
    expect(saved.en['forms.s04.email']).toBe(LOCALES.en && lookup(LOCALES.en, 'forms.s04.email'));
    expect(draftStrings(translated.known, saved)).toEqual(translated.strings);
    const removed = next(translated, removeQuestion(translated, ['badges', 'dietary']));
    expect(stringsToSave({ ...removed, known: { ...removed.known, ja: saved.ja } }).ja[key]).toBeUndefined();
    const shared = setText(two, 'forms.s04.email', 'ja', 'メール');
    expect(shared.ok ? null : shared.error.code).toBe('sharedText');
  });
});

describe('F11 a required question with a condition and a Japanese title in S04 (the browser test’s case)', () => {
  let form = formOf('s04');
  form = next(
    form,
    addQuestion(form, { container: ['badges'], id: 'prayerRoom', kind: 'text', title: { ...all('Prayer room'), ja: '礼拝室の利用' }, required: true, after: 'lastNameFirst' }),
  );
  form = next(form, setCondition(form, ['badges', 'prayerRoom'], { on: 'lastNameFirst', equals: true }));
  const files = patchedFiles(form.base, form.patch);

  it('passes the form checks, with the condition in allOf and the fields listed by propertyNames', () => {
    expect(problemsOf(form)).toEqual([]);
    const items = files.schema.properties as Json;
    expect(items.badges.items.allOf).toEqual([
      { if: { required: ['lastNameFirst'], properties: { lastNameFirst: { const: true } } }, then: { properties: { prayerRoom: expect.any(Object) }, required: ['prayerRoom'] } },
    ]);
    expect(items.badges.items.additionalProperties).toBeUndefined();
    expect(items.badges.items.propertyNames.pattern).toContain('|prayerRoom)');
    expect(questionsOf(files, form.base, ['badges']).find((question) => question.id === 'prayerRoom')).toMatchObject({
      required: true,
      condition: { on: 'lastNameFirst', equals: true },
    });
    expect(form.strings.ja?.[`${eventKeyPrefix(form)}badges_prayerRoom.title`]).toBe('礼拝室の利用');
  });

  it('the server’s validator asks for it only when the condition holds, and still refuses unknown fields', () => {
    const errors = (item: Json) => validateForm(files.schema, { badges: [badge(item)] }, CONTEXT, PROJECT_UPLOADS).map((error) => `${error.path} ${error.key}`);
    expect(errors({ lastNameFirst: true })).toEqual(['/badges/0/prayerRoom validation.required']);
    expect(errors({ lastNameFirst: true, prayerRoom: 'Yes' })).toEqual([]);
    expect(errors({ lastNameFirst: false })).toEqual([]);
    expect(errors({ nickname: 'x' })).not.toEqual([]);
  });

  it('rjsf shows the question only when the condition holds', () => {
    const item = (files.schema.properties as Json).badges.items as RJSFSchema;
    const shown = (data: Json) => Object.keys(retrieveSchema(validator, item, files.schema as RJSFSchema, badge(data)).properties ?? {});
    expect(shown({ lastNameFirst: true })).toContain('prayerRoom');
    expect(shown({ lastNameFirst: false })).not.toContain('prayerRoom');
  });

  it('optional, required again, and the condition removed: back in properties, still passing the checks', () => {
    let changed = next(form, setRequired(form, ['badges', 'prayerRoom'], false));
    expect(questionsOf(patchedFiles(changed.base, changed.patch), changed.base, ['badges']).find((question) => question.id === 'prayerRoom')?.required).toBe(false);
    changed = next(changed, setRequired(changed, ['badges', 'prayerRoom'], true));
    changed = next(changed, setCondition(changed, ['badges', 'prayerRoom'], null));
    const items = (patchedFiles(changed.base, changed.patch).schema.properties as Json).badges.items;
    expect(items.allOf).toBeUndefined();
    expect(items.additionalProperties).toBe(false);
    expect(items.required).toContain('prayerRoom');
    expect(problemsOf(changed)).toEqual([]);
  });

  it('refuses a condition on a missing question, on itself, or with a value the answer cannot have', () => {
    const code = (outcome: EditOutcome) => (outcome.ok ? null : outcome.error.code);
    expect(code(setCondition(form, ['badges', 'email'], { on: 'nothing', equals: 'x' }))).toBe('conditionTargetMissing');
    expect(code(setCondition(form, ['badges', 'email'], { on: 'email', equals: 'x' }))).toBe('conditionOnItself');
    expect(code(setCondition(form, ['badges', 'email'], { on: 'gender', equals: 'other' }))).toBe('conditionValueInvalid');
    expect(code(setCondition(form, ['badges', 'email'], { on: 'lastNameFirst', equals: 'yes' }))).toBe('conditionValueInvalid');
  });

  it('removing the question takes it out of the condition, properties, required and ui:order together', () => {
    const removed = next(form, removeQuestion(form, ['badges', 'prayerRoom']));
    expect(removed.patch).toEqual({});
    expect(removed.strings).toEqual({ en: {}, cn: {}, ja: {}, vi: {} });
  });
});

describe('F11 changing questions of the base form', () => {
  it('removing one sends the new required list and order whole, and is what HALAL2026’s patch says', () => {
    let form = formOf('s04', 'HALAL2026');
    form = next(form, removeQuestion(form, ['badges', 'lastName']));
    form = next(form, removeQuestion(form, ['badges', 'lastNameFirst']));
    const items = (form.patch!.schema as Json).properties.badges.items;
    expect(items.properties).toEqual({ lastName: null, lastNameFirst: null });
    expect(items.required).toEqual(['firstName', 'email']);
    expect((form.patch!.ui as Json).badges.items['ui:order']).toEqual(['firstName', 'middleName', 'companyOnBadge', 'gender', 'email', 'extra']);
  });

  it('hiding keeps the field and its answers, never required; shown again restores the form', () => {
    const form = formOf('s04');
    const hidden = next(form, setHidden(form, ['badges', 'lastName'], true));
    const files = patchedFiles(hidden.base, hidden.patch);
    expect(((files.schema.properties as Json).badges.items.required as string[]).includes('lastName')).toBe(false);
    expect((files.ui as Json).badges.items.lastName['ui:field']).toBe('hidden');
    expect(questionsOf(files, hidden.base, ['badges']).find((question) => question.id === 'lastName')?.hidden).toBe(true);
    expect(problemsOf(hidden)).toEqual([]);
    const shown = next(hidden, setHidden(hidden, ['badges', 'lastName'], false));
    expect(next(shown, setRequired(shown, ['badges', 'lastName'], true)).patch).toEqual({});
  });

  it('a new title and help for a base question get this event’s keys; the shared keys stay', () => {
    let form = formOf('s04');
    form = next(form, setTexts(form, ['badges', 'firstName'], { title: all('Full name'), help: all('As on the passport') }));
    form = next(form, setTexts(form, ['badges', 'firstName'], { title: { ...all('Full name'), ja: '氏名' } }));
    const files = patchedFiles(form.base, form.patch);
    const firstName = questionsOf(files, form.base, ['badges']).find((question) => question.id === 'firstName')!;
    expect(firstName.title).toBe(`${eventKeyPrefix(form)}badges_firstName.title`);
    expect(firstName.help).toBe(`${eventKeyPrefix(form)}badges_firstName.help`);
    expect(form.strings.ja?.[firstName.title!]).toBe('氏名');
    expect(Object.keys(form.strings.en!).sort()).toEqual([firstName.help, firstName.title].sort());
    expect(problemsOf(form)).toEqual([]);
  });

  it('options: new ones take labels, shared ones keep theirs; a repeated code is refused', () => {
    let form = formOf('s04');
    form = next(
      form,
      setOptions(
        form,
        ['badges', 'gender'],
        [
          { code: 'male', labels: {} },
          { code: 'female', labels: {} },
          { code: 'other', labels: all('Other') },
        ],
      ),
    );
    expect(Object.keys(form.strings.en!)).toEqual(['forms.s04.enum.gender.other']);
    expect(problemsOf(form)).toEqual([]);
    const repeated = setOptions(
      form,
      ['badges', 'gender'],
      [
        { code: 'male', labels: {} },
        { code: 'male', labels: {} },
      ],
    );
    expect(repeated.ok ? null : repeated.error.code).toBe('optionCodeRepeated');
  });

  it('reordering lists every question of the object in the new order', () => {
    const form = next(formOf('s04'), moveQuestion(formOf('s04'), ['badges', 'email'], 0));
    expect(questionsOf(patchedFiles(form.base, form.patch), form.base, ['badges']).map((question) => question.id)).toEqual([
      'email',
      'firstName',
      'middleName',
      'lastName',
      'lastNameFirst',
      'companyOnBadge',
      'gender',
      'extra',
    ]);
    expect(problemsOf(form)).toEqual([]);
  });
});

describe('F11 forms.yaml names a field the change removes (issue item 5)', () => {
  const s04 = FORM_LIST.forms.findIndex((definition) => definition.id === 's04');
  const definition = FORM_LIST.forms[s04]!;
  const touched = (form: EditorForm) => touchedReferences(definition, s04, form.base, patchedFiles(form.base, form.patch), FORM_LIST.showroom);

  it('says which declaration names it and whether optional: can excuse it; hiding touches nothing', () => {
    const form = formOf('s04');
    const noFee = next(form, removeQuestion(form, ['badges', 'extra']));
    expect(touched(noFee).map(({ route, at, optionable }) => ({ route, at, optionable }))).toEqual([
      { route: ['badges', 'extra'], at: '/forms/3/approval/flag', optionable: false },
      { route: ['badges', 'extra'], at: '/forms/3/fee/flag', optionable: false },
    ]);
    const noMiddle = next(form, removeQuestion(form, ['badges', 'middleName']));
    expect(touched(noMiddle)).toEqual([{ route: ['badges', 'middleName'], at: '/forms/3/approvalSummary/0/show/1', name: 'badges.middleName', optional: false, optionable: true }]);
    const noLast = next(form, removeQuestion(form, ['badges', 'lastName']));
    expect(touched(noLast)).toMatchObject([{ name: 'badges.lastName', optional: true }]);
    expect(touched(next(form, setHidden(form, ['badges', 'extra'], true)))).toEqual([]);
  });

  it('the server’s problems are grouped by the question their pointer names', () => {
    expect(routeOfPointer('/schema/properties/badges/items/properties/lastName')).toEqual(['badges', 'lastName']);
    expect(routeOfPointer('/schema/properties/badges/items/allOf/0/then/properties/prayerRoom/title')).toEqual(['badges', 'prayerRoom']);
    expect(routeOfPointer('/ui/badges/items/ui:order/3')).toEqual(['badges']);
    expect(routeOfPointer('/schema/required/0')).toBeNull();
    const grouped = problemsByQuestion([
      { file: 'p', path: '/schema/properties/badges/items/properties/extra', message: 'a' },
      { file: 'p', path: '/schema/title', message: 'b' },
    ]);
    expect([...grouped.keys()]).toEqual(['badges.extra', '']);
  });
});
