import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterLanguageChange, isLanguage, resolveLanguage, type Language } from '../engine/language';
import { languageStore } from './storage';

// L1–L3: every string comes from locales/. The language is resolved once at start from the
// query or storage and saved; changing it reloads the page (or returns to /login).

const HTML_LANG: Record<Language, string> = { en: 'en', cn: 'zh-CN', ja: 'ja', vi: 'vi' };

/** Only the chosen language is downloaded (CI checks that every language has every key). */
const TABLES: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../../locales/en.json'),
  cn: () => import('../../locales/cn.json'),
  ja: () => import('../../locales/ja.json'),
  vi: () => import('../../locales/vi.json'),
};

export async function initI18n(search = window.location.search): Promise<Language> {
  const language = resolveLanguage(search, languageStore.get());
  languageStore.set(language);
  document.documentElement.lang = HTML_LANG[language];
  const table = (await TABLES[language]()).default;
  loaded.add(language);
  await i18next.use(initReactI18next).init({
    resources: { [language]: { translation: table } },
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return language;
}

/** The languages whose table this page has loaded (the chosen one at start, others on demand). */
const loaded = new Set<Language>();

/**
 * A translator for a form shown as its exhibitors would see it, in any language (the organiser's
 * gallery, the form editor's preview); the language's table is downloaded once. Its strings are a
 * copy of the page's: the form's texts laid over them (another event's patch, a draft being typed)
 * do not change what the rest of the page shows, the menu's form titles included.
 */
export async function previewTranslatorFor(language: Language): Promise<typeof i18next> {
  if (!loaded.has(language)) {
    // Deep, without overwriting: strings a form brought with it (newer than the build's) stay.
    i18next.addResourceBundle(language, 'translation', (await TABLES[language]()).default, true, false);
    loaded.add(language);
  }
  return i18next.cloneInstance({ lng: language, forkResourceStore: true });
}

export function currentLanguage(): Language {
  return (i18next.language as Language) || 'en';
}

/** The page's language, known before its table has loaded (initI18n stores it first). */
export function startingLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : resolveLanguage('', languageStore.get());
}

export function changeLanguage(language: Language) {
  languageStore.set(language);
  const next = afterLanguageChange(window.location);
  if ('goTo' in next) window.location.assign(next.goTo);
  else window.location.reload();
}

export const t = (key: string, params?: Record<string, unknown>) => String(i18next.t(key, params as never));
