import { describe, expect, it } from 'vitest';
import { documentFileName, documentKeys, documentProblems, itemValues, particularRows, type DocumentDeclaration } from './documents';

// F7: a form's documents as forms.yaml declares them: mistakes found before the set is used, the
// particulars in the document's language, no field named in code.

const schema = {
  properties: {
    applicants: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          fullName: { type: 'string', title: 'forms.s06.fullName' },
          gender: { type: 'string', title: 'forms.s06.gender', enum: ['male', 'female'] },
          dateOfBirth: { type: 'string', format: 'date', title: 'forms.s06.dateOfBirth' },
          durationOfStay: { type: 'integer', title: 'forms.s06.durationOfStay' },
          passportPlaceOfIssue: { type: 'string', title: 'forms.s06.passportPlaceOfIssue' },
        },
      },
    },
    confirmTruth: { type: 'boolean' },
  },
};

const letter: DocumentDeclaration = {
  id: 'invitationLetter',
  each: 'applicants',
  name: 'fullName',
  summary: ['gender'],
  fileName: 'visa-invitation',
  text: 'letter',
  particulars: ['fullName', 'gender', 'dateOfBirth', 'durationOfStay', 'passportPlaceOfIssue', { label: 'letter.boothLabel', value: 'letter.booth' }],
};

const STRINGS: Record<string, string> = {
  'forms.s06.fullName': 'Full name',
  'forms.s06.gender': 'Gender',
  'forms.s06.enum.gender.female': 'Female',
  'forms.s06.dateOfBirth': 'Date of birth',
  'forms.s06.durationOfStay': 'Duration of stay (days)',
  'forms.s06.letter.boothLabel': 'Booth',
  'forms.s06.letter.booth': '{{booth}}',
};
const translate = (key: string, params: Record<string, string> = {}) => (STRINGS[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');

describe('F7 documents declared in forms.yaml', () => {
  it('finds each mistake of the declaration itself: a repeated id, a malformed particular (its fields: field-references.test.ts)', () => {
    expect(documentProblems({ id: 's06', documents: [letter] })).toEqual([]);
    const problems = documentProblems({
      id: 's06',
      documents: [
        { ...letter, each: 'confirmTruth' },
        { ...letter, name: 'fullname' },
        { ...letter, particulars: ['passportNumber', { label: 'x' } as unknown as string] },
        letter,
      ],
    });
    expect(problems).toEqual([
      'schemas/forms/forms.yaml (s06) documents invitationLetter: the id is used twice',
      'schemas/forms/forms.yaml (s06) documents invitationLetter: the id is used twice',
      'schemas/forms/forms.yaml (s06) documents invitationLetter: a particular is an item field or { label, value }',
      'schemas/forms/forms.yaml (s06) documents invitationLetter: the id is used twice',
    ]);
  });

  it('needs every text part and every particular label in the strings', () => {
    const keys = documentKeys({ id: 's06', documents: [letter] });
    expect(keys).toContain('forms.s06.letter.subject');
    expect(keys).toContain('forms.s06.letter.body');
    expect(keys).toContain('forms.s06.letter.boothLabel');
    expect(keys).not.toContain('forms.s06.fullName');
  });

  it('shows the particulars in the document language: field titles, enum labels, days and numbers written out, empty fields left out', () => {
    const item = { fullName: ' Tan Wei Ming ', gender: 'female', dateOfBirth: '1988-07-21', durationOfStay: 12000 };
    const values: Record<string, string> = { ...itemValues('s06', letter, schema, item, 'ja', translate), booth: 'B12' };
    expect(values.fullName).toBe('Tan Wei Ming');
    expect(values.dateOfBirth).toBe('1988年7月21日');
    expect(values.durationOfStay).toBe('12,000');
    expect(particularRows('s06', letter, schema, values, translate)).toEqual([
      ['Full name', 'Tan Wei Ming'],
      ['Gender', 'Female'],
      ['Date of birth', '1988年7月21日'],
      ['Duration of stay (days)', '12,000'],
      ['Booth', 'B12'],
    ]);
    expect(itemValues('s06', letter, schema, item, 'vi', translate).durationOfStay).toBe('12.000');
  });

  it('names the file after the item without characters file systems refuse', () => {
    expect(documentFileName('visa-invitation', 'Nguyễn Văn Đức', 0)).toBe('visa-invitation-Nguyễn-Văn-Đức.pdf');
    expect(documentFileName('visa-invitation', '../a:b*?"<>|', 3)).toBe('visa-invitation-ab.pdf');
    expect(documentFileName('visa-invitation', ' / ', 3)).toBe('visa-invitation-4.pdf');
  });
});
