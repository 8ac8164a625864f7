import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { LANGUAGES } from '../../../engine/language';
import type { Database } from '../../db/schema';
import { readFormSetFrom, readFormSource, readLocaleTables, type FormSetProblem, type FormSetSource } from './form-set';
import { publishVersion, readVersion, type PublishOutcome, type VersionAuthor } from './versions';

// F11: a version of the form set to and from files, the way implementers keep the forms in git.
// An export writes every file of the version under <dir> (forms/, events/) and the strings beside
// it (<dir>/../locales/<language>.json: the deployment's strings with the version's `forms` part),
// so `FORMS_DIR=<dir> npm run check` checks exactly that version and an import of <dir> gives the
// same content back.

/** How locale files are written (two-space JSON and a final line end, as locales/ has them). */
const localeText = (table: unknown) => `${JSON.stringify(table, null, 2)}\n`;

/**
 * Writes a version (the current published one without a number) as files under `dir`; the
 * deployment's other strings come from `stringsDir`'s surroundings (FORMS_DIR). Answers the
 * version's number, or null when there is no such version.
 */
export async function exportVersion(db: Kysely<Database>, dir: string, options: { number?: number; formsDir: string }): Promise<number | null> {
  const version = await readVersion(db, options.number);
  if (!version) return null;
  writeSource(version.content, dir, options.formsDir);
  return version.number;
}

/** Writes a set's content as files: forms/ and events/ replaced whole, the locales beside them. */
export function writeSource(source: FormSetSource, dir: string, formsDir: string): void {
  const base = readLocaleTables(formsDir);
  for (const folder of ['forms', 'events']) rmSync(join(dir, folder), { recursive: true, force: true });
  for (const [file, text] of Object.entries(source.files)) {
    const path = join(dir, ...file.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  const locales = join(dir, '..', 'locales');
  mkdirSync(locales, { recursive: true });
  for (const language of LANGUAGES) {
    const table = { ...(base[language] ?? {}) } as Record<string, unknown>;
    // The `forms` part keeps its place among the other keys.
    if ('forms' in table) table.forms = source.strings[language] ?? {};
    else Object.assign(table, { forms: source.strings[language] ?? {} });
    writeFileSync(join(locales, `${language}.json`), localeText(table));
  }
}

export type ImportOutcome = PublishOutcome | { kind: 'problems'; problems: FormSetProblem[] };

/**
 * Reads a folder of forms (and the strings beside it), checks it as the server does, and stores
 * it as the next published version unless it is the current one already.
 */
export async function importFolder(db: Kysely<Database>, dir: string, author: VersionAuthor, comment = ''): Promise<ImportOutcome> {
  if (!existsSync(join(dir, 'forms', 'forms.yaml'))) return { kind: 'problems', problems: [{ file: 'forms/forms.yaml', path: '', message: 'file missing' }] };
  const source = readFormSource(dir);
  const reading = readFormSetFrom(source, dir);
  if (!reading.set) return { kind: 'problems', problems: reading.problems };
  return publishVersion(db, { source, kind: 'import', author, comment: comment || `import ${dir}`, basedOn: null, onlyIfNew: 'current' });
}
