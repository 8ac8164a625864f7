import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMatches, markdownToPlain, pickLanguage, searchFold, searchKeyword, snippetAround } from './search';

describe('CT3 search folding', () => {
  it('folds Vietnamese diacritics and đ, case and full-width letters', () => {
    expect(searchFold('Nguyễn Văn Đức')).toBe('nguyen van duc');
    expect(searchFold('ＡＢＣ　Ｄｅｆ')).toBe('abc def');
    expect(searchKeyword('  NGUYEN  ')).toBe('nguyen');
  });

  it('folds every text as its characters folded one by one, whatever mix of scripts it holds', () => {
    // The definition, one code point at a time: compatibility decomposition, marks dropped, đ → d,
    // lower case; then white space collapsed. Stored texts were folded so: a faster fold must agree.
    const foldOneByOne = (text: string) =>
      [...text]
        .map((char) =>
          char
            .normalize('NFKD')
            .replace(/\p{M}+/gu, '')
            .replace(/[đĐ]/gu, 'd')
            .toLowerCase(),
        )
        .join('')
        .replace(/\s+/gu, ' ')
        .trim();
    // Single ASCII characters, then words and characters of the four languages and of the folds'
    // edge cases (final sigma, compatibility forms, half-width voiced kana, a lone surrogate).
    const pieces = [
      ...'AzQ7 \t@.',
      'Nguyễn',
      'Đức',
      'ΑΣ',
      'Σ',
      'ς',
      'İ',
      'ß',
      'Ǆ',
      'ＡＢ',
      'ｶﾞ',
      'が',
      '東京',
      '豈',
      '⼀',
      '㐀',
      '𠀋',
      '\u3000',
      '\u0301',
      '한국',
      'ﬁ',
      '①',
      '\ud800',
    ];
    const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        expect(searchFold(text)).toBe(foldOneByOne(text));
      }),
      { numRuns: 2000 },
    );
    // A capital sigma ending a word folds as it does alone (not to the final form ς).
    expect(searchFold('ΟΔΟΣ Α')).toBe('οδοσ α');
    // Voiced kana lose their voicing mark, full width or half width.
    expect(searchFold('ガイド ｶﾞｲﾄﾞ')).toBe('カイト カイト');
  });

  it('keeps CJK characters so a two-character word is a substring of its text', () => {
    const manual = '出展者マニュアル：搬入と搬出の手順';
    expect(searchFold(manual).includes(searchKeyword('搬入'))).toBe(true);
    expect(searchFold('参展商手册').includes(searchKeyword('手册'))).toBe(true);
    expect(searchFold(manual).includes(searchKeyword('会場'))).toBe(false);
  });

  it('finds the original range of a folded match for highlighting', () => {
    const text = 'Ông Nguyễn và bà Nguyen';
    const ranges = findMatches(text, 'nguyen');
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Nguyễn', 'Nguyen']);
    expect(findMatches('搬入と搬出', '搬出').map((r) => '搬入と搬出'.slice(r.start, r.end))).toEqual(['搬出']);
    expect(findMatches('anything', '   ')).toEqual([]);
    expect(findMatches('emoji 😀 here', '😀')).toEqual([{ start: 6, end: 8 }]);
  });

  it('cuts very long keywords instead of failing, and treats % and _ as text', () => {
    expect(searchKeyword('x'.repeat(5000))).toHaveLength(100);
    expect(findMatches('50% off', '%')).toEqual([{ start: 2, end: 3 }]);
  });

  it('makes a snippet around the first match', () => {
    const long = `${'a '.repeat(200)}target ${'b '.repeat(200)}`;
    const snippet = snippetAround(long, 'target', 60);
    expect(snippet).toContain('target');
    expect(snippet.startsWith('…')).toBe(true);
  });

  it('falls back to the event language when a translation is missing', () => {
    expect(pickLanguage({ en: 'Hello', ja: 'こんにちは' }, 'ja', 'en')).toBe('こんにちは');
    expect(pickLanguage({ en: 'Hello' }, 'vi', 'en')).toBe('Hello');
    expect(pickLanguage({ ja: 'こんにちは' }, 'vi', 'ja')).toBe('こんにちは');
  });

  it('turns markdown into searchable plain text', () => {
    expect(markdownToPlain('# Move-in\n\n**Hall 3**: see [the map](https://x.example) and `code`')).toBe('Move-in Hall 3: see the map and code');
  });
});
