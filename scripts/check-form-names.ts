import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './catalogue-source';
import { type Token, tokenize } from './ts-tokens';

// Everything about a form is data (forms.yaml, its schema, its UI schema), so TypeScript under
// src/ names no form by its id or code, no name of a form (a flag forms.yaml declares for it, or a
// name built from its id: `s01CompanyShow`), and none of a form's fields. The source is read as
// tokens (scripts/ts-tokens.ts: no compiler needed), so comments are skipped and what is reported
// is code: a string literal or identifier naming one, a template literal or a `+` chain that can
// build one (`s0${n}SubmitOnceOnly`, 's01' + 'CompanyShow'), and a string literal naming a field,
// unless the file declares that name as a property of its own JSON Schema (an API's own field).
// Each is reported with file:line; read the form through forms.yaml instead (a declaration such
// as `provides:`, `approvalSummary:` or `parts:`).

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
  // LD2: the lead's visitor field (leads.business_nature); LD4: a CRM export's name split in two.
  'businessNature',
  'firstName',
  'lastName',
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

/** The names that only a form owns: its ids and codes, the flags it declares, and its field names less the shared words. */
export interface FormNames {
  ids: Set<string>;
  /** Spec §3: the flags forms.yaml declares for the forms (sectionFlags, languageFlag, submitOnceFlag), each with its form's id. */
  flags?: Map<string, string>;
  fields: Set<string>;
}

export function formNames(root = ROOT): Required<FormNames> {
  const list = parse(readFileSync(join(root, 'schemas', 'forms', 'forms.yaml'), 'utf8')) as {
    forms?: Array<{ id?: unknown; code?: unknown; sectionFlags?: unknown; languageFlag?: unknown; submitOnceFlag?: unknown }>;
  };
  const ids = new Set<string>();
  const flags = new Map<string, string>();
  const fields = new Set<string>();
  for (const form of list.forms ?? []) {
    if (typeof form.id === 'string') ids.add(form.id);
    if (typeof form.code === 'string') ids.add(form.code);
    if (typeof form.id !== 'string') continue;
    for (const flag of [...(Array.isArray(form.sectionFlags) ? form.sectionFlags : []), form.languageFlag, form.submitOnceFlag])
      if (typeof flag === 'string' && !flags.has(flag)) flags.set(flag, form.id);
    try {
      schemaFieldNames(JSON.parse(readFileSync(join(root, 'schemas', 'forms', `${form.id}.schema.json`), 'utf8')), fields);
    } catch {
      // A missing or broken schema is reported by the forms check.
    }
  }
  for (const word of SHARED_WORDS) fields.delete(word);
  return { ids, flags, fields };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The form id or code a whole word is, or the form it is a name of: a flag forms.yaml declares for
 * it, or a name built from its id or code (`s01CompanyShow`, `S01BoothDisplayName`).
 */
function formOf(word: string, names: FormNames): string | undefined {
  if (names.ids.has(word)) return word;
  const declared = names.flags?.get(word);
  if (declared) return declared;
  for (const id of names.ids) if (word.startsWith(id) && /^[A-Z_]/.test(word.slice(id.length))) return id;
  return undefined;
}

type Piece = { text: string } | { wild: true };

/**
 * The string-building expressions of the code: each template literal with substitutions, and each
 * chain of `+` joining at least one literal to other operands (an identifier with its member
 * accesses and calls, a parenthesised expression), as pieces: static text, or what only the running
 * program knows.
 */
function builtStrings(tokens: Token[]): Array<{ line: number; pieces: Piece[] }> {
  const found: Array<{ line: number; pieces: Piece[] }> = [];
  const punct = (index: number, value: string) => tokens[index]?.kind === 'punct' && (tokens[index] as { value: string }).value === value;
  const skipGroup = (index: number): number => {
    const open = (tokens[index] as { value: string }).value;
    const close = open === '(' ? ')' : ']';
    let depth = 0;
    for (let at = index; at < tokens.length; at += 1) {
      if (punct(at, open)) depth += 1;
      else if (punct(at, close)) {
        depth -= 1;
        if (depth === 0) return at + 1;
      }
    }
    return tokens.length;
  };
  const operand = (index: number): { pieces: Piece[]; next: number } | null => {
    const token = tokens[index];
    if (!token) return null;
    if (token.kind === 'string') return { pieces: [{ text: token.value }], next: index + 1 };
    if (token.kind === 'template') return { pieces: token.parts.flatMap((part, at) => (at === 0 ? [{ text: part }] : [{ wild: true as const }, { text: part }])), next: index + 1 };
    let next = index;
    if (token.kind === 'identifier' || token.kind === 'other') next = index + 1;
    else if (punct(index, '(')) next = skipGroup(index);
    else return null;
    for (;;) {
      if ((punct(next, '.') || punct(next, '?.')) && tokens[next + 1]?.kind === 'identifier') next += 2;
      else if (punct(next, '(') || punct(next, '[')) next = skipGroup(next);
      else break;
    }
    return { pieces: [{ wild: true }], next };
  };
  for (let index = 0; index < tokens.length; index += 1) {
    if (punct(index - 1, '+') || punct(index - 1, '.') || punct(index - 1, '?.')) continue;
    const first = operand(index);
    if (!first) continue;
    const pieces = [...first.pieces];
    let next = first.next;
    let operands = 1;
    while (punct(next, '+') && !punct(next + 1, '+') && !punct(next + 1, '=')) {
      const more = operand(next + 1);
      if (!more) break;
      pieces.push(...more.pieces);
      next = more.next;
      operands += 1;
    }
    const isTemplate = tokens[index]!.kind === 'template';
    if ((operands > 1 || isTemplate) && pieces.some((piece) => 'text' in piece && piece.text !== '')) found.push({ line: tokens[index]!.line, pieces });
  }
  return found;
}

/** The names a file declares as properties of its own JSON Schemas (`properties: { item: … }`): the portal's API's own. */
function schemaPropertiesDeclared(tokens: Token[]): Set<string> {
  const declared = new Set<string>();
  const braces: boolean[] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== 'punct') {
      const next = tokens[index + 1];
      if ((token.kind === 'identifier' || token.kind === 'string') && next?.kind === 'punct' && next.value === ':' && braces[braces.length - 1]) declared.add(token.value);
      return;
    }
    if (token.value === '{') {
      const key = tokens[index - 2];
      braces.push(
        tokens[index - 1]?.kind === 'punct' &&
          (tokens[index - 1] as { value: string }).value === ':' &&
          (key?.kind === 'identifier' || key?.kind === 'string') &&
          key.value === 'properties',
      );
    } else if (token.value === '}') braces.pop();
  });
  return declared;
}

/** `file:line: …` for each form id, code, flag or field the text names or builds. */
export function namedFormThings(file: string, text: string, names: FormNames): string[] {
  const problems: Array<{ line: number; message: string }> = [];
  const tokens = tokenize(text);
  const own = schemaPropertiesDeclared(tokens);
  const known = [...names.ids, ...(names.flags?.keys() ?? [])];
  const named = (line: number, word: string, form: string) =>
    problems.push({
      line,
      message: form === word ? `names the form "${word}"; read it from forms.yaml` : `names "${word}", a name of the form "${form}"; read it from forms.yaml`,
    });
  for (const token of tokens) {
    if (token.kind !== 'string' && token.kind !== 'identifier') continue;
    const form = formOf(token.value, names);
    if (form) named(token.line, token.value, form);
    else if (token.kind === 'string' && names.fields.has(token.value) && !own.has(token.value))
      problems.push({ line: token.line, message: `names the form field "${token.value}"; declare what it is for in forms.yaml or the form's schema` });
  }
  for (const { line, pieces } of builtStrings(tokens)) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template as its author wrote it, a substitution shown as ${…}
    const shown = pieces.map((piece) => ('text' in piece ? piece.text : '${…}')).join('');
    if (pieces.every((piece) => 'text' in piece)) {
      const form = formOf(shown, names);
      if (form) problems.push({ line, message: `builds "${shown}", a name of the form "${form}"; read it from forms.yaml` });
      continue;
    }
    const pattern = new RegExp(`^${pieces.map((piece) => ('text' in piece ? escapeRegExp(piece.text) : '[\\w$]*')).join('')}$`);
    const built = known.find((name) => pattern.test(name));
    const form = built && formOf(built, names);
    if (built && form)
      problems.push({ line, message: `builds "${shown}", which can make ${form === built ? 'the form' : `"${built}", a name of the form`} "${form}"; read it from forms.yaml` });
  }
  return problems.sort((a, b) => a.line - b.line).map(({ line, message }) => `${file}:${line}: ${message}`);
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
