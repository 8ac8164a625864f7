import type { FormFiles as FormFilesOfSchema } from '../../../engine/schemas/form-patch';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { hashForSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { AnySchemaObject } from 'ajv';
import { findScreen, type Catalogue } from '../../../engine/catalogue';
import { documentKeys, documentProblems } from '../../../engine/forms/documents';
import type { FormDefinition } from '../../../engine/forms/definitions';
import { formReferences, optionalNameProblems, referenceProblems, referenceResolves, showroomReferences, type FieldReference } from '../../../engine/forms/field-references';
import { partProblems } from '../../../engine/forms/parts';
import { eventSettingProblems } from '../../../engine/forms/event-settings';
import { providerProblems, providesProblems } from '../../../engine/forms/provides';
import { checkForm } from '../../../engine/forms/form-checks';
import { FORM_LIST_FILE, loadFormList, pointerOf, type FormProblem } from '../../../engine/forms/form-list';
import { addFormKeywords } from '../../../engine/forms/keywords';
import { uploadRules, type UploadRules } from '../../../engine/forms/files';
import { mergePatch } from '../../../engine/forms/merge-patch';
import { setFormContext } from '../../../engine/forms/rules';
import { validatorBody, validatorModule, validatorRequire, type CompiledValidators } from '../../../engine/forms/served-validators';
import { FORM_AJV_OPTIONS } from '../../../engine/forms/validator';
import { lookup, type LocaleTable } from '../../../engine/i18n';
import { LANGUAGES } from '../../../engine/language';
import { showroomProblems, type ShowroomDeclaration } from '../../../engine/showroom';
import { undeclaredFlagProblems } from '../../../engine/participation-flags';
import { localeTables } from '../../lib/messages';
import { readLiveCatalogue } from './live-catalogue';

// The forms as data, read from FORMS_DIR as one set: schemas/forms/forms.yaml, each form's schema
// and UI schema, each event's merge patch (events/<exhibitCode>/<id>.patch.json), and a compiled
// validator for every form the portal serves. A set is checked as a whole and is immutable: the
// form-set service swaps whole sets, so a request holding one never sees half of a change.

/** A form's schema and UI schema as the server holds them (the schema typed for ajv). */
export type FormFiles = Omit<FormFilesOfSchema, 'schema'> & { schema: AnySchemaObject };

/** One thing wrong with a change to the forms: the file, where in it (JSON pointer), and what. */
export type FormSetProblem = FormProblem;

/** A form's compiled validators, as the server runs them and the browser loads them. */
export interface ServedValidator {
  /** Content hash of the module: its URL's name, immutable. */
  hash: string;
  /** rjsf's hash of the root schema: the root validator's key. */
  rootKey: string;
  /** The ES module served to the browser. */
  module: string;
  validators: CompiledValidators;
}

/** What modules that read forms need (a live view of the current set, or one set). */
export interface FormRegistry {
  definitions: FormDefinition[];
  /** CT5: where the showroom's company and products come from (forms.yaml `showroom:`). */
  showroom?: ShowroomDeclaration;
  find(id: string): FormDefinition | undefined;
  /** The form's schema and UI schema for an event, its patch applied. */
  filesFor(id: string, exhibitCode: string): FormFiles;
  /** V2 V3: the upload purposes a file field may name, with their rules (forms.yaml `uploads:`). */
  uploads: UploadRules;
  /** H2 O2: the account's deadlines, in the order pages list them (forms.yaml `deadlines:`). */
  deadlines: DeadlineDeclaration[];
}

/** One deadline of an account: its name (stored with its dates) and the locale key of its label. */
export interface DeadlineDeclaration {
  name: string;
  title: string;
}

export interface FormSet extends FormRegistry {
  /** Hash of every file the set was read from: changes when and only when a file does. */
  version: string;
  loadedAt: Date;
  /** The content the set was read from (files and the forms' strings). */
  source: FormSetSource;
  /** The form as forms/ has it, before any event's patch. */
  baseFilesFor(id: string): FormFiles;
  /** Whether an event has a patch of the form (events/<exhibitCode>/<id>.patch.json). */
  hasPatch(id: string, exhibitCode: string): boolean;
  /** The compiled validators of a form for an event (its patched form's when it has a patch). */
  validatorFor(id: string, exhibitCode: string): ServedValidator;
  /** Served validator modules by content hash. */
  modules: ReadonlyMap<string, string>;
  /** A form's own strings (`forms.<id>` of locales/) by language, as the set was read. */
  stringsFor(id: string): Record<string, LocaleTable>;
  /** The screens as this set has them (a new form brings its screen). */
  catalogue: Catalogue;
  /** Per language, the texts of the catalogue's titles and menu labels. */
  catalogueStrings: Record<string, Record<string, string>>;
}

type Json = Record<string, unknown>;

/** The portal's schemas/ folder: the nearest one above this module (source tree and bundle alike). */
function findSchemasDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'schemas', 'forms', 'forms.yaml'))) return join(dir, 'schemas');
    if (dirname(dir) === dir) return join(from, '../../../../schemas');
  }
}

function dirname(path: string): string {
  return join(path, '..');
}

/** FORMS_DIR's default. */
export const SCHEMAS_DIR = findSchemasDir(import.meta.dirname);

/** Where the strings of a form set live: `locales/` beside FORMS_DIR when there is one. */
export function readLocaleTables(dir: string): Record<string, LocaleTable> {
  const localesDir = join(dir, '..', 'locales');
  if (!LANGUAGES.every((language) => existsSync(join(localesDir, `${language}.json`)))) return localeTables;
  return Object.fromEntries(LANGUAGES.map((language) => [language, JSON.parse(readFileSync(join(localesDir, `${language}.json`), 'utf8')) as LocaleTable]));
}

/**
 * A form set's content, wherever it is kept (FORMS_DIR or a version in the database): every file
 * by its path relative to FORMS_DIR ('/'-separated: forms/*.json, forms/forms.yaml,
 * events/<code>/<id>.patch.json) and the forms' strings per language (the `forms` part of locales/).
 */
export interface FormSetSource {
  files: Record<string, string>;
  strings: Record<string, LocaleTable>;
}

/** Every file a form set is read from, relative to its folder, sorted (the set's version covers them). */
function setFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(json|ya?ml)$/.test(name)) files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(join(dir, 'forms'));
  walk(join(dir, 'events'));
  return files;
}

/** The content of the form set in a folder (FORMS_DIR), with the forms' strings of the locales beside it. */
export function readFormSource(dir: string): FormSetSource {
  const files = Object.fromEntries(setFiles(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
  const locales = readLocaleTables(dir);
  return { files, strings: Object.fromEntries(LANGUAGES.map((language) => [language, (locales[language]!.forms ?? {}) as LocaleTable])) };
}

/** A hash of a set's content: equal for equal files and strings, whatever their order. */
export function sourceHash(source: FormSetSource): string {
  const files = Object.keys(source.files).sort();
  return createHash('sha256')
    .update(files.map((file) => `${file}\0${source.files[file]}\0`).join(''))
    .update(JSON.stringify(LANGUAGES.map((language) => canonical(source.strings[language] ?? {}))))
    .digest('hex');
}

/** JSON with object keys sorted, for hashing. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** The engine's forms.yaml checks that still answer `schemas/forms/forms.yaml (<id>) <key>: message` lines, at their pointer. */
function listLines(lines: string[], path: string): FormSetProblem[] {
  return lines.map((line) => ({ file: FORM_LIST_FILE, path, message: line.replace(/^schemas\/forms\/forms\.yaml \([^)]*\) \w+:? ?/, '') }));
}

/** Compiled validators of recent sets by schema and upload rules: a set that changes one form recompiles that form only. */
const compiled = new Map<string, ServedValidator>();
const COMPILED_KEPT = 400;

/** rjsf's standalone compile of a form's schema with the form keywords, as module text and functions. */
function compileValidators(schema: Json, uploads: UploadRules): ServedValidator {
  const key = JSON.stringify([schema, uploads]);
  const known = compiled.get(key);
  if (known) return known;
  const commonJs = compileSchemaValidatorsCode(schema, { extenderFn: (ajv) => addFormKeywords(ajv as never, uploads) as never, ajvOptionsOverrides: { ...FORM_AJV_OPTIONS } });
  const body = validatorBody(commonJs);
  const module = validatorModule(body);
  const hash = createHash('sha256').update(module).digest('hex').slice(0, 20);
  // The very body the browser's module runs, given the same `require`.
  const validators = new Function('require', body)(validatorRequire) as CompiledValidators;
  const served = { hash, rootKey: hashForSchema(schema), module, validators };
  compiled.set(key, served);
  if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  return served;
}

/**
 * Reads and checks a whole form set. Problems come back all at once (the set is then unusable);
 * without problems, the set is ready to serve.
 */
export function readFormSet(dir: string): FormSetReading {
  return readFormSetFrom(readFormSource(dir), dir);
}

export type FormSetReading = { set: FormSet; problems: [] } | { set: null; problems: FormSetProblem[] };

/**
 * Reads and checks a form set from its content (files and strings), wherever they are kept: the
 * same checks for FORMS_DIR and for a version in the database. `dir` is FORMS_DIR, whose
 * surroundings the set does not hold: the other strings (locales/ beside it, else the build's)
 * and the screens (screens.yaml beside it, else the build's).
 */
export function readFormSetFrom(source: FormSetSource, dir: string): FormSetReading {
  const problems: FormSetProblem[] = [];
  const files = Object.keys(source.files).sort();
  const contents = new Map<string, string>(files.map((file) => [file, source.files[file]!]));
  const formStrings = Object.fromEntries(LANGUAGES.map((language) => [language, (source.strings[language] ?? {}) as LocaleTable]));
  const surroundings = readLocaleTables(dir);
  const locales = Object.fromEntries(LANGUAGES.map((language) => [language, { ...surroundings[language], forms: formStrings[language] } as LocaleTable]));
  const json = (file: string): Json | null => {
    const text = contents.get(file);
    if (text === undefined) {
      problems.push({ file, path: '', message: 'file missing' });
      return null;
    }
    try {
      return JSON.parse(text) as Json;
    } catch (error) {
      problems.push({ file, path: '', message: (error as Error).message });
      return null;
    }
  };

  const loaded = loadFormList(contents.get(FORM_LIST_FILE) ?? '');
  problems.push(...loaded.problems);
  const definitions: FormDefinition[] = loaded.list?.forms ?? [];
  const uploads = uploadRules(loaded.list?.uploads);
  const ids = new Set(definitions.map((d) => d.id));
  const deadlines: DeadlineDeclaration[] = Object.entries(loaded.list?.deadlines ?? {}).map(([name, { title }]) => ({ name, title }));
  for (const deadline of deadlines)
    for (const language of LANGUAGES)
      if (lookup(locales[language]!, deadline.title) === undefined)
        problems.push({ file: FORM_LIST_FILE, path: pointerOf('deadlines', deadline.name, 'title'), message: `key "${deadline.title}" missing in locales/${language}.json` });
  // The screens as the set has them (screens.yaml beside FORMS_DIR): a new form brings its screen.
  const live = readLiveCatalogue(dir, locales, ids);
  problems.push(...live.problems);
  // The forms' strings and the screens are part of the set: a changed label is a new version too.
  const version = createHash('sha256')
    .update(files.map((file) => `${file}\0${contents.get(file)}\0`).join(''))
    .update(JSON.stringify(formStrings))
    .update(`${live.source ?? ''}\0${JSON.stringify(live.strings)}`)
    .digest('hex')
    .slice(0, 12);
  for (const line of showroomProblems(loaded.list?.showroom, [...ids])) {
    const match = /^schemas\/forms\/forms\.yaml (showroom[\w.]*): (.*)$/.exec(line);
    problems.push({ file: FORM_LIST_FILE, path: match ? pointerOf(...match[1]!.split('.')) : '/showroom', message: match ? match[2]! : line });
  }
  for (const message of providerProblems(definitions)) problems.push({ file: FORM_LIST_FILE, path: '/forms', message });
  for (const message of eventSettingProblems(definitions)) problems.push({ file: FORM_LIST_FILE, path: '/forms', message });

  const base = new Map<string, FormFiles>();
  // F11: the fields forms.yaml names, per form (its own declarations and the showroom's pointers),
  // resolved against the base form here and against each event's patched form below.
  const references = new Map<string, FieldReference[]>();
  definitions.forEach((definition, index) => {
    const at = (...parts: string[]) => pointerOf('forms', index, ...parts);
    if (definition.screen && !findScreen(live.catalogue, definition.screen))
      problems.push({ file: FORM_LIST_FILE, path: at('screen'), message: `screen "${definition.screen}" is not in screens.yaml` });
    for (const language of LANGUAGES)
      if (lookup(locales[language]!, definition.title) === undefined)
        problems.push({ file: FORM_LIST_FILE, path: at('title'), message: `key "${definition.title}" missing in locales/${language}.json` });
    const schemaFile = join('forms', `${definition.id}.schema.json`);
    const uiFile = join('forms', `${definition.id}.ui.json`);
    const schema = json(schemaFile);
    const ui = json(uiFile);
    if (!schema || !ui) return;
    base.set(definition.id, { schema, ui });
    const refs = [...formReferences(definition, index), ...showroomReferences(loaded.list?.showroom, definition.id)];
    // A name the base form lacks is forms.yaml's mistake, reported here once, not again per patch.
    references.set(
      definition.id,
      refs.filter((ref) => referenceResolves(ref, schema)),
    );
    // P1: a wrong contractor part would show a contractor the wrong fields.
    problems.push(
      ...listLines(partProblems(definition), at('parts')),
      ...listLines(documentProblems(definition), at('documents')),
      ...listLines(providesProblems(definition), at('provides')),
      ...optionalNameProblems(definition, index),
      ...referenceProblems(refs, FORM_LIST_FILE, { schema }),
    );
    // F7: a document's text comes from the form's strings, in every language.
    for (const key of documentKeys(definition)) {
      for (const language of LANGUAGES)
        if (lookup(locales[language]!, key) === undefined)
          problems.push({ file: FORM_LIST_FILE, path: at('documents'), message: `key "${key}" missing in locales/${language}.json` });
    }
    problems.push(...checkForm({ schemaFile, uiFile }, definition.id, schema, ui, locales, uploads));
    // Spec §3: a flag the schema names is one forms.yaml declares for the form (else nobody could set it).
    for (const problem of undeclaredFlagProblems(definition, schema)) problems.push({ file: schemaFile, ...problem });
  });

  const patched = new Map<string, FormFiles>();
  for (const file of files.filter((f) => f.startsWith(`events${'/'}`) && f.endsWith('.patch.json'))) {
    const [, event, name] = file.split('/');
    const formId = name!.replace(/\.patch\.json$/, '');
    const files = base.get(formId);
    if (!files) {
      // With forms.yaml unreadable no form is known yet: its own problems come first.
      if (loaded.list && !ids.has(formId)) problems.push({ file, path: '', message: `no form "${formId}"` });
      continue;
    }
    const patch = json(file) as { schema?: unknown; ui?: unknown } | null;
    if (!patch) continue;
    for (const part of Object.keys(patch).filter((k) => k !== 'schema' && k !== 'ui'))
      problems.push({ file, path: pointerOf(part), message: 'only "schema" and "ui" may be patched' });
    const result = { schema: mergePatch(files.schema, patch.schema ?? {}) as AnySchemaObject, ui: mergePatch(files.ui, patch.ui ?? {}) };
    patched.set(`${event}/${formId}`, result);
    // Problems of the patched form point into the patch (its `schema` and `ui` halves).
    problems.push(...checkForm({ schemaFile: file, schemaPrefix: '/schema', uiFile: file, uiPrefix: '/ui' }, formId, result.schema, result.ui, locales, uploads));
    const definition = definitions.find((d) => d.id === formId);
    if (definition) for (const problem of undeclaredFlagProblems(definition, patch.schema ?? {}, '/schema')) problems.push({ file, ...problem });
    // F11: what forms.yaml names must exist in the event's form too, unless declared optional.
    problems.push(...referenceProblems(references.get(formId) ?? [], FORM_LIST_FILE, { schema: result.schema, patch: { file, schema: patch.schema } }));
  }

  // Every form the portal serves gets its validator, loaded and run once on an empty submission:
  // a validator that does not compile or crashes refuses the set, never a submit.
  const validators = new Map<string, ServedValidator>();
  const modules = new Map<string, string>();
  const compile = (key: string, file: string, schema: Json) => {
    try {
      const served = compileValidators(schema, uploads);
      const root = served.validators[served.rootKey];
      if (!root) throw new Error('the compiled validator has no root function');
      setFormContext({ flags: {}, quotas: {} });
      root({});
      validators.set(key, served);
    } catch (error) {
      problems.push({ file, path: '', message: `validator: ${(error as Error).message}` });
    }
  };
  if (problems.length === 0) {
    for (const [id, files] of base) compile(id, join('forms', `${id}.schema.json`), files.schema);
    for (const [key, files] of patched) compile(key, join('events', `${key}.patch.json`), files.schema);
  }
  if (problems.length > 0) return { set: null, problems };

  for (const served of validators.values()) modules.set(served.hash, served.module);
  const find = (id: string) => definitions.find((d) => d.id === id);
  const set: FormSet = {
    version,
    loadedAt: new Date(),
    source,
    definitions,
    showroom: loaded.list?.showroom as ShowroomDeclaration | undefined,
    uploads,
    deadlines,
    catalogue: live.catalogue,
    catalogueStrings: live.strings,
    find,
    modules,
    filesFor(id, exhibitCode) {
      const files = patched.get(`${exhibitCode}/${id}`) ?? base.get(id);
      if (!files) throw new Error(`Unknown form ${id}`);
      return files;
    },
    baseFilesFor(id) {
      const files = base.get(id);
      if (!files) throw new Error(`Unknown form ${id}`);
      return files;
    },
    hasPatch: (id, exhibitCode) => patched.has(`${exhibitCode}/${id}`),
    stringsFor: (id) => Object.fromEntries(LANGUAGES.map((language) => [language, (formStrings[language]![id] ?? {}) as LocaleTable])),
    validatorFor(id, exhibitCode) {
      const served = validators.get(`${exhibitCode}/${id}`) ?? validators.get(id);
      if (!served) throw new Error(`Unknown form ${id}`);
      return served;
    },
  };
  return { set, problems: [] };
}

/** A form set that must be valid (scripts and tests that read the forms once). */
export function loadFormRegistry(dir = SCHEMAS_DIR): FormSet {
  const { set, problems } = readFormSet(dir);
  if (!set) throw new Error(problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n'));
  return set;
}
