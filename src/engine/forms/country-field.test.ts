import { describe, expect, it } from 'vitest';
import { approvalSummary } from './approval-summary';
import { countryChoices, isCountryField, matchCountries, shownCountry } from './country-field';
import type { FormDefinition } from './definitions';
import { shownValue } from './documents';
import { submissionLayout } from './submission-columns';
import { validateForm } from './validator';

// L1: country fields of the forms hold ISO codes, are chosen by typing a name in any
// portal language, and read in the reader's language everywhere the form's values are shown.

const schema = {
  type: 'object',
  properties: {
    guests: {
      type: 'array',
      items: {
        type: 'object',
        required: ['country'],
        properties: { name: { type: 'string' }, country: { type: 'string', country: true, maxLength: 100 } },
      },
    },
  },
};
const context = { flags: {}, quotas: {} };
const errorsOf = (country: unknown) => validateForm(schema, { guests: [{ name: 'Lan', country }] }, context);

describe('the country keyword (server and browser validators)', () => {
  it('accepts an ISO 3166-1 alpha-2 code', () => {
    expect(errorsOf('SG')).toEqual([]);
    expect(errorsOf('VN')).toEqual([]);
  });

  it('refuses a made-up code, a lower-case code and a typed name, with its own message', () => {
    for (const value of ['XX', 'QQ', 'sg', 'Singapore', 'シンガポール']) {
      expect(errorsOf(value)).toEqual([{ path: '/guests/0/country', key: 'validation.country', params: {} }]);
    }
  });

  it('leaves an empty value to `required`', () => {
    expect(errorsOf('')).toEqual([]);
    expect(validateForm(schema, { guests: [{ name: 'Lan' }] }, context)).toEqual([{ path: '/guests/0/country', key: 'validation.required', params: {} }]);
  });

  it('does nothing when the keyword is false', () => {
    expect(validateForm({ type: 'string', country: false }, 'Atlantis', context)).toEqual([]);
  });
});

describe('choosing a country by typing', () => {
  it('finds a country by its Japanese, Chinese, Vietnamese or English name whatever the page language', () => {
    expect(matchCountries('シンガポール', 'ja')[0]).toEqual({ code: 'SG', name: 'シンガポール' });
    expect(matchCountries('シンガ', 'en')[0]).toEqual({ code: 'SG', name: 'Singapore' });
    expect(matchCountries('新加坡', 'vi')[0]?.code).toBe('SG');
    expect(matchCountries('Singapore', 'ja')[0]).toEqual({ code: 'SG', name: 'シンガポール' });
    expect(matchCountries('viet nam', 'en')[0]?.code).toBe('VN');
    expect(matchCountries('Nhật', 'vi')[0]).toEqual({ code: 'JP', name: 'Nhật Bản' });
  });

  it('puts names that start with the text before names that only contain it', () => {
    const codes = matchCountries('guinea', 'en').map((choice) => choice.code);
    expect(codes[0]).toBe('GN');
    expect(codes).toEqual(expect.arrayContaining(['GW', 'GQ', 'PG']));
    expect(codes.indexOf('PG')).toBeGreaterThan(codes.indexOf('GN'));
  });

  it('finds a country by its code, and nothing for text that names none', () => {
    expect(matchCountries('my', 'en')[0]?.code).toBe('MY');
    expect(matchCountries('Atlantis', 'en')).toEqual([]);
  });

  it('lists every country, sorted in the language of the page, when nothing is typed', () => {
    const choices = countryChoices('en');
    expect(choices.length).toBeGreaterThan(240);
    expect(matchCountries('', 'en')).toEqual(choices);
    const names = choices.map((choice) => choice.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    expect(countryChoices('ja').find((choice) => choice.code === 'VN')?.name).toBe('ベトナム');
  });
});

describe('a country field read in the reader language', () => {
  it('names a code and keeps a value that is no code as typed', () => {
    expect(isCountryField({ type: 'string', country: true })).toBe(true);
    expect(isCountryField({ type: 'string' })).toBe(false);
    expect(shownCountry('VN', 'cn')).toBe('越南');
    expect(shownCountry('Borneo Republic', 'ja')).toBe('Borneo Republic');
    expect(shownCountry(undefined, 'ja')).toBe('');
  });

  it('letters name the nationality in the letter language', () => {
    const property = { type: 'string', country: true };
    expect(shownValue('visa', 'nationality', property, 'CN', 'vi', (key) => key)).toBe('Trung Quốc');
    expect(shownValue('visa', 'nationality', property, 'Martian', 'vi', (key) => key)).toBe('Martian');
  });

  it('the submissions export has a country column for the field', () => {
    const layout = submissionLayout('guestList', schema);
    expect(layout.itemColumns.find((column) => column.path.join('.') === 'country')?.kind).toBe('country');
    expect(layout.itemColumns.find((column) => column.path.join('.') === 'name')?.kind).toBe('text');
  });

  it("the organiser's approval summary names countries in the organiser's language", () => {
    const definition = { id: 'guestList', approvalSummary: [{ field: 'guests', show: ['name', 'country'] }] } as unknown as FormDefinition;
    const summary = approvalSummary(definition, schema, { guests: [{ name: 'Lan', country: 'VN' }] }, 'ja');
    expect(summary[0]?.items).toEqual([{ text: 'Lan ベトナム', flagged: false }]);
  });
});
