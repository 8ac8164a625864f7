import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { checkCatalogue, type Catalogue } from '../src/engine/catalogue';
import { lookup, type LocaleTable } from '../src/engine/i18n';
import { LANGUAGES } from '../src/engine/language';

// Reading the project's sources for the generator and the checks: screens.yaml, the locale
// tables and the page files. Kept apart from both so they read the files the same way.

export const ROOT = resolve(import.meta.dirname, '..');

export function readLocales(root = ROOT): Record<string, LocaleTable> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, JSON.parse(readFileSync(join(root, 'locales', `${language}.json`), 'utf8')) as LocaleTable]));
}

export function pagePath(page: string, root = ROOT): string {
  const [feature, name] = page.split('/');
  return join(root, 'src', 'features', feature ?? '', 'pages', `${name ?? ''}.tsx`);
}

export function formIds(root = ROOT): Set<string> {
  const dir = join(root, 'schemas', 'forms');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => f.replace(/\.schema\.json$/, '')),
  );
}

export function loadCatalogue(root = ROOT, text = readFileSync(join(root, 'screens.yaml'), 'utf8')): { catalogue: Catalogue; problems: string[] } {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    return { catalogue: { modules: [], screens: [] }, problems: [`screens.yaml is not valid YAML: ${(error as Error).message}`] };
  }
  const locales = readLocales(root);
  const forms = formIds(root);
  const problems = checkCatalogue(raw, {
    languages: LANGUAGES,
    hasKey: (language, key) => lookup(locales[language] ?? {}, key) !== undefined,
    pageExists: (page) => /^[a-z][A-Za-z0-9-]*\/[A-Z][A-Za-z0-9]*$/.test(page) && existsSync(pagePath(page, root)),
    formExists: (form) => forms.has(form),
  });
  return { catalogue: raw as Catalogue, problems };
}
