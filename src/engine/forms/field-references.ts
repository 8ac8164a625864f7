import type { FormDefinition } from './definitions';
import { FORM_LIST_FILE, pointerOf, type FormProblem } from './form-list';
import { objectProperties } from './object-properties';

// F11: every field forms.yaml names — approval rules and summaries, fees, parts,
// documents, providers, the showroom's JSON pointers — resolved against a form's schema: the base
// form, and each event's patched form (an event patch may remove a field a declaration still
// names). One model for a field an event removes: the declaration itself says which of its names
// an event may leave out (`optional:` of an approval summary entry or a document); such a name
// must still exist in the base form (a typo is caught there) and that event's summary or document
// shows what the form has. Any other name must exist in the base form and in every patched form.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the referring code reads the field as. */
export type ReferenceKind = 'any' | 'objectList' | 'boolean' | 'number' | 'text';

/** One field named by forms.yaml. */
export interface FieldReference {
  /** JSON pointer into forms.yaml of the name. */
  at: string;
  /** The field's way into the form's data: property names, a list's items entered on the way. */
  route: string[];
  kind: ReferenceKind;
  /** The declaration lets an event's patch remove it. */
  optional: boolean;
  /** The declaration could list it under `optional:` (approval summaries, documents' rows). */
  optionable: boolean;
}

const KIND_TEXT: Record<Exclude<ReferenceKind, 'any'>, string> = {
  objectList: 'a list of objects',
  boolean: 'a yes/no field',
  number: 'a number field',
  text: 'a text field',
};

/** RFC 6901 pointer (/company/name) as property names. */
function pointerRoute(pointer: string): string[] {
  return pointer
    .replace(/^\//, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The fields one form's declaration names, with where forms.yaml names them. */
export function formReferences(definition: FormDefinition, index: number): FieldReference[] {
  const refs: FieldReference[] = [];
  const add = (at: Array<string | number>, route: string[], kind: ReferenceKind = 'any', optional?: boolean) =>
    refs.push({ at: pointerOf('forms', index, ...at), route, kind, optional: optional === true, optionable: optional !== undefined });
  const rule = definition.approval;
  if (rule?.when === 'anyItemFlag') {
    add(['approval', 'list'], [rule.list], 'objectList');
    add(['approval', 'flag'], [rule.list, rule.flag], 'boolean');
  } else if (rule?.when === 'above') add(['approval', 'field'], [rule.field], 'number');
  (definition.approvalSummary ?? []).forEach((entry, at) => {
    const optional = new Set(entry.optional ?? []);
    add(['approvalSummary', at, 'field'], [entry.field], entry.show ? 'objectList' : 'any', optional.has(entry.field));
    (entry.show ?? []).forEach((name, i) => add(['approvalSummary', at, 'show', i], [entry.field, name], 'any', optional.has(name)));
  });
  if (definition.fee) {
    add(['fee', 'list'], [definition.fee.list], 'objectList');
    add(['fee', 'flag'], [definition.fee.list, definition.fee.flag], 'boolean');
  }
  (definition.parts ?? []).forEach((part, at) => part.fields.forEach((field, i) => add(['parts', at, 'fields', i], [field])));
  for (const [name, provided] of Object.entries(definition.provides ?? {})) {
    if (!provided) continue;
    add(['provides', name, 'list'], [provided.list], 'objectList');
    add(['provides', name, 'label'], [provided.list, provided.label], 'text');
  }
  (definition.documents ?? []).forEach((document, at) => {
    const optional = new Set(document.optional ?? []);
    add(['documents', at, 'each'], [document.each], 'objectList');
    add(['documents', at, 'name'], [document.each, document.name]);
    (document.summary ?? []).forEach((name, i) => add(['documents', at, 'summary', i], [document.each, name], 'any', optional.has(name)));
    document.particulars.forEach((row, i) => {
      if (typeof row === 'string') add(['documents', at, 'particulars', i], [document.each, row], 'any', optional.has(row));
    });
  });
  return refs;
}

/** The showroom's pointers into one form (forms.yaml `showroom:`), when it reads that form. */
export function showroomReferences(showroom: unknown, formId: string): FieldReference[] {
  if (!isObject(showroom)) return [];
  const refs: FieldReference[] = [];
  const company = showroom.company;
  if (isObject(company) && company.form === formId && isObject(company.fields))
    for (const [name, path] of Object.entries(company.fields))
      if (typeof path === 'string') refs.push({ at: pointerOf('showroom', 'company', 'fields', name), route: pointerRoute(path), kind: 'any', optional: false, optionable: false });
  const products = showroom.products;
  if (isObject(products) && products.form === formId && typeof products.list === 'string') {
    const list = pointerRoute(products.list);
    refs.push({ at: pointerOf('showroom', 'products', 'list'), route: list, kind: 'objectList', optional: false, optionable: false });
    if (isObject(products.fields))
      for (const [name, path] of Object.entries(products.fields))
        if (typeof path === 'string')
          refs.push({ at: pointerOf('showroom', 'products', 'fields', name), route: [...list, ...pointerRoute(path)], kind: 'any', optional: false, optionable: false });
  }
  return refs;
}

/** Names in `optional:` that the entry does not name at all (a typo there would excuse nothing). */
export function optionalNameProblems(definition: FormDefinition, index: number): FormProblem[] {
  const problems: FormProblem[] = [];
  const check = (at: Array<string | number>, optional: readonly string[] | undefined, named: readonly string[]) =>
    (optional ?? []).forEach((name, i) => {
      if (!named.includes(name)) problems.push({ file: FORM_LIST_FILE, path: pointerOf('forms', index, ...at, 'optional', i), message: `"${name}" is not named by this entry` });
    });
  (definition.approvalSummary ?? []).forEach((entry, at) => check(['approvalSummary', at], entry.optional, [entry.field, ...(entry.show ?? [])]));
  (definition.documents ?? []).forEach((document, at) =>
    check(['documents', at], document.optional, [...(document.summary ?? []), ...document.particulars.filter((row): row is string => typeof row === 'string')]),
  );
  return problems;
}

/** The schema of the field a route leads to (a list's items entered on the way); null where none is. */
export function resolveField(schema: unknown, route: readonly string[]): Node | null {
  let node: unknown = schema;
  for (const name of route) {
    if (!isObject(node)) return null;
    if (node.type === 'array' && isObject(node.items)) node = node.items;
    node = objectProperties(node).get(name);
  }
  return isObject(node) ? node : null;
}

function hasKind(field: Node, kind: ReferenceKind): boolean {
  switch (kind) {
    case 'any':
      return true;
    case 'objectList':
      return field.type === 'array' && isObject(field.items);
    case 'boolean':
      return field.type === 'boolean';
    case 'number':
      return field.type === 'number' || field.type === 'integer';
    case 'text':
      return field.type === 'string';
  }
}

/** The pointer in a merge patch's schema half where it removes or replaces the route's field (or where the route leaves the patch). */
export function patchPointOf(patchSchema: unknown, route: readonly string[]): string {
  const parts: Array<string | number> = ['schema'];
  let node: unknown = patchSchema;
  for (const name of route) {
    if (!isObject(node)) break;
    if (isObject(node.items) && !isObject(node.properties)) {
      node = node.items;
      parts.push('items');
    }
    const properties = isObject(node) ? node.properties : undefined;
    if (!isObject(properties) || !Object.hasOwn(properties, name)) break;
    parts.push('properties', name);
    node = properties[name];
    if (node === null) break;
  }
  return pointerOf(...parts);
}

/** The reference leads to a field of its kind in the schema. */
export function referenceResolves(ref: FieldReference, schema: unknown): boolean {
  const field = resolveField(schema, ref.route);
  return field !== null && hasKind(field, ref.kind);
}

export interface ReferenceTarget {
  /** The form's schema (patched, for an event). */
  schema: unknown;
  /** For an event's patched form: the patch file and its `schema` half. */
  patch?: { file: string; schema: unknown };
}

/**
 * The references that point nowhere (or at a field of the wrong kind) in one form's schema. For the
 * base form each problem is forms.yaml's, at the name; for a patched form it is the patch's, at the
 * place where the patch takes the field away, naming forms.yaml's pointer. An optional name may be
 * missing from a patched form only. (Give a patched form only the references its base form resolves:
 * forms.yaml's own mistake is reported once, at forms.yaml.)
 */
export function referenceProblems(refs: readonly FieldReference[], listFile: string, target: ReferenceTarget): FormProblem[] {
  const problems: FormProblem[] = [];
  for (const ref of refs) {
    const field = resolveField(target.schema, ref.route);
    const name = ref.route.join('.');
    if (field && hasKind(field, ref.kind)) continue;
    const what = field ? `is not ${KIND_TEXT[ref.kind as Exclude<ReferenceKind, 'any'>]}` : 'is not a field of the form';
    if (!target.patch) {
      problems.push({ file: listFile, path: ref.at, message: `"${name}" ${what}` });
      continue;
    }
    if (!field && ref.optional) continue;
    const fix = !field && ref.optionable ? `keep the field, or list "${ref.route.at(-1)}" under that entry's optional:` : 'keep the field as it is';
    problems.push({
      file: target.patch.file,
      path: patchPointOf(target.patch.schema, ref.route),
      message: `${listFile} ${ref.at} names "${name}", which ${field ? `here ${what}` : 'this event’s form does not have'}: ${fix}`,
    });
  }
  return problems;
}
