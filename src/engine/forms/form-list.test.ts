import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_LIST_FILE, loadFormList } from './form-list';

// F11: forms.yaml's one loader refuses what its JSON Schema does not allow and
// what a schema cannot say, each problem with forms.yaml's JSON pointer.

const TEXT = readFileSync(join(import.meta.dirname, '../../../schemas/forms/forms.yaml'), 'utf8');
const problemsOf = (text: string) => loadFormList(text).problems;
/** The project's forms.yaml with one line changed (the line must exist: the case must be real). */
function changed(from: string, to: string): string {
  expect(TEXT).toContain(from);
  return TEXT.replace(from, to);
}
const indexOf = (id: string) => (loadFormList(TEXT).list?.forms ?? []).findIndex((form) => form.id === id);

describe('F11 forms.yaml loader', () => {
  it("loads the project's forms.yaml into typed declarations, the same from text or parsed value", () => {
    const loaded = loadFormList(TEXT);
    expect(loaded.problems).toEqual([]);
    expect(loaded.list!.forms.map((form) => form.code)).toContain('S04');
    expect(loadFormList(loaded.list).list).toEqual(loaded.list);
  });

  it('a typo in a key (aproval:) is refused where it is, not ignored', () => {
    expect(problemsOf(changed('    approval: { when: always }', '    aproval: { when: always }'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('vip')}/aproval`, message: 'unknown key "aproval"' },
    ]);
  });

  it('an unknown key inside a declaration (a fee, a part, the showroom)', () => {
    expect(problemsOf(changed("price: '10.00'", "prize: '10.00'"))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s04')}/fee/price`, message: 'required key missing' },
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s04')}/fee/prize`, message: 'unknown key "prize"' },
    ]);
    expect(problemsOf(changed('        filledBy:', '        filedBy:')).map((problem) => problem.path)).toEqual([
      `/forms/${indexOf('s03')}/parts/0/filledBy`,
      `/forms/${indexOf('s03')}/parts/0/filedBy`,
    ]);
    expect(problemsOf(changed('      logo: /company/logo', '      logo: /company/logo\n      colour: /company/colour'))).toEqual([
      { file: FORM_LIST_FILE, path: '/showroom/company/fields/colour', message: 'unknown key "colour"' },
    ]);
  });

  it('an approval rule of an unknown kind, or missing what its kind needs', () => {
    expect(problemsOf(changed('when: above', 'when: over'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s03')}/approval/when`, message: 'must be one of always, anyItemFlag, above' },
    ]);
    expect(problemsOf(changed(', limit: 2.44', ''))).toEqual([{ file: FORM_LIST_FILE, path: `/forms/${indexOf('s03')}/approval/limit`, message: 'required key missing' }]);
  });

  it('a deadline that does not exist', () => {
    expect(problemsOf(changed('deadline: profile', 'deadline: profil'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s01')}/deadline`, message: 'must be one of badges, booth, product, profile (the names under /deadlines)' },
    ]);
  });

  it('a form code or id used twice, and a prerequisite naming no form', () => {
    expect(problemsOf(changed('code: S05', 'code: S04'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s05')}/code`, message: `"S04" is already the code of /forms/${indexOf('s04')}` },
    ]);
    expect(problemsOf(changed('  - id: s05', '  - id: s04'))).toContainEqual({
      file: FORM_LIST_FILE,
      path: `/forms/${indexOf('s05')}/id`,
      message: `"s04" is already the id of /forms/${indexOf('s04')}`,
    });
    expect(problemsOf(changed('prerequisites: [s04]', 'prerequisites: [s4]'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s07')}/prerequisites/0`, message: '"s4" is not a form' },
    ]);
  });

  it("spec §3: a flag declared by two forms, or named as one of the portal's own, at its pointer", () => {
    expect(problemsOf(changed('submitOnceFlag: s02SubmitOnceOnly', 'submitOnceFlag: s01SubmitOnceOnly'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s02')}/submitOnceFlag`, message: `"s01SubmitOnceOnly" is already declared at /forms/${indexOf('s01')}/submitOnceFlag` },
    ]);
    expect(problemsOf(changed('sectionFlags: [s02BrandNameShow]', 'sectionFlags: [eventShow]'))).toEqual([
      { file: FORM_LIST_FILE, path: `/forms/${indexOf('s02')}/sectionFlags/0`, message: expect.stringContaining('"eventShow" is one of the portal\'s own flags') },
    ]);
    // Forms may share a second language.
    expect(problemsOf(changed('languageFlag: productSecondLanguage', 'languageFlag: profileSecondLanguage'))).toEqual([]);
  });

  it('H2: a deadline name that cannot be one', () => {
    expect(problemsOf(changed('  booth: { title: account.boothDeadline }', '  booth-day: { title: account.boothDeadline }'))).toContainEqual({
      file: FORM_LIST_FILE,
      path: '/deadlines/booth-day',
      message: '"booth-day" cannot name a deadline: letters and digits, starting with a letter',
    });
  });

  it('text that is not YAML', () => {
    expect(problemsOf('forms: [\n')).toEqual([{ file: FORM_LIST_FILE, path: '', message: expect.any(String) }]);
  });
});
