import { describe, expect, it } from 'vitest';
import { findMatches, markdownToPlain, pickLanguage, searchFold, searchKeyword, snippetAround } from './search';

describe('CT3 search folding', () => {
  it('folds Vietnamese diacritics and đ, case and full-width letters', () => {
    expect(searchFold('Nguyễn Văn Đức')).toBe('nguyen van duc');
    expect(searchFold('ＡＢＣ　Ｄｅｆ')).toBe('abc def');
    expect(searchKeyword('  NGUYEN  ')).toBe('nguyen');
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
