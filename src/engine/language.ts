// Language rules of spec §1 and §4 (L1–L5).

export const LANGUAGES = ['en', 'cn', 'ja', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** L5: the multilingual label/code list, labels in their own language. */
export const LANGUAGE_OPTIONS: ReadonlyArray<{ label: string; code: Language }> = [
  { label: 'English', code: 'en' },
  { label: '中文', code: 'cn' },
  { label: '日本語', code: 'ja' },
  { label: 'Tiếng Việt', code: 'vi' },
];

/** The BCP 47 tag of each portal language, for Intl (the portal's own code for Chinese is `cn`). */
export const INTL_LOCALE: Record<Language, string> = { en: 'en', cn: 'zh-CN', ja: 'ja', vi: 'vi' };

/** The Intl locale of any language code (English for one the portal does not know). */
export function intlLocale(language: string): string {
  return isLanguage(language) ? INTL_LOCALE[language] : INTL_LOCALE[DEFAULT_LANGUAGE];
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language named by `?lang=` or `?language=` (lang wins), if it is one we offer. */
export function languageFromQuery(search: string): Language | undefined {
  const params = new URLSearchParams(search);
  for (const name of ['lang', 'language']) {
    const value = params.get(name)?.trim().toLowerCase();
    if (isLanguage(value)) return value;
  }
  return undefined;
}

/** L2: query first, then what was stored, then English. */
export function resolveLanguage(search: string, stored: string | null | undefined): Language {
  return languageFromQuery(search) ?? (isLanguage(stored) ? stored : DEFAULT_LANGUAGE);
}

/**
 * L3: where the app goes after the language is changed. With a `lang` parameter in the URL
 * it returns to /login (keeping exhibitCode); otherwise the same page is reloaded.
 */
export function afterLanguageChange(location: { pathname: string; search: string }): { reloadOnly: true } | { goTo: string } {
  const params = new URLSearchParams(location.search);
  if (!params.has('lang') && !params.has('language')) return { reloadOnly: true };
  const exhibitCode = params.get('exhibitCode');
  return { goTo: exhibitCode ? `/login?exhibitCode=${encodeURIComponent(exhibitCode)}` : '/login' };
}

/** The language an API request asked for through its language header. */
export function languageFromHeader(value: string | string[] | undefined): Language {
  const raw = Array.isArray(value) ? value[0] : value;
  const code = raw?.trim().toLowerCase();
  return isLanguage(code) ? code : DEFAULT_LANGUAGE;
}
