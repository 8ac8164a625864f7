import { describe, expect, it } from 'vitest';
import { afterLanguageChange, DEFAULT_LANGUAGE, isLanguage, LANGUAGE_OPTIONS, LANGUAGES, languageFromHeader, languageFromQuery, resolveLanguage } from './language';

describe('L1 languages', () => {
  it('L1 offers en, cn, ja and vi with en as default', () => {
    expect([...LANGUAGES]).toEqual(['en', 'cn', 'ja', 'vi']);
    expect(DEFAULT_LANGUAGE).toBe('en');
  });

  it('L1 isLanguage accepts only the four codes, exactly', () => {
    for (const code of ['en', 'cn', 'ja', 'vi']) expect(isLanguage(code)).toBe(true);
    for (const value of ['zh', 'EN', ' en', '', undefined, null, 1, ['en']]) expect(isLanguage(value)).toBe(false);
  });
});

describe('L5 language options', () => {
  it('L5 lists English=en, 中文=cn, 日本語=ja, Tiếng Việt=vi in that order', () => {
    expect(LANGUAGE_OPTIONS).toEqual([
      { label: 'English', code: 'en' },
      { label: '中文', code: 'cn' },
      { label: '日本語', code: 'ja' },
      { label: 'Tiếng Việt', code: 'vi' },
    ]);
  });
});

describe('L2 languageFromQuery', () => {
  it('L2 reads ?lang=', () => {
    expect(languageFromQuery('?lang=ja')).toBe('ja');
    expect(languageFromQuery('lang=vi')).toBe('vi');
  });

  it('L2 reads ?language=', () => {
    expect(languageFromQuery('?language=cn')).toBe('cn');
  });

  it('L2 ignores case and surrounding spaces', () => {
    expect(languageFromQuery('?lang=CN')).toBe('cn');
    expect(languageFromQuery('?lang=%20Ja%20')).toBe('ja');
  });

  it('L2 lang wins over language when both are valid', () => {
    expect(languageFromQuery('?language=vi&lang=ja')).toBe('ja');
  });

  it('L2 falls back to language when lang is not offered', () => {
    expect(languageFromQuery('?lang=fr&language=vi')).toBe('vi');
  });

  it('L2 gives undefined for an unknown or missing language', () => {
    expect(languageFromQuery('?lang=zh')).toBeUndefined();
    expect(languageFromQuery('?token=abc')).toBeUndefined();
    expect(languageFromQuery('')).toBeUndefined();
    expect(languageFromQuery('?lang=')).toBeUndefined();
  });
});

describe('L2 resolveLanguage', () => {
  it('L2 prefers the query over the stored language', () => {
    expect(resolveLanguage('?lang=vi', 'ja')).toBe('vi');
  });

  it('L2 uses the stored language when the query has none', () => {
    expect(resolveLanguage('', 'ja')).toBe('ja');
    expect(resolveLanguage('?lang=xx', 'cn')).toBe('cn');
  });

  it('L2 falls back to en when nothing valid is given', () => {
    expect(resolveLanguage('', null)).toBe('en');
    expect(resolveLanguage('', undefined)).toBe('en');
    expect(resolveLanguage('?lang=de', 'de')).toBe('en');
  });
});

describe('L3 afterLanguageChange', () => {
  it('L3 only reloads when the URL has no lang parameter', () => {
    expect(afterLanguageChange({ pathname: '/manuals', search: '' })).toEqual({ reloadOnly: true });
    expect(afterLanguageChange({ pathname: '/search', search: '?keyword=lang' })).toEqual({ reloadOnly: true });
  });

  it('L3 returns to /login when the URL had lang', () => {
    expect(afterLanguageChange({ pathname: '/home', search: '?lang=ja' })).toEqual({ goTo: '/login' });
    expect(afterLanguageChange({ pathname: '/home', search: '?language=ja' })).toEqual({ goTo: '/login' });
  });

  it('L3 keeps exhibitCode, encoded, when returning to /login', () => {
    expect(afterLanguageChange({ pathname: '/home', search: '?lang=cn&exhibitCode=EX2027' })).toEqual({
      goTo: '/login?exhibitCode=EX2027',
    });
    expect(afterLanguageChange({ pathname: '/home', search: '?exhibitCode=A%26B%201&lang=vi' })).toEqual({
      goTo: '/login?exhibitCode=A%26B%201',
    });
  });
});

describe('L4 languageFromHeader', () => {
  it('L4 reads the language header, ignoring case and spaces', () => {
    expect(languageFromHeader('ja')).toBe('ja');
    expect(languageFromHeader(' VI ')).toBe('vi');
  });

  it('L4 uses the first value of a repeated header', () => {
    expect(languageFromHeader(['cn', 'ja'])).toBe('cn');
  });

  it('L4 defaults to en for a missing or unknown header', () => {
    expect(languageFromHeader(undefined)).toBe('en');
    expect(languageFromHeader('')).toBe('en');
    expect(languageFromHeader('fr')).toBe('en');
    expect(languageFromHeader([])).toBe('en');
  });
});
