import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './portal';

// The texts a user should see, read from locales/*.json when the test runs (translators edit
// these files; a test must follow them rather than a copy).

export type Lang = 'en' | 'cn' | 'ja' | 'vi';

function load(lang: Lang): Record<string, unknown> {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'locales', `${lang}.json`), 'utf8')) as Record<string, unknown>;
}

/** The text of `key` (dotted) in `lang`, with {{name}} placeholders filled. */
export function text(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), load(lang));
  if (typeof value !== 'string') throw new Error(`locales/${lang}.json has no text for "${key}"`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The text of `key` in `lang`, which must differ from English, or the test could not tell the
 * language was applied. Fails with a message naming the untranslated key.
 */
export function translated(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const own = text(lang, key, params);
  const english = text('en', key, params);
  if (own === english) {
    throw new Error(`locales/${lang}.json is not translated for "${key}" (it reads "${english}", as in English), so the test cannot see the ${lang} UI`);
  }
  return own;
}

/** The first of `keys` translated in `lang` (differs from English); fails naming them all if none is. */
export function firstTranslated(lang: Lang, keys: string[]): { key: string; text: string } {
  for (const key of keys) {
    const own = text(lang, key);
    if (own !== text('en', key)) return { key, text: own };
  }
  throw new Error(`locales/${lang}.json translates none of ${keys.join(', ')} (all read as in English), so the test cannot see the ${lang} UI`);
}

/** An English string of the locale table (what most tests read on the page). */
export const en = (key: string, params: Record<string, string | number> = {}) => text('en', key, params);
