import type { FormFiles, FormPatch } from '../schemas/form-patch';
import type { FormProblem } from '../schemas/form-problem';
import { LANGUAGES, type Language } from '../language';
import type { FormDefinition } from './definitions';
import { formReferences, referenceResolves, showroomReferences, type FieldReference } from './field-references';
import { mergePatch } from './merge-patch';
import { objectProperties } from './object-properties';

// F11: the form editor's operations on an event's patch of one form, without React or state. Each
// operation reads the base form, the event's current merge patch and its strings, changes the
// patched form as the organiser asked, and answers the new merge patch (the difference between the
// base form and the changed one, so arrays are always sent whole: a removed field leaves
// `properties`, `required` and `ui:order` together) with the strings the patch needs, or a coded
// refusal. Rules the operations keep:
// - a question of the base form keeps its title keys (other events share them): a changed title or
//   help text gets a key of this event (`forms.<formId>.byEvent.<exhibitCode>.<path>.<what>`);
// - a condition ("show this question when that answer is …") is an `allOf` entry
//   `{ if: { required: [that], properties: { that: { const: value } } }, then: { properties: { this: … } } }`:
//   rjsf shows the field only while the condition holds and ajv judges it the same way on both
//   sides. Because `additionalProperties: false` sees only sibling `properties`, an object holding a
//   conditional field lists its fields in `propertyNames` instead;
// - a hidden question keeps its answers (`"ui:field": "hidden"`) and is never required.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const clone = <T>(value: T): T => structuredClone(value);

/** Texts by language, each a map of full locale keys (`forms.s04.title`) to text. */
export type Strings = Partial<Record<Language, Record<string, string>>>;
/** One text in each language (a missing or empty one is a missing translation). */
export type Texts = Partial<Record<Language, string>>;

/** What the editor works on: one form of one event. */
export interface EditorForm {
  formId: string;
  exhibitCode: string;
  base: FormFiles;
  patch: FormPatch | null;
  /** The strings this event's draft adds or changes. */
  strings: Strings;
  /** Every string the form set has for this form now (all events'). */
  known: Strings;
}

export const EDITOR_ERROR_CODES = [
  'questionIdInvalid',
  'questionIdTaken',
  'questionMissing',
  'containerMissing',
  'optionsMissing',
  'optionCodeInvalid',
  'optionCodeRepeated',
  'uploadPurposeMissing',
  'conditionTargetMissing',
  'conditionOnItself',
  'conditionValueInvalid',
  'conditionalInList',
  'notAQuestion',
  'sharedText',
] as const;
export type EditorErrorCode = (typeof EDITOR_ERROR_CODES)[number];
export interface EditorError {
  code: EditorErrorCode;
  params: Record<string, string>;
}

export type EditOutcome = { ok: true; patch: FormPatch; strings: Strings } | { ok: false; error: EditorError };

export const QUESTION_KINDS = ['text', 'longText', 'number', 'date', 'choice', 'yesNo', 'email', 'country', 'file', 'list'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** The id a new question may have: a property name that is also a safe locale key segment. */
export const QUESTION_ID = /^[a-z][a-zA-Z0-9]{0,39}$/;
const OPTION_CODE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,39}$/;

// ---------------------------------------------------------------------------------------------
// Merge patches

/** The form with the patch applied. */
export function patchedFiles(base: FormFiles, patch: FormPatch | null): FormFiles {
  return { schema: mergePatch(clone(base.schema), patch?.schema ?? {}), ui: mergePatch(clone(base.ui), patch?.ui ?? {}) };
}

function sameValue(a: unknown, b: unknown): boolean {
  return (
    JSON.stringify(a) === JSON.stringify(b) ||
    (isObject(a) && isObject(b) && Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((key) => sameValue(a[key], b[key])))
  );
}

/** The RFC 7386 merge patch that turns `from` into `to` (undefined: nothing changes). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return sameValue(from, to) ? undefined : clone(to);
  const patch: Node = {};
  for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    if (!Object.hasOwn(from, key)) patch[key] = clone(value);
    else {
      const change = createMergePatch(from[key], value);
      if (change !== undefined) patch[key] = change;
    }
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** The event's patch that makes `files` out of the base form. */
export function patchOf(base: FormFiles, files: FormFiles): FormPatch {
  const patch: FormPatch = {};
  const schema = createMergePatch(base.schema, files.schema);
  const ui = createMergePatch(base.ui, files.ui);
  if (isObject(schema)) patch.schema = schema;
  if (isObject(ui)) patch.ui = ui;
  return patch;
}

// ---------------------------------------------------------------------------------------------
// Finding questions

/** A question's place: the names of the fields on the way (a list's items entered on the way), its own last. */
export type Route = readonly string[];

interface Container {
  /** The object schema whose fields are the questions. */
  node: Node;
  /** Its UI schema (created on the way when missing). */
  ui: Node;
  /** Inside a list's items (one item is the object). */
  inList: boolean;
}

/** The object a route leads to (a list: its items), in files that may be changed. */
function containerAt(files: FormFiles, route: Route, createUi = true): Container | null {
  let node: Node = files.schema;
  let ui: Node = files.ui;
  let inList = false;
  const uiChild = (parent: Node, key: string): Node => {
    if (!isObject(parent[key])) {
      if (!createUi) return {};
      parent[key] = {};
    }
    return parent[key] as Node;
  };
  for (const name of route) {
    const child = objectProperties(node).get(name);
    if (!child) return null;
    ui = uiChild(ui, name);
    if (child.type === 'array' && isObject(child.items)) {
      node = child.items;
      ui = uiChild(ui, 'items');
      inList = true;
    } else node = child;
  }
  return node.type === 'object' || isObject(node.properties) ? { node, ui, inList } : null;
}

/** Where a field of an object is defined: its own `properties`, or the `then` of one of its conditions. */
interface Place {
  properties: Node;
  /** The condition entry holding it (a conditional question), with its index in `allOf`. */
  condition: { entry: Node; index: number } | null;
}

function placeOf(container: Node, id: string): Place | null {
  if (isObject(container.properties) && isObject(container.properties[id])) return { properties: container.properties, condition: null };
  const entries = Array.isArray(container.allOf) ? container.allOf : [];
  for (const [index, entry] of entries.entries()) {
    if (isObject(entry) && isObject(entry.then) && isObject(entry.then.properties) && isObject(entry.then.properties[id]))
      return { properties: entry.then.properties, condition: { entry, index } };
  }
  return null;
}

const requiredOf = (node: Node): string[] => (Array.isArray(node.required) ? (node.required as unknown[]).map(String) : []);
function setRequiredList(node: Node, names: string[]) {
  if (names.length > 0) node.required = names;
  else delete node.required;
}

/** The condition an entry of `allOf` states, when the editor can read it. */
export interface Condition {
  /** The question of the same object whose answer decides. */
  on: string;
  equals: string | number | boolean;
}

function conditionOf(entry: Node): Condition | null {
  const test = entry.if;
  if (!isObject(test) || !isObject(test.properties)) return null;
  const [on, rule] = Object.entries(test.properties)[0] ?? [];
  if (!on || !isObject(rule) || rule.const === undefined) return null;
  const value = rule.const;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? { on, equals: value } : null;
}

/** What kind of question a field is, as the editor offers them ('other' for anything else). */
export function kindOf(schema: Node, ui: Node | undefined): QuestionKind | 'section' | 'other' {
  if (typeof schema.file === 'string') return 'file';
  if (schema.country === true) return 'country';
  if (schema.type === 'array') return 'list';
  if (schema.type === 'boolean') return 'yesNo';
  if (schema.type === 'number' || schema.type === 'integer') return 'number';
  if (Array.isArray(schema.enum)) return 'choice';
  if (schema.type === 'string') {
    if (schema.format === 'email') return 'email';
    if (schema.format === 'date') return 'date';
    return ui?.['ui:widget'] === 'textarea' ? 'longText' : 'text';
  }
  if (schema.type === 'object') return 'section';
  return 'other';
}

export interface Question {
  route: string[];
  id: string;
  kind: QuestionKind | 'section' | 'other';
  /** Locale keys (null: none). */
  title: string | null;
  help: string | null;
  required: boolean;
  hidden: boolean;
  /** The base form has it (its keys are shared with other events). */
  inBase: boolean;
  condition: Condition | null;
  /** A choice's option codes. */
  options: string[];
  /** A file's upload purpose. */
  purpose: string | null;
  /** Sections and lists: their questions can be edited too. */
  hasQuestions: boolean;
}

/** The questions of an object (a list: of its items) in the order the form shows them. */
export function questionsOf(files: FormFiles, base: FormFiles, container: Route = []): Question[] {
  const found = containerAt(files, container, false);
  if (!found) return [];
  const baseContainer = containerAt(base, container, false);
  const baseNames = baseContainer ? new Set(objectProperties(baseContainer.node).keys()) : new Set<string>();
  const names = [...objectProperties(found.node).keys()];
  const order = Array.isArray(found.ui['ui:order']) ? (found.ui['ui:order'] as unknown[]).map(String) : [];
  const ordered = [...order.filter((name) => names.includes(name)), ...names.filter((name) => !order.includes(name))];
  return ordered.map((id) => {
    const place = placeOf(found.node, id)!;
    const schema = place.properties[id] as Node;
    const ui = isObject(found.ui[id]) ? (found.ui[id] as Node) : undefined;
    const required = place.condition ? requiredOf(isObject(place.condition.entry.then) ? place.condition.entry.then : {}).includes(id) : requiredOf(found.node).includes(id);
    const kind = kindOf(schema, ui);
    return {
      route: [...container, id],
      id,
      kind,
      title: typeof ui?.['ui:title'] === 'string' ? (ui['ui:title'] as string) : typeof schema.title === 'string' ? schema.title : null,
      help: typeof ui?.['ui:help'] === 'string' ? (ui['ui:help'] as string) : typeof schema.description === 'string' ? schema.description : null,
      required,
      hidden: ui?.['ui:field'] === 'hidden',
      inBase: baseNames.has(id),
      condition: place.condition ? conditionOf(place.condition.entry) : null,
      options: Array.isArray(schema.enum) ? (schema.enum as unknown[]).map(String) : [],
      purpose: typeof schema.file === 'string' ? schema.file : null,
      hasQuestions: kind === 'section' || (kind === 'list' && isObject(schema.items) && (schema.items as Node).type === 'object'),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Strings

const textOf = (form: EditorForm, language: Language, key: string): string | undefined => form.strings[language]?.[key] ?? form.known[language]?.[key];

/** A key no string of the form uses (and none nested under or above it). */
function keyFree(form: EditorForm, key: string): boolean {
  for (const table of [...Object.values(form.known), ...Object.values(form.strings)])
    for (const existing of Object.keys(table ?? {})) if (existing === key || existing.startsWith(`${key}.`) || key.startsWith(`${existing}.`)) return false;
  return true;
}

/** An event's code as a segment of a string key (`forms.<formId>.byEvent.<segment>.…`). */
export const eventSegment = (exhibitCode: string) => exhibitCode.replace(/[^A-Za-z0-9_-]/g, '_');

/** The prefix of the keys this event's edits make: other events' keys and the base form's are never reused. */
export const eventKeyPrefix = (form: Pick<EditorForm, 'formId' | 'exhibitCode'>) => `forms.${form.formId}.byEvent.${eventSegment(form.exhibitCode)}.`;

/** A key of this event for one text of a question: its current one when it is already the event's, else a new one that cannot clash. */
function eventKey(form: EditorForm, route: Route, what: 'title' | 'help', current: string | null): string {
  if (current && current.startsWith(eventKeyPrefix(form))) return current;
  const stem = `${eventKeyPrefix(form)}${route.join('_')}.${what}`;
  for (let n = 1; ; n += 1) {
    const key = n === 1 ? stem : `${stem}${n}`;
    if (keyFree(form, key)) return key;
  }
}

export const enumLabelKey = (formId: string, id: string, code: string) => `forms.${formId}.enum.${id}.${code}`;

function putTexts(strings: Strings, key: string, texts: Texts) {
  for (const language of LANGUAGES) {
    const text = texts[language]?.trim();
    const table = { ...(strings[language] ?? {}) };
    if (text) table[key] = text;
    else delete table[key];
    strings[language] = table;
  }
}

/** Every locale key the form's files name: titles, descriptions, help and other UI texts, enum labels. */
export function keysOf(formId: string, files: FormFiles): Set<string> {
  const keys = new Set<string>();
  const visit = (node: unknown, property: string | null) => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, property));
    if (!isObject(node)) return;
    for (const key of ['title', 'description']) if (typeof node[key] === 'string') keys.add(node[key] as string);
    if (Array.isArray(node.enum) && property) for (const code of node.enum) if (typeof code === 'string') keys.add(enumLabelKey(formId, property, code));
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && isObject(child)) for (const [name, field] of Object.entries(child)) visit(field, name);
      else if (key === 'items') visit(child, property);
      else if (key !== 'enum' && key !== 'const' && key !== 'default') visit(child, null);
    }
  };
  visit(files.schema, null);
  const visitUi = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visitUi);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (/^ui:(help|title|description|placeholder|addLabel|removeLabel)$/.test(key) && typeof value === 'string') keys.add(value);
      else visitUi(value);
    }
  };
  visitUi(files.ui);
  return keys;
}

/** The draft's strings the changed form still names (a removed question's texts go with it). */
function prunedStrings(strings: Strings, keys: Set<string>): Strings {
  const pruned: Strings = {};
  for (const language of LANGUAGES) pruned[language] = Object.fromEntries(Object.entries(strings[language] ?? {}).filter(([key]) => keys.has(key)));
  return pruned;
}

/**
 * The form's strings in full, as a draft saves them: the form set's with this event's over them,
 * less this event's own keys the changed form no longer names (a removed question's texts go).
 */
export function stringsToSave(form: EditorForm): Record<Language, Record<string, string>> {
  const named = keysOf(form.formId, patchedFiles(form.base, form.patch));
  const prefix = eventKeyPrefix(form);
  const full = {} as Record<Language, Record<string, string>>;
  for (const language of LANGUAGES) {
    const merged = { ...(form.known[language] ?? {}), ...(form.strings[language] ?? {}) };
    full[language] = Object.fromEntries(Object.entries(merged).filter(([key]) => !key.startsWith(prefix) || named.has(key)));
  }
  return full;
}

/** A saved draft's strings (in full) as the editor keeps them: only what differs from the form set's. */
export function draftStrings(known: Strings, saved: Strings): Strings {
  const own: Strings = {};
  for (const language of LANGUAGES) own[language] = Object.fromEntries(Object.entries(saved[language] ?? {}).filter(([key, text]) => known[language]?.[key] !== text));
  return own;
}

/** A key of the form (changed by this event or new) that lacks a text in some language. */
export interface MissingTranslation {
  key: string;
  /** The question it belongs to, when one does. */
  route: string[] | null;
  languages: Language[];
}

/** The translations the patched form lacks, with the question each belongs to. */
export function missingTranslations(form: EditorForm): MissingTranslation[] {
  const files = patchedFiles(form.base, form.patch);
  const owners = new Map<string, string[]>();
  const visit = (container: Route) => {
    for (const question of questionsOf(files, form.base, container)) {
      for (const key of [question.title, question.help, ...question.options.map((code) => enumLabelKey(form.formId, question.id, code))])
        if (key && !owners.has(key)) owners.set(key, question.route);
      if (question.hasQuestions) visit(question.route);
    }
  };
  visit([]);
  const missing: MissingTranslation[] = [];
  for (const key of keysOf(form.formId, files)) {
    const languages = LANGUAGES.filter((language) => !textOf(form, language, key));
    if (languages.length > 0) missing.push({ key, route: owners.get(key) ?? null, languages });
  }
  return missing;
}

/** A question's texts in every language, as the editor shows them (the draft's text over the form set's). */
export function textsOf(form: EditorForm, key: string | null): Texts {
  const texts: Texts = {};
  if (!key) return texts;
  for (const language of LANGUAGES) {
    const text = textOf(form, language, key);
    if (text !== undefined) texts[language] = text;
  }
  return texts;
}

// ---------------------------------------------------------------------------------------------
// Operations

const fail = (code: EditorErrorCode, params: Record<string, string> = {}): EditorError => ({ code, params });

/** Runs a change on a copy of the patched form and answers the new patch with the strings it names. */
function edit(form: EditorForm, change: (files: FormFiles, strings: Strings) => EditorError | undefined): EditOutcome {
  const files = patchedFiles(form.base, form.patch);
  const strings = clone(form.strings);
  const error = change(files, strings);
  if (error) return { ok: false, error };
  files.ui = withoutEmptyUi(files.ui, form.base.ui);
  return { ok: true, patch: patchOf(form.base, files), strings: prunedStrings(strings, keysOf(form.formId, files)) };
}

/** The UI schema without the empty objects a change left where the base form has none (a patch need not name them). */
function withoutEmptyUi(ui: Node, base: unknown): Node {
  const kept: Node = {};
  for (const [key, value] of Object.entries(ui)) {
    const baseValue = isObject(base) ? base[key] : undefined;
    if (!isObject(value)) kept[key] = value;
    else {
      const inner = withoutEmptyUi(value, baseValue);
      if (Object.keys(inner).length > 0 || isObject(baseValue)) kept[key] = inner;
    }
  }
  return kept;
}

function splitRoute(route: Route): { container: string[]; id: string } {
  return { container: route.slice(0, -1), id: route.at(-1) ?? '' };
}

/** Finds a question for a change: its container, where it is defined, its schema and UI. */
function locate(files: FormFiles, route: Route) {
  const { container, id } = splitRoute(route);
  const found = containerAt(files, container);
  const place = found ? placeOf(found.node, id) : null;
  if (!found || !place) return null;
  if (!isObject(found.ui[id])) found.ui[id] = {};
  return { ...found, id, place, schema: place.properties[id] as Node, fieldUi: found.ui[id] as Node };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `propertyNames` that allows exactly these names. A pattern, not an enum: an enum would read as a choice whose labels the checks ask for. */
const onlyNames = (names: readonly string[]) => ({ pattern: `^(${names.map(escapeRegExp).join('|')})$` });

/** Fields of the object that only a condition defines need `propertyNames` instead of `additionalProperties: false`; without them, back again. */
function closeObject(node: Node) {
  const own = new Set(isObject(node.properties) ? Object.keys(node.properties) : []);
  const all = [...objectProperties(node).keys()];
  const conditional = all.some((name) => !own.has(name));
  const listed = isObject(node.propertyNames) && typeof node.propertyNames.pattern === 'string';
  if (conditional && (node.additionalProperties === false || listed)) {
    delete node.additionalProperties;
    node.propertyNames = onlyNames(all);
  } else if (!conditional && listed) {
    delete node.propertyNames;
    node.additionalProperties = false;
  }
  if (Array.isArray(node.allOf) && node.allOf.length === 0) delete node.allOf;
}

/** The required list with a name added where the object's field order puts it (a base form's list comes back as it was). */
function withRequired(node: Node, names: readonly string[], id: string): string[] {
  if (names.includes(id)) return [...names];
  const fields = [...objectProperties(node).keys()];
  const position = fields.indexOf(id);
  const before = names.findIndex((name) => fields.indexOf(name) > position);
  return before < 0 || position < 0 ? [...names, id] : [...names.slice(0, before), id, ...names.slice(before)];
}

function orderWith(container: Container, id: string, after: string | null) {
  const names = [...objectProperties(container.node).keys()];
  const current = Array.isArray(container.ui['ui:order']) ? (container.ui['ui:order'] as unknown[]).map(String) : names.filter((name) => name !== id);
  const order = current.filter((name) => name !== id);
  const star = order.indexOf('*');
  const at = after === null ? (star >= 0 ? star : order.length) : order.indexOf(after) + 1;
  order.splice(at <= 0 && after !== null ? order.length : at, 0, id);
  container.ui['ui:order'] = order;
}

function removeFromOrder(container: Container, id: string) {
  if (Array.isArray(container.ui['ui:order'])) container.ui['ui:order'] = (container.ui['ui:order'] as unknown[]).filter((name) => name !== id);
}

/** The field a new question of a kind is (its title set by the caller). */
function newField(kind: QuestionKind, options: readonly string[], purpose: string | null): { schema: Node; ui: Node } {
  switch (kind) {
    case 'text':
      return { schema: { type: 'string', maxLength: 200 }, ui: {} };
    case 'longText':
      return { schema: { type: 'string', maxLength: 2000 }, ui: { 'ui:widget': 'textarea', 'ui:options': { rows: 4 } } };
    case 'number':
      return { schema: { type: 'number' }, ui: {} };
    case 'date':
      return { schema: { type: 'string', format: 'date' }, ui: {} };
    case 'choice':
      return { schema: { type: 'string', enum: [...options] }, ui: { 'ui:widget': 'radio' } };
    case 'yesNo':
      return { schema: { type: 'boolean' }, ui: {} };
    case 'email':
      return { schema: { type: 'string', format: 'email', noFullWidth: true, maxLength: 254 }, ui: {} };
    case 'country':
      return { schema: { type: 'string', country: true, maxLength: 100 }, ui: { 'ui:widget': 'country' } };
    case 'file':
      // A file reference as the upload endpoint makes it (schemas/README.md).
      return {
        schema: {
          type: 'object',
          file: purpose,
          additionalProperties: false,
          required: ['id', 'name', 'size', 'type'],
          properties: {
            id: { type: 'string', minLength: 1 },
            name: { type: 'string', minLength: 1 },
            size: { type: 'integer', minimum: 0 },
            type: { type: 'string' },
            dpi: { type: ['number', 'null'] },
          },
        },
        ui: { 'ui:field': 'upload', 'ui:options': { purpose } },
      };
    case 'list':
      return { schema: { type: 'array', maxItems: 100, items: { type: 'object', additionalProperties: false, properties: {} } }, ui: {} };
  }
}

export interface OptionInput {
  code: string;
  labels: Texts;
}

export interface NewQuestion {
  /** The section or list it goes into ([] = the form itself). */
  container: string[];
  id: string;
  kind: QuestionKind;
  title: Texts;
  help?: Texts;
  required?: boolean;
  /** Choice: its options. */
  options?: readonly OptionInput[];
  /** File: a purpose forms.yaml `uploads:` declares. */
  purpose?: string;
  /** The question it follows (null: last). */
  after?: string | null;
  /** List: the title of its first field (each item's text). */
  itemTitle?: Texts;
}

function optionProblem(options: readonly OptionInput[]): EditorError | undefined {
  if (options.length === 0) return fail('optionsMissing');
  const seen = new Set<string>();
  for (const option of options) {
    if (!OPTION_CODE.test(option.code)) return fail('optionCodeInvalid', { code: option.code });
    if (seen.has(option.code)) return fail('optionCodeRepeated', { code: option.code });
    seen.add(option.code);
  }
  return undefined;
}

/** An id free for a new question of the container: no field of the patched or the base form, no choice labels of another question by that name. */
function idProblem(form: EditorForm, files: FormFiles, container: Route, id: string, kind: QuestionKind): EditorError | undefined {
  if (!QUESTION_ID.test(id)) return fail('questionIdInvalid', { id });
  const here = containerAt(files, container, false);
  const base = containerAt(form.base, container, false);
  if (here && objectProperties(here.node).has(id)) return fail('questionIdTaken', { id });
  // A field the base form has (this event removed it) keeps its meaning elsewhere: answers stored under it would be read as the new question's.
  if (base && objectProperties(base.node).has(id)) return fail('questionIdTaken', { id });
  // Choice labels are keyed by field name across the form: another question's labels would show.
  if (kind === 'choice' && !keyFree(form, `forms.${form.formId}.enum.${id}`)) return fail('questionIdTaken', { id });
  return undefined;
}

export function addQuestion(form: EditorForm, question: NewQuestion, uploadPurposes: readonly string[] = []): EditOutcome {
  return edit(form, (files, strings) => {
    const container = containerAt(files, question.container);
    if (!container) return fail('containerMissing', { container: question.container.join('.') });
    const problem = idProblem(form, files, question.container, question.id, question.kind);
    if (problem) return problem;
    const options = question.options ?? [];
    if (question.kind === 'choice') {
      const optionError = optionProblem(options);
      if (optionError) return optionError;
    }
    if (question.kind === 'file' && (!question.purpose || !uploadPurposes.includes(question.purpose))) return fail('uploadPurposeMissing', { purpose: question.purpose ?? '' });
    const route = [...question.container, question.id];
    const field = newField(
      question.kind,
      options.map((option) => option.code),
      question.purpose ?? null,
    );
    const titleKey = eventKey(form, route, 'title', null);
    field.schema.title = titleKey;
    putTexts(strings, titleKey, question.title);
    if (question.help && Object.values(question.help).some((text) => text?.trim())) {
      const helpKey = eventKey(form, route, 'help', null);
      field.ui['ui:help'] = helpKey;
      putTexts(strings, helpKey, question.help);
    }
    for (const option of options) putTexts(strings, enumLabelKey(form.formId, question.id, option.code), option.labels);
    if (question.kind === 'list') {
      // A list starts with one text per item; more questions go into its items like into a section.
      const itemKey = eventKey(form, [...route, 'item'], 'title', null);
      ((field.schema.items as Node).properties as Node).item = { type: 'string', maxLength: 200, title: itemKey };
      (field.schema.items as Node).required = ['item'];
      putTexts(strings, itemKey, question.itemTitle ?? question.title);
    }
    if (!isObject(container.node.properties)) container.node.properties = {};
    (container.node.properties as Node)[question.id] = field.schema;
    if (Object.keys(field.ui).length > 0) container.ui[question.id] = field.ui;
    if (question.required) setRequiredList(container.node, [...requiredOf(container.node), question.id]);
    orderWith(container, question.id, question.after ?? null);
    closeObject(container.node);
    return undefined;
  });
}

/** Removes a question: from its object's `properties` (or its condition), `required` and `ui:order` together; conditions on it go too. */
export function removeQuestion(form: EditorForm, route: Route): EditOutcome {
  return edit(form, (files) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    const { node, id, place } = found;
    if (place.condition) (node.allOf as unknown[]).splice(place.condition.index, 1);
    else {
      delete place.properties[id];
      setRequiredList(
        node,
        requiredOf(node).filter((name) => name !== id),
      );
    }
    // A question shown on this one's answer would never be shown again: it becomes unconditional.
    for (const entry of [...(Array.isArray(node.allOf) ? node.allOf : [])]) {
      if (isObject(entry) && conditionOf(entry)?.on === id) unwrapCondition(node, entry);
    }
    delete found.ui[id];
    removeFromOrder(found, id);
    closeObject(node);
    return undefined;
  });
}

/** Moves a conditional question's field back into its object's `properties` (required stays required). */
function unwrapCondition(node: Node, entry: Node) {
  const then = isObject(entry.then) ? entry.then : {};
  const fields = isObject(then.properties) ? then.properties : {};
  if (!isObject(node.properties)) node.properties = {};
  Object.assign(node.properties as Node, fields);
  node.allOf = (node.allOf as unknown[]).filter((other) => other !== entry);
  let required = requiredOf(node);
  for (const name of requiredOf(then)) required = withRequired(node, required, name);
  setRequiredList(node, required);
}

/** Hides a question (its answers are kept, it is no longer asked, so never required) or shows it again. */
export function setHidden(form: EditorForm, route: Route, hidden: boolean): EditOutcome {
  return edit(form, (files) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    if (hidden) {
      found.fieldUi['ui:field'] = 'hidden';
      setRequiredList(
        found.node,
        requiredOf(found.node).filter((name) => name !== found.id),
      );
      if (found.place.condition && isObject(found.place.condition.entry.then)) {
        const then = found.place.condition.entry.then;
        setRequiredList(
          then,
          requiredOf(then).filter((name) => name !== found.id),
        );
      }
    } else if (found.fieldUi['ui:field'] === 'hidden') delete found.fieldUi['ui:field'];
    if (Object.keys(found.fieldUi).length === 0) delete found.ui[found.id];
    return undefined;
  });
}

export function setRequired(form: EditorForm, route: Route, required: boolean): EditOutcome {
  return edit(form, (files) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    if (found.fieldUi['ui:field'] === 'hidden' && required) delete found.fieldUi['ui:field'];
    if (Object.keys(found.fieldUi).length === 0) delete found.ui[found.id];
    // A conditional question is required only while it is shown: its condition's `then` says so.
    const holder = found.place.condition && isObject(found.place.condition.entry.then) ? found.place.condition.entry.then : found.node;
    const others = requiredOf(holder).filter((name) => name !== found.id);
    setRequiredList(holder, required ? withRequired(found.node, requiredOf(holder), found.id) : others);
    return undefined;
  });
}

/** Sets a question's title and/or help text in every language. A base question's shared keys stay as they are: this event gets its own. */
export function setTexts(form: EditorForm, route: Route, texts: { title?: Texts; help?: Texts }): EditOutcome {
  return edit(form, (files, strings) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    if (texts.title) {
      const current = typeof found.fieldUi['ui:title'] === 'string' ? (found.fieldUi['ui:title'] as string) : typeof found.schema.title === 'string' ? found.schema.title : null;
      const key = eventKey(form, route, 'title', current);
      found.schema.title = key;
      delete found.fieldUi['ui:title'];
      putTexts(strings, key, texts.title);
    }
    if (texts.help) {
      const current = typeof found.fieldUi['ui:help'] === 'string' ? (found.fieldUi['ui:help'] as string) : null;
      if (Object.values(texts.help).some((text) => text?.trim())) {
        const key = eventKey(form, route, 'help', current);
        found.fieldUi['ui:help'] = key;
        putTexts(strings, key, texts.help);
      } else delete found.fieldUi['ui:help'];
    }
    if (Object.keys(found.fieldUi).length === 0) delete found.ui[found.id];
    return undefined;
  });
}

/**
 * Sets a choice's options. Labels are keyed by the field's name across the form
 * (`forms.<formId>.enum.<id>.<code>`): a new question's labels are its own; a base question's
 * existing labels are shared with other events, so only its new options take labels here.
 */
export function setOptions(form: EditorForm, route: Route, options: readonly OptionInput[]): EditOutcome {
  return edit(form, (files, strings) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    if (!Array.isArray(found.schema.enum)) return fail('notAQuestion', { question: route.join('.') });
    const problem = optionProblem(options);
    if (problem) return problem;
    const baseQuestion = questionsOf(form.base, form.base, route.slice(0, -1)).find((question) => question.id === found.id);
    const shared = new Set(baseQuestion?.options ?? []);
    found.schema.enum = options.map((option) => option.code);
    for (const option of options) if (!shared.has(option.code)) putTexts(strings, enumLabelKey(form.formId, found.id, option.code), option.labels);
    return undefined;
  });
}

/**
 * Sets one text of one language. Only the texts this event owns: its own keys and the labels of
 * options the base form does not have; a base form's text is shared by every event (give the
 * question a title of this event instead, with setTexts).
 */
export function setText(form: EditorForm, key: string, language: Language, text: string): EditOutcome {
  return edit(form, (files, strings) => {
    if (!keysOf(form.formId, files).has(key)) return fail('questionMissing', { question: key });
    if (keysOf(form.formId, form.base).has(key)) return fail('sharedText', { key });
    const table = { ...(strings[language] ?? {}) };
    if (text.trim()) table[key] = text.trim();
    else delete table[key];
    strings[language] = table;
    return undefined;
  });
}

/** The keys of the patched form this event may translate (see setText). */
export function ownKeys(form: EditorForm): string[] {
  const shared = keysOf(form.formId, form.base);
  return [...keysOf(form.formId, patchedFiles(form.base, form.patch))].filter((key) => !shared.has(key));
}

/** Moves a question to a place among its object's questions (0 = first). */
export function moveQuestion(form: EditorForm, route: Route, toIndex: number): EditOutcome {
  return edit(form, (files) => {
    const { container, id } = splitRoute(route);
    const found = containerAt(files, container);
    if (!found || !placeOf(found.node, id)) return fail('questionMissing', { question: route.join('.') });
    const shown = questionsOf(files, form.base, container).map((question) => question.id);
    const order = shown.filter((name) => name !== id);
    order.splice(Math.max(0, Math.min(toIndex, order.length)), 0, id);
    found.ui['ui:order'] = order;
    return undefined;
  });
}

/** Shows a question only when another question of the same object has an answer (null: always shown). */
export function setCondition(form: EditorForm, route: Route, condition: Condition | null): EditOutcome {
  return edit(form, (files) => {
    const found = locate(files, route);
    if (!found) return fail('questionMissing', { question: route.join('.') });
    const { node, id, place } = found;
    if (place.condition) unwrapCondition(node, place.condition.entry);
    if (condition) {
      if (condition.on === id) return fail('conditionOnItself', { question: id });
      const target = placeOf(node, condition.on);
      if (!target) return fail('conditionTargetMissing', { question: condition.on });
      // One level of conditions: a question shown on a conditional answer would hide with it, which a form cannot say plainly.
      if (target.condition) return fail('conditionTargetMissing', { question: condition.on });
      const targetSchema = target.properties[condition.on] as Node;
      const kind = kindOf(targetSchema, isObject(found.ui[condition.on]) ? (found.ui[condition.on] as Node) : undefined);
      const value = condition.equals;
      const fits =
        kind === 'choice'
          ? (targetSchema.enum as unknown[]).includes(value)
          : kind === 'yesNo'
            ? typeof value === 'boolean'
            : kind === 'number'
              ? typeof value === 'number'
              : ['text', 'email', 'country', 'date'].includes(kind) && typeof value === 'string' && value !== '';
      if (!fits) return fail('conditionValueInvalid', { question: condition.on, value: String(value) });
      const properties = node.properties as Node;
      const wasRequired = requiredOf(node).includes(id);
      const field = properties[id];
      delete properties[id];
      setRequiredList(
        node,
        requiredOf(node).filter((name) => name !== id),
      );
      const then: Node = { properties: { [id]: field } };
      if (wasRequired) then.required = [id];
      const entry = { if: { required: [condition.on], properties: { [condition.on]: { const: value } } }, then };
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), entry];
    }
    closeObject(node);
    return undefined;
  });
}

// ---------------------------------------------------------------------------------------------
// forms.yaml's names

/** A field forms.yaml names that the changed form no longer has (or has as another kind). */
export interface TouchedReference {
  /** The question whose removal or change touches it (the route's first step the form lost). */
  route: string[];
  /** JSON pointer into forms.yaml. */
  at: string;
  /** The field's dotted path. */
  name: string;
  /** The declaration already lets an event remove it: its summary or document shows what the form has. */
  optional: boolean;
  /**
   * The declaration could list it under `optional:` (approval summaries, documents): the fix the
   * editor offers besides hiding the question (a hidden question keeps the field).
   */
  optionable: boolean;
}

/**
 * What a change does to the fields forms.yaml names: each reference the base form resolves and the
 * changed form does not, with the question it belongs to. Hiding a question keeps its field, so a
 * hidden question never touches one.
 */
export function touchedReferences(definition: FormDefinition, definitionIndex: number, base: FormFiles, changed: FormFiles, showroom?: unknown): TouchedReference[] {
  const references: FieldReference[] = [...formReferences(definition, definitionIndex), ...showroomReferences(showroom, definition.id)];
  const touched: TouchedReference[] = [];
  for (const reference of references) {
    if (!referenceResolves(reference, base.schema) || referenceResolves(reference, changed.schema)) continue;
    // The question: the longest start of the route the changed form still resolves, plus one.
    let depth = reference.route.length;
    for (let n = 1; n <= reference.route.length; n += 1) {
      if (!objectPropertiesAt(changed.schema, reference.route.slice(0, n))) {
        depth = n;
        break;
      }
    }
    touched.push({
      route: reference.route.slice(0, depth),
      at: reference.at,
      name: reference.route.join('.'),
      optional: reference.optional,
      optionable: reference.optionable,
    });
  }
  return touched;
}

function objectPropertiesAt(schema: Node, route: readonly string[]): boolean {
  let node: unknown = schema;
  for (const name of route) {
    if (!isObject(node)) return false;
    if (node.type === 'array' && isObject(node.items)) node = node.items;
    node = objectProperties(node).get(name);
  }
  return isObject(node);
}

// ---------------------------------------------------------------------------------------------
// Problems per question

/**
 * The question a problem's JSON pointer into the patch names (`/schema/properties/badges/items/properties/lastName/…`,
 * `/ui/badges/items/lastName/…`), or null when it names the form as a whole.
 */
export function routeOfPointer(pointer: string): string[] | null {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const half = parts.shift();
  const route: string[] = [];
  if (half === 'schema') {
    for (let i = 0; i < parts.length; i += 1) {
      const part = parts[i]!;
      if (part === 'properties' && parts[i + 1] !== undefined) route.push(parts[++i]!);
      else if (part === 'items' || part === 'then' || part === 'else') continue;
      else if (part === 'allOf' || part === 'anyOf' || part === 'oneOf') i += 1;
      else break;
    }
  } else if (half === 'ui') {
    for (const part of parts) {
      if (part === 'items') continue;
      if (part.startsWith('ui:')) break;
      route.push(part);
    }
  } else return null;
  return route.length > 0 ? route : null;
}

/** A problem the form set's checks found in the draft. */
export type PatchProblem = FormProblem;

/** Problems grouped by the question they name ('' = the form as a whole), dotted routes as keys. */
export function problemsByQuestion(problems: readonly PatchProblem[]): Map<string, PatchProblem[]> {
  const grouped = new Map<string, PatchProblem[]>();
  for (const problem of problems) {
    const key = routeOfPointer(problem.path)?.join('.') ?? '';
    grouped.set(key, [...(grouped.get(key) ?? []), problem]);
  }
  return grouped;
}
