// The organiser's form gallery: what an event's patch changes in a form, field by
// field, and sample data made from a schema alone (the gallery's preview and its "try submitting").

import { isCountryField } from './country-field';

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export type FieldChange =
  | { kind: 'added'; path: string; title: string | null }
  | { kind: 'removed'; path: string; title: string | null }
  | { kind: 'nowRequired'; path: string; title: string | null }
  | { kind: 'noLongerRequired'; path: string; title: string | null }
  | { kind: 'relabelled'; path: string; from: string | null; to: string | null };

interface FieldInfo {
  title: string | null;
  required: boolean;
}

/** Every field of a schema by its dotted path (list items' fields as `list[].field`), with its title and whether it is required. */
function fieldsOf(schema: Node, ui: Node | undefined, prefix = '', into = new Map<string, FieldInfo>()): Map<string, FieldInfo> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [name, child] of Object.entries(properties)) {
    if (!isObject(child)) continue;
    const path = `${prefix}${name}`;
    const childUi = isObject(ui?.[name]) ? (ui![name] as Node) : undefined;
    const uiTitle = typeof childUi?.['ui:title'] === 'string' ? (childUi['ui:title'] as string) : null;
    into.set(path, { title: uiTitle ?? (typeof child.title === 'string' ? child.title : null), required: required.has(name) });
    fieldsOf(child, childUi, `${path}.`, into);
    if (isObject(child.items)) fieldsOf(child.items, isObject(childUi?.items) ? (childUi!.items as Node) : undefined, `${path}[].`, into);
  }
  return into;
}

/** The difference an event's patch makes: fields added, removed, now (no longer) required, relabelled; in the patched form's order, removed ones last. */
export function formDifference(base: { schema: Node; ui?: Node }, patched: { schema: Node; ui?: Node }): FieldChange[] {
  const before = fieldsOf(base.schema, base.ui);
  const after = fieldsOf(patched.schema, patched.ui);
  const changes: FieldChange[] = [];
  for (const [path, field] of after) {
    const old = before.get(path);
    if (!old) {
      // A field inside an added one is part of that addition.
      if (![...after.keys()].some((other) => other !== path && path.startsWith(other) && !before.has(other) && /^[.[]/.test(path.slice(other.length))))
        changes.push({ kind: 'added', path, title: field.title });
      continue;
    }
    if (field.required && !old.required) changes.push({ kind: 'nowRequired', path, title: field.title });
    if (!field.required && old.required) changes.push({ kind: 'noLongerRequired', path, title: field.title });
    if (field.title !== old.title) changes.push({ kind: 'relabelled', path, from: old.title, to: field.title });
  }
  for (const [path, field] of before) {
    if (after.has(path)) continue;
    if ([...before.keys()].some((other) => other !== path && path.startsWith(other) && !after.has(other) && /^[.[]/.test(path.slice(other.length)))) continue;
    changes.push({ kind: 'removed', path, title: field.title });
  }
  return changes;
}

/**
 * The title (locale key) of the list a field of `formDifference` sits in (`list[].field`,
 * `group.list[].field`: the innermost list), so the gallery can say "Last name (in Badges)"; null
 * for a field outside any list or a list without a title.
 */
export function listTitleOf(schema: Node, path: string): string | null {
  const end = path.lastIndexOf('[].');
  if (end < 0) return null;
  let node: unknown = schema;
  for (const segment of path.slice(0, end).split('.')) {
    node = isObject(node) && isObject(node.properties) ? node.properties[segment.replace(/\[\]$/, '')] : undefined;
    if (segment.endsWith('[]')) node = isObject(node) ? node.items : undefined;
  }
  return isObject(node) && typeof node.title === 'string' ? node.title : null;
}

/**
 * Data that fills a form as an exhibitor might, made from its schema alone: every field with a
 * plausible value of its type and format (the first choice, a real name, an address, a date), one
 * item per list (or as many as it needs). Files are left out: only an upload makes one.
 */
export function sampleData(schema: Node): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.file !== undefined) return undefined;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const result: Node = {};
      for (const [name, child] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
        if (!isObject(child)) continue;
        const value = sampleData(child);
        if (value !== undefined) result[name] = value;
      }
      return result;
    }
    case 'array': {
      if (!isObject(schema.items)) return [];
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 0);
      return Array.from({ length: count }, (_, index) => {
        const item = sampleData(schema.items as Node);
        // Lists whose items must differ (unique e-mails) get one address per item.
        return index > 0 && isObject(item) && typeof schema.uniqueItemProperty === 'string' && typeof item[schema.uniqueItemProperty] === 'string'
          ? { ...item, [schema.uniqueItemProperty]: `${index + 1}.${item[schema.uniqueItemProperty] as string}` }
          : item;
      });
    }
    case 'boolean':
      return schema.default === true;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.default === 'number' ? schema.default : 1;
    case 'string':
      return sampleText(schema);
    default:
      return undefined;
  }
}

function sampleText(schema: Node): string {
  if (schema.realName === 'chinese') return '陈明';
  if (schema.realName === 'any') return 'Aisyah';
  if (schema.videoHost === true) return 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  // A country field holds an ISO 3166-1 code (the `country` keyword).
  if (isCountryField(schema)) return 'SG';
  switch (schema.format) {
    case 'email':
      return 'sample@example.com';
    case 'date':
      return '2027-03-15';
    case 'date-time':
      return '2027-03-15T09:00:00Z';
    case 'uri':
      return 'https://www.example.com/';
    default: {
      const text = 'Sample';
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      return text.padEnd(min, '.').slice(0, max);
    }
  }
}
