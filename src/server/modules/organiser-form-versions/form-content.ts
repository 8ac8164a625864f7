import type { AnySchemaObject } from 'ajv';
import { formDifference, type FieldChange } from '../../../engine/forms/gallery';
import type { LocaleTable } from '../../../engine/i18n';
import { LANGUAGES } from '../../../engine/language';
import { mergePatch } from '../../../engine/forms/merge-patch';
import { parse } from 'yaml';
import { FORM_LIST_FILE } from '../../../engine/forms/form-list';
import { applyListings, listingFormIndex } from '../../../engine/forms/patch-editor-listings';
import type { OptionalListing } from '../../../engine/schemas/optional-listing';
import { eventSegment } from '../../../engine/forms/patch-editor';
import type { FormSetSource } from '../../plugins/forms/form-set';

// F11: a form set's content as the editor works on it: an event's patch of a form as a file of
// the set, the form's strings as flat dotted keys, and the difference between two versions.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file of an event's patch of a form. */
export const patchFile = (exhibitCode: string, formId: string) => `events/${exhibitCode}/${formId}.patch.json`;

/** How a patch is written as a file (what `npm run forms -- export` writes and git keeps). */
export const patchText = (patch: unknown) => `${JSON.stringify(patch, null, 2)}\n`;

/** A table of strings as flat dotted keys under `prefix`. */
export function flatten(table: unknown, prefix: string, into: Record<string, string> = {}): Record<string, string> {
  if (typeof table === 'string') into[prefix] = table;
  else if (isObject(table)) for (const [key, value] of Object.entries(table)) flatten(value, `${prefix}.${key}`, into);
  return into;
}

/** Flat dotted keys (all under one prefix) as a nested table below that prefix. */
export function unflatten(flat: Record<string, string>, prefix: string): LocaleTable {
  const table: Json = {};
  for (const [key, text] of Object.entries(flat)) {
    const parts = key.slice(prefix.length + 1).split('.');
    let node = table;
    for (const part of parts.slice(0, -1)) {
      if (!isObject(node[part])) node[part] = {};
      node = node[part] as Json;
    }
    node[parts.at(-1)!] = text;
  }
  return table as LocaleTable;
}

/** The form's strings (`forms.<id>`), flat, per language. */
export function formStrings(source: FormSetSource, formId: string): Record<string, Record<string, string>> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, flatten((source.strings[language] as Json | undefined)?.[formId], `forms.${formId}`)]));
}

/** A key the editor may set: `forms.<formId>.` and dotted word segments. */
export const stringKeyPattern = (formId: string) => new RegExp(`^forms\\.${formId}(\\.[A-Za-z0-9_-]{1,80}){1,8}$`);

/**
 * The set's content with an event's patch of a form replaced (null: no patch), the form's
 * strings replaced in the languages given (each language's strings in full) and the draft's names
 * listed under forms.yaml entries' `optional:` (entries of this form only). Null when a listing
 * names an entry of another form or one forms.yaml does not have.
 */
export function withDraft(
  source: FormSetSource,
  exhibitCode: string,
  formId: string,
  patch: Json | null,
  strings: Partial<Record<string, Record<string, string>>>,
  listings: readonly OptionalListing[] = [],
): FormSetSource | null {
  const files = { ...source.files };
  if (patch === null) delete files[patchFile(exhibitCode, formId)];
  else files[patchFile(exhibitCode, formId)] = patchText(patch);
  if (listings.length > 0) {
    const text = files[FORM_LIST_FILE] ?? '';
    const forms = (parse(text) as { forms?: Array<{ id?: unknown }> } | null)?.forms ?? [];
    if (listings.some((listing) => forms[listingFormIndex(listing) ?? -1]?.id !== formId)) return null;
    const listed = applyListings(text, listings);
    if (!listed.ok) return null;
    files[FORM_LIST_FILE] = listed.text;
  }
  const tables = { ...source.strings };
  for (const language of LANGUAGES) {
    const flat = strings[language];
    if (!flat) continue;
    // The keys keep their order in the version (a draft's keys may come in any order); new ones follow.
    const order = new Map(Object.keys(flatten((tables[language] as Json | undefined)?.[formId], `forms.${formId}`)).map((key, index) => [key, index]));
    const sorted = Object.entries(flat).sort(([a], [b]) => (order.get(a) ?? order.size) - (order.get(b) ?? order.size));
    tables[language] = { ...(tables[language] ?? {}), [formId]: unflatten(Object.fromEntries(sorted), `forms.${formId}`) };
  }
  return { files, strings: tables };
}

/** The event's patch of a form in a set's content, parsed (null: none, or not JSON). */
export function patchOf(source: FormSetSource, exhibitCode: string, formId: string): Json | null {
  const text = source.files[patchFile(exhibitCode, formId)];
  if (text === undefined) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A form's schema and UI schema in a set's content, for an event (its patch applied); null when the form is not there. */
export function formFilesOf(source: FormSetSource, formId: string, exhibitCode: string | null): { schema: AnySchemaObject; ui: Json } | null {
  try {
    const schemaText = source.files[`forms/${formId}.schema.json`];
    const uiText = source.files[`forms/${formId}.ui.json`];
    if (schemaText === undefined || uiText === undefined) return null;
    const base = { schema: JSON.parse(schemaText) as AnySchemaObject, ui: JSON.parse(uiText) as Json };
    const patch = exhibitCode === null ? null : patchOf(source, exhibitCode, formId);
    if (!patch) return base;
    return { schema: mergePatch(base.schema, patch.schema ?? {}) as AnySchemaObject, ui: mergePatch(base.ui, patch.ui ?? {}) as Json };
  } catch {
    return null;
  }
}

/** The form ids and event codes of a set's content. */
export function formsAndEvents(source: FormSetSource): { forms: string[]; events: string[] } {
  const forms = new Set<string>();
  const events = new Set<string>();
  for (const file of Object.keys(source.files)) {
    const form = /^forms\/([^/]+)\.schema\.json$/.exec(file);
    if (form) forms.add(form[1]!);
    const event = /^events\/([^/]+)\/[^/]+\.patch\.json$/.exec(file);
    if (event) events.add(event[1]!);
  }
  return { forms: [...forms].sort(), events: [...events].sort() };
}

export interface VersionDifference {
  /** Files added, removed or changed. */
  files: Array<{ file: string; change: 'added' | 'removed' | 'changed' }>;
  /** Per form: what changed in the base form, and per event what changed in the event's form. */
  forms: Array<{ formId: string; exhibitCode: string | null; changes: FieldChange[] }>;
  /** String keys added, removed or changed, per language. */
  strings: Array<{ language: string; key: string; change: 'added' | 'removed' | 'changed' }>;
}

/** What changed from one version's content to another's (the gallery's difference list, per form and event). */
export function versionDifference(a: FormSetSource, b: FormSetSource, events: ReadonlySet<string> | null): VersionDifference {
  const files: VersionDifference['files'] = [];
  for (const file of new Set([...Object.keys(a.files), ...Object.keys(b.files)])) {
    if (events && file.startsWith('events/') && !events.has(file.split('/')[1]!)) continue;
    if (!(file in a.files)) files.push({ file, change: 'added' });
    else if (!(file in b.files)) files.push({ file, change: 'removed' });
    else if (a.files[file] !== b.files[file]) files.push({ file, change: 'changed' });
  }
  files.sort((x, y) => x.file.localeCompare(y.file));
  const forms: VersionDifference['forms'] = [];
  const ids = new Set([...formsAndEvents(a).forms, ...formsAndEvents(b).forms]);
  const codes = new Set([...formsAndEvents(a).events, ...formsAndEvents(b).events].filter((code) => !events || events.has(code)));
  const empty = { schema: {}, ui: {} };
  for (const formId of [...ids].sort()) {
    const baseChanges = formDifference(formFilesOf(a, formId, null) ?? empty, formFilesOf(b, formId, null) ?? empty);
    if (baseChanges.length > 0) forms.push({ formId, exhibitCode: null, changes: baseChanges });
    for (const code of [...codes].sort()) {
      if (a.files[patchFile(code, formId)] === undefined && b.files[patchFile(code, formId)] === undefined) continue;
      const changes = formDifference(formFilesOf(a, formId, code) ?? empty, formFilesOf(b, formId, code) ?? empty);
      if (changes.length > 0) forms.push({ formId, exhibitCode: code, changes });
    }
  }
  const strings: VersionDifference['strings'] = [];
  for (const language of LANGUAGES) {
    const before = flatten(a.strings[language] ?? {}, 'forms');
    const after = flatten(b.strings[language] ?? {}, 'forms');
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (!(key in before)) strings.push({ language, key, change: 'added' });
      else if (!(key in after)) strings.push({ language, key, change: 'removed' });
      else if (before[key] !== after[key]) strings.push({ language, key, change: 'changed' });
    }
  }
  return { files, forms, strings };
}

/** Every field of a schema by dotted path (list items' fields as `list[].field`), as JSON without its texts. */
function fieldRules(schema: Json, prefix = '', into = new Map<string, string>()): Map<string, string> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(properties)) {
    if (!isObject(child)) continue;
    const path = `${prefix}${name}`;
    const { title: _title, description: _description, properties: _properties, items, ...rules } = child;
    const required = Array.isArray(schema.required) && (schema.required as unknown[]).includes(name);
    into.set(path, JSON.stringify({ ...rules, required, items: isObject(items) ? { ...items, properties: undefined, title: undefined } : items }));
    fieldRules(child, `${path}.`, into);
    if (isObject(items)) fieldRules(items, `${path}[].`, into);
  }
  return into;
}

/**
 * The questions an exhibitor who answered the old form must look at again in the new one: the
 * new ones, and those whose rules changed (now required, another type, a narrower choice or
 * length…). Texts alone do not count: an answer stays right when a title is reworded.
 */
export function newOrChangedQuestions(before: { schema: Json }, after: { schema: Json }): Array<{ path: string; kind: 'added' | 'changed' }> {
  const old = fieldRules(before.schema);
  const now = fieldRules(after.schema);
  const result: Array<{ path: string; kind: 'added' | 'changed' }> = [];
  for (const [path, rules] of now) {
    if (!old.has(path)) {
      // A field inside an added one is part of that addition.
      if ([...now.keys()].some((other) => other !== path && !old.has(other) && path.startsWith(other) && /^[.[]/.test(path.slice(other.length)))) continue;
      result.push({ path, kind: 'added' });
    } else if (old.get(path) !== rules) result.push({ path, kind: 'changed' });
  }
  // A schema-level rule (if/then, allOf…) that changed touches the fields it names.
  const conditional = (schema: Json) => JSON.stringify([schema.if, schema.then, schema.else, schema.allOf, schema.anyOf, schema.oneOf, schema.dependentRequired]);
  if (conditional(before.schema) !== conditional(after.schema)) {
    const named = new Set<string>();
    const visit = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!isObject(node)) return;
      if (isObject(node.properties)) for (const key of Object.keys(node.properties)) named.add(key);
      if (Array.isArray(node.required)) for (const key of node.required) if (typeof key === 'string') named.add(key);
      Object.values(node).forEach(visit);
    };
    visit([after.schema.if, after.schema.then, after.schema.else, after.schema.allOf, after.schema.anyOf, after.schema.oneOf]);
    for (const path of named) if (now.has(path) && !result.some((entry) => entry.path === path)) result.push({ path, kind: 'changed' });
  }
  return result;
}

/** Whether data holds an answer at a dotted path (`list[].field`: in any item). */
export function hasAnswer(data: unknown, path: string): boolean {
  const [head, ...rest] = path.split('.');
  if (!isObject(data) || head === undefined) return false;
  if (head.endsWith('[]')) {
    const list = data[head.slice(0, -2)];
    return Array.isArray(list) && list.some((item) => (rest.length === 0 ? item !== undefined : hasAnswer(item, rest.join('.'))));
  }
  const value = data[head];
  if (rest.length > 0) return hasAnswer(value, rest.join('.'));
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** The data without the answers at the given dotted paths (`list[].field`: in every item); the same object when none is there. */
export function withoutAnswers<T>(data: T, paths: readonly string[]): T {
  let result: unknown = data;
  for (const path of paths) result = without(result, path.split('.'));
  return result as T;
}

function without(data: unknown, parts: string[]): unknown {
  const [head, ...rest] = parts;
  if (!isObject(data) || head === undefined) return data;
  const name = head.endsWith('[]') ? head.slice(0, -2) : head;
  if (!(name in data)) return data;
  const value = data[name];
  if (head.endsWith('[]')) {
    if (!Array.isArray(value)) return data;
    const items = value.map((item) => (rest.length === 0 ? item : without(item, rest)));
    return items.every((item, index) => item === value[index]) ? data : { ...data, [name]: items };
  }
  if (rest.length === 0) {
    const { [name]: _dropped, ...kept } = data;
    return kept;
  }
  const inner = without(value, rest);
  return inner === value ? data : { ...data, [name]: inner };
}

/**
 * The set's content with the given events' own parts taken from another version: their files
 * (`events/<code>/…`: the patches) and their strings (`forms.<formId>.byEvent.<code>`). Everything
 * else — the base forms, forms.yaml, other events' patches and strings — stays as it is, so an
 * organisation's rollback never undoes another organisation's change.
 */
export function withEventsFrom(current: FormSetSource, from: FormSetSource, exhibitCodes: ReadonlySet<string>): FormSetSource {
  const ownFile = (file: string) => {
    const code = /^events\/([^/]+)\//.exec(file)?.[1];
    return code !== undefined && exhibitCodes.has(code);
  };
  const files = Object.fromEntries([...Object.entries(current.files).filter(([file]) => !ownFile(file)), ...Object.entries(from.files).filter(([file]) => ownFile(file))]);
  const segments = [...exhibitCodes].map(eventSegment);
  const strings: Record<string, LocaleTable> = {};
  for (const language of new Set([...Object.keys(current.strings), ...Object.keys(from.strings)])) {
    const table = structuredClone((current.strings[language] ?? {}) as Json);
    const earlier = (from.strings[language] ?? {}) as Json;
    for (const formId of new Set([...Object.keys(table), ...Object.keys(earlier)])) {
      const form = table[formId];
      const earlierByEvent = isObject(earlier[formId]) ? (earlier[formId] as Json).byEvent : undefined;
      if (!isObject(form) && !isObject(earlierByEvent)) continue;
      const target: Json = isObject(form) ? form : {};
      table[formId] = target;
      const byEvent = isObject(target.byEvent) ? target.byEvent : {};
      for (const segment of segments) {
        if (isObject(earlierByEvent) && earlierByEvent[segment] !== undefined) byEvent[segment] = structuredClone(earlierByEvent[segment]);
        else delete byEvent[segment];
      }
      if (Object.keys(byEvent).length > 0) target.byEvent = byEvent;
      else delete target.byEvent;
    }
    strings[language] = table as LocaleTable;
  }
  return { files, strings };
}
