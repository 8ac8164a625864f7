import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { checkCatalogue, type Catalogue } from '../../../engine/catalogue';
import { lookup, type LocaleTable } from '../../../engine/i18n';
import { LANGUAGES } from '../../../engine/language';
import { builtPages, catalogue as builtCatalogue } from '../../../generated/screens';

// The screen catalogue as the form set in use has it. A screens.yaml beside FORMS_DIR
// (as locales/ is) is read with the forms, so an organiser adds a whole new form — schema, UI
// schema, forms.yaml entry, its screen and its strings — while the portal runs. The change is
// checked like `npm run generate` checks it, with two limits of a running build: a screen may
// name only pages the build holds, and no screen the build's own routes rely on may go.

export interface LiveCatalogue {
  catalogue: Catalogue;
  /** Per language, the text of every screen title and menu label key it names. */
  strings: Record<string, Record<string, string>>;
  /** The file's text, for the set's version (null: the build's catalogue). */
  source: string | null;
  problems: Array<{ file: string; path: string; message: string }>;
}

export const CATALOGUE_FILE = 'screens.yaml';

/** Where a set's screens.yaml is: beside FORMS_DIR. */
export function catalogueFile(formsDir: string): string {
  return join(formsDir, '..', CATALOGUE_FILE);
}

function stringsOf(catalogue: Catalogue, locales: Record<string, LocaleTable>): LiveCatalogue['strings'] {
  const keys = [...new Set(catalogue.screens.flatMap((screen) => [screen.title, screen.menuLabel].filter((key): key is string => typeof key === 'string')))];
  return Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      Object.fromEntries(
        keys.flatMap((key) => {
          const text = lookup(locales[language] ?? {}, key);
          return text === undefined ? [] : [[key, text]];
        }),
      ),
    ]),
  );
}

/** Reads and checks the catalogue of a form set; without a screens.yaml beside it, the build's. */
export function readLiveCatalogue(formsDir: string, locales: Record<string, LocaleTable>, formIds: ReadonlySet<string>): LiveCatalogue {
  const file = catalogueFile(formsDir);
  if (!existsSync(file)) return { catalogue: builtCatalogue, strings: stringsOf(builtCatalogue, locales), source: null, problems: [] };
  const source = readFileSync(file, 'utf8');
  const problem = (message: string, path = '') => ({ file: `../${CATALOGUE_FILE}`, path, message });
  let raw: unknown;
  try {
    raw = parse(source);
  } catch (error) {
    return { catalogue: builtCatalogue, strings: {}, source, problems: [problem(`not valid YAML: ${(error as Error).message}`)] };
  }
  const messages = checkCatalogue(raw, {
    languages: LANGUAGES,
    hasKey: (language, key) => lookup(locales[language] ?? {}, key) !== undefined,
    pageExists: (page) => builtPages.includes(page),
    formExists: (form) => formIds.has(form),
  });
  const catalogue = raw as Catalogue;
  const problems = messages.map((message) =>
    problem(message.includes('page "') && message.includes('does not exist') ? `${message} in this build (a new page needs a build)` : message),
  );
  const screens = Array.isArray(catalogue?.screens) ? catalogue.screens : [];
  const live = new Set(screens.map((screen) => screen?.id));
  for (const screen of builtCatalogue.screens) {
    if (!live.has(screen.id)) problems.push(problem(`screen "${screen.id}" is used by the portal's own routes: it cannot be removed while this build runs`, '$.screens'));
  }
  if (problems.length > 0) return { catalogue: builtCatalogue, strings: {}, source, problems };
  return { catalogue, strings: stringsOf(catalogue, locales), source, problems: [] };
}
