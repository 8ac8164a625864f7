import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './catalogue-source';

// Issue 11 item 4: everything about a form is data (forms.yaml, its schema, its UI schema), so
// TypeScript under src/ names no form by its id or code and none of a form's fields. A string
// literal that does is reported with file:line; read the form through forms.yaml instead (a
// declaration such as `provides:`, `approvalSummary:` or `parts:`).

/**
 * Words a form's schema uses as field names that the portal also uses for its own things (table and
 * column names, roles, API properties, the showroom's own fields): a literal of one of these names
 * the portal's thing, not the form's field. A field name not listed here is the form's own.
 */
export const SHARED_WORDS = new Set([
  'id',
  'name',
  'email',
  'type',
  'title',
  'company',
  // LD1: the lead's and the visitor directory's job title (visitors.job_title).
  'jobTitle',
  'country',
  'size',
  'description',
  'purpose',
  'notes',
  'category',
  'address',
  'contractor',
  'mobile',
  'logo',
  'website',
  'image',
  'x',
  'linkedin',
  'facebook',
  'invitations',
  'products',
  'badges',
  'dpi',
  'operations',
  'contacts',
  // CT5: the showroom's own product fields (forms.yaml `showroom:` maps the form's fields onto them).
  'newLaunch',
]);

/**
 * Files still naming a form, each with why; the lead removes them as the work lands. Keep the list
 * short: a new entry needs a reason and an owner.
 */
export const NAMING_EXCEPTIONS: Record<string, string> = {
  // The demo data written by `npm run seed`: form entries as an exhibitor would have filled them.
  'src/server/db/seed.ts': 'demo data',
  // Data migrations name the forms and fields they converted, as the forms had them then.
  'src/server/db/migrations/0027_form_countries.ts': 'data migration of form fields (country fields)',
  'src/server/db/migrations/0034_per_form_reopen.ts': 'data migration of form fields (deadline names)',
  // R5: Home opens S01 at its sections by the anchors its UI schema declares (`ui:options.anchor`);
  // the sections belong in screens.yaml (follow-up).
  'src/features/home/pages/HomePage.tsx': 'Home sections (follow-up)',
};

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every property name declared anywhere in a schema (nested sections, list items, if/then/else). */
export function schemaFieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const node of schema) schemaFieldNames(node, into);
  else if (isObject(schema)) {
    if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) into.add(name);
    for (const value of Object.values(schema)) schemaFieldNames(value, into);
  }
  return into;
}

/** The names that only a form owns: its ids and codes, and its field names less the shared words. */
export function formNames(root = ROOT): { ids: Set<string>; fields: Set<string> } {
  const list = parse(readFileSync(join(root, 'schemas', 'forms', 'forms.yaml'), 'utf8')) as { forms?: Array<{ id?: unknown; code?: unknown }> };
  const ids = new Set<string>();
  const fields = new Set<string>();
  for (const form of list.forms ?? []) {
    if (typeof form.id === 'string') ids.add(form.id);
    if (typeof form.code === 'string') ids.add(form.code);
    if (typeof form.id !== 'string') continue;
    try {
      schemaFieldNames(JSON.parse(readFileSync(join(root, 'schemas', 'forms', `${form.id}.schema.json`), 'utf8')), fields);
    } catch {
      // A missing or broken schema is reported by the forms check.
    }
  }
  for (const word of SHARED_WORDS) fields.delete(word);
  return { ids, fields };
}

// A whole string literal: '…', "…" or a template without substitutions.
const LITERAL = /(['"`])([A-Za-z_$][\w$]*)\1/g;

/** `file:line: …` for each literal of the text that is a form id, code or field name. */
export function namedFormThings(file: string, text: string, names: { ids: Set<string>; fields: Set<string> }): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const match of line.matchAll(LITERAL)) {
      const literal = match[2]!;
      if (names.ids.has(literal)) problems.push(`${file}:${index + 1}: names the form "${literal}"; read it from forms.yaml`);
      else if (names.fields.has(literal)) problems.push(`${file}:${index + 1}: names the form field "${literal}"; declare what it is for in forms.yaml or the form's schema`);
    }
  });
  return problems;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The check of `npm run check`: TypeScript under src/ (not generated, not tests, not the listed exceptions). */
export function formNamingProblems(root = ROOT, exceptions: Record<string, string> = NAMING_EXCEPTIONS): string[] {
  const names = formNames(root);
  return walk(join(root, 'src'))
    .map((path) => relative(root, path).split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('src/generated/') && !/\.test\.tsx?$/.test(file) && !(file in exceptions))
    .flatMap((file) => namedFormThings(file, readFileSync(join(root, file), 'utf8'), names))
    .concat(
      Object.keys(exceptions)
        .filter((file) => !existsSync(join(root, file)))
        .map((file) => `scripts/check-form-names.ts: the exception "${file}" names no file; remove it`),
    );
}
