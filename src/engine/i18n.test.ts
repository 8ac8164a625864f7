import { describe, expect, it } from 'vitest';
import { createTranslator, flattenKeys, interpolate, lookup, type LocaleTable } from './i18n';

const en: LocaleTable = {
  errors: { resubmit: 'Data is being processed, please do not resubmit.', invalidSession: 'Invalid session.' },
  limits: { single: 'Contact {{email}} to add more.', several: 'You have {{ count }} of {{max}} items.' },
  screens: { home: 'Home' },
  top: 'Top level',
};
const cn: LocaleTable = {
  errors: { invalidSession: '会话无效。' },
  screens: { home: '首页' },
};

describe('L1 lookup', () => {
  it('L1 finds a nested key by dotted path', () => {
    expect(lookup(en, 'errors.invalidSession')).toBe('Invalid session.');
    expect(lookup(en, 'top')).toBe('Top level');
  });

  it('L1 gives undefined for a missing key', () => {
    expect(lookup(en, 'errors.nothing')).toBeUndefined();
    expect(lookup(en, 'nothing.at.all')).toBeUndefined();
    expect(lookup(en, '')).toBeUndefined();
  });

  it('L1 gives undefined for a key that names a group, not a text', () => {
    expect(lookup(en, 'errors')).toBeUndefined();
  });

  it('L1 gives undefined for a path that continues past a text', () => {
    expect(lookup(en, 'top.more')).toBeUndefined();
    expect(lookup(en, 'screens.home.length')).toBeUndefined();
  });

  it('L1 does not read inherited object properties as keys', () => {
    expect(lookup(en, 'constructor.name')).toBeUndefined();
    expect(lookup(en, 'errors.constructor.name')).toBeUndefined();
    expect(lookup(en, 'toString')).toBeUndefined();
  });
});

describe('L1 interpolate', () => {
  it('L1 replaces {{name}} placeholders, with or without inner spaces', () => {
    expect(interpolate('You have {{ count }} of {{max}} items.', { count: 2, max: 3 })).toBe('You have 2 of 3 items.');
  });

  it('L1 replaces every occurrence of a placeholder', () => {
    expect(interpolate('{{a}}-{{a}}', { a: 'x' })).toBe('x-x');
  });

  it('L1 keeps a placeholder that has no value', () => {
    expect(interpolate('Contact {{email}} to add more.')).toBe('Contact {{email}} to add more.');
    expect(interpolate('{{a}} {{b}}', { a: 1 })).toBe('1 {{b}}');
  });

  it('L1 keeps placeholders named like inherited object properties', () => {
    expect(interpolate('{{toString}} {{constructor}}')).toBe('{{toString}} {{constructor}}');
  });

  it('L1 writes 0 and empty strings as given', () => {
    expect(interpolate('[{{n}}][{{s}}]', { n: 0, s: '' })).toBe('[0][]');
  });
});

describe('L1 flattenKeys', () => {
  it('L1 lists every text key as a dotted path', () => {
    expect(flattenKeys(en)).toEqual(['errors.resubmit', 'errors.invalidSession', 'limits.single', 'limits.several', 'screens.home', 'top']);
  });

  it('L1 gives nothing for an empty table and applies a prefix', () => {
    expect(flattenKeys({})).toEqual([]);
    expect(flattenKeys({ a: { b: 'x' } }, 'p.')).toEqual(['p.a.b']);
  });
});

describe('L1 createTranslator', () => {
  const t = createTranslator({ en, cn });

  it('L1 translates in the requested language', () => {
    expect(t('cn', 'screens.home')).toBe('首页');
    expect(t('en', 'screens.home')).toBe('Home');
  });

  it('L1 falls back to English for a key missing in the language', () => {
    expect(t('cn', 'errors.resubmit')).toBe('Data is being processed, please do not resubmit.');
  });

  it('L1 falls back to English for a language without a table', () => {
    expect(t('ja', 'errors.invalidSession')).toBe('Invalid session.');
  });

  it('L1 returns the key itself when no table has it', () => {
    expect(t('cn', 'errors.unknown')).toBe('errors.unknown');
  });

  it('L1 interpolates parameters into the translation', () => {
    expect(t('vi', 'limits.single', { email: 'support@exhibitor-portal.example' })).toBe('Contact support@exhibitor-portal.example to add more.');
  });

  it('L1 honours another fallback language', () => {
    const tc = createTranslator({ en, cn }, 'cn');
    expect(tc('ja', 'screens.home')).toBe('首页');
    expect(tc('ja', 'errors.resubmit')).toBe('errors.resubmit');
  });
});
