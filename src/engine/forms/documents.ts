import type { FromSchema } from 'json-schema-to-ts';
import { intlLocale } from '../language';
import { formatLongDay, type DateLocale } from '../locale-format';
import type { FORM_DEFINITION_SCHEMA } from './form-list-schema';
import { isCountryField, shownCountry } from './country-field';

// F7: documents a submitted form yields, declared in forms.yaml (`documents:`), never in code. A
// document is made once per item of one of the form's lists (S06: one invitation letter per
// applicant). What it says comes from the form's own strings (`forms.<id>.<text>.*`, so it is
// translated, and changes with the form set while the portal runs), with {{placeholders}} filled
// from the item's fields and the participation (event, company, booth…); its table of particulars
// lists item fields by name, labelled with the form's own field titles.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A document as forms.yaml declares it (`documents:`; its JSON Schema describes each key). */
export type DocumentDeclaration = FromSchema<typeof FORM_DEFINITION_SCHEMA.properties.documents.items>;
/** A row of the particulars: an item field (labelled by its title), or a label and a value, both locale keys. */
export type ParticularDeclaration = DocumentDeclaration['particulars'][number];

/** The part of a form definition this module reads. */
export interface DocumentsOwner {
  id: string;
  documents?: DocumentDeclaration[];
}

/** The text parts of a document: its name, what the list of documents says, and the letter's parts in order. */
export const LETTER_PARTS = ['title', 'intro', 'none', 'subject', 'to', 'greeting', 'body', 'particulars', 'after', 'closing', 'signature'] as const;

function itemPropertiesOf(schema: { properties?: Record<string, unknown> }, list: string): Node | null {
  const property = schema.properties?.[list];
  if (!isObject(property) || property.type !== 'array' || !isObject(property.items)) return null;
  return isObject(property.items.properties) ? property.items.properties : null;
}

/**
 * forms.yaml mistakes in a form's `documents`, found by `npm run check` and by the live reload. The
 * fields a document names are resolved against each form, base and patched, by field-references.ts.
 */
export function documentProblems(definition: DocumentsOwner): string[] {
  const declared = definition.documents;
  if (declared === undefined) return [];
  const where = `schemas/forms/forms.yaml (${definition.id}) documents`;
  if (!Array.isArray(declared)) return [`${where}: must be a list`];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const document of declared) {
    if (!isObject(document) || typeof document.id !== 'string' || !/^[A-Za-z][\w-]*$/.test(document.id)) {
      problems.push(`${where}: every document needs an id of letters, digits, - or _`);
      continue;
    }
    const at = `${where} ${document.id}`;
    if (ids.has(document.id)) problems.push(`${at}: the id is used twice`);
    ids.add(document.id);
    for (const row of document.particulars) {
      if (typeof row !== 'string' && !(isObject(row) && typeof row.label === 'string' && typeof row.value === 'string'))
        problems.push(`${at}: a particular is an item field or { label, value }`);
    }
    if (typeof document.text !== 'string' || typeof document.fileName !== 'string') problems.push(`${at}: text and fileName are required`);
  }
  return problems;
}

/** The locale keys a form's documents need, for the strings check (every language). */
export function documentKeys(definition: DocumentsOwner): string[] {
  return (definition.documents ?? []).flatMap((document) => [
    ...LETTER_PARTS.map((part) => `forms.${definition.id}.${document.text}.${part}`),
    ...document.particulars.flatMap((row) => (typeof row === 'string' ? [] : [row.label, row.value].map((key) => `forms.${definition.id}.${key}`))),
  ]);
}

/** The items of a submission that each yield a document. */
export function documentItems(document: DocumentDeclaration, data: unknown): Node[] {
  const list = isObject(data) ? data[document.each] : undefined;
  return Array.isArray(list) ? list.map((item) => (isObject(item) ? item : {})) : [];
}

/** A day as the reader's language writes it in full ("4 March 2027", "2027年3月4日"), in the event's order where the language has a choice. */
export function longDay(value: string, locale: DateLocale): string {
  return formatLongDay(value, locale);
}

/**
 * An item field's value as the document shows it, in the document's language: a day written in
 * full, a number with the language's digits grouping, an enum value by its label, a country by
 * its name in the document's language; files and
 * objects are not text. `locale` may carry the event's date order.
 */
export function shownValue(formId: string, field: string, property: unknown, value: unknown, locale: DateLocale, translate: (key: string) => string): string {
  if (value === undefined || value === null) return '';
  const language = typeof locale === 'string' ? locale : locale.language;
  const schema = isObject(property) ? property : {};
  if (typeof value === 'string') {
    if (Array.isArray(schema.enum)) return translate(`forms.${formId}.enum.${field}.${value}`);
    if (isCountryField(schema)) return shownCountry(value, language);
    return schema.format === 'date' ? longDay(value, locale) : value.trim();
  }
  if (typeof value === 'number') return new Intl.NumberFormat(intlLocale(language)).format(value);
  if (typeof value === 'boolean') return value ? '✓' : '';
  return '';
}

/** Every item field's shown value, for {{placeholders}} in the document's text. */
export function itemValues(
  formId: string,
  document: DocumentDeclaration,
  schema: { properties?: Record<string, unknown> },
  item: Node,
  locale: DateLocale,
  translate: (key: string) => string,
): Record<string, string> {
  const properties = itemPropertiesOf(schema, document.each) ?? {};
  return Object.fromEntries(Object.entries(properties).map(([field, property]) => [field, shownValue(formId, field, property, item[field], locale, translate)]));
}

/** The particulars table: [label, value] rows in the declared order (item fields without a value left out). */
export function particularRows(
  formId: string,
  document: DocumentDeclaration,
  schema: { properties?: Record<string, unknown> },
  values: Record<string, string>,
  translate: (key: string, params?: Record<string, string>) => string,
): Array<[string, string]> {
  const properties = itemPropertiesOf(schema, document.each) ?? {};
  return document.particulars.flatMap((row): Array<[string, string]> => {
    if (typeof row !== 'string') return [[translate(`forms.${formId}.${row.label}`, values), translate(`forms.${formId}.${row.value}`, values)]];
    const value = values[row] ?? '';
    if (value === '') return [];
    const property = properties[row];
    const title = isObject(property) && typeof property.title === 'string' ? property.title : row;
    return [[translate(title, values), value]];
  });
}

/** "visa-invitation-Tan-Wei-Ming.pdf": the name without characters file systems refuse. */
export function documentFileName(prefix: string, name: string, index: number): string {
  const safe = name
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\\/:*?"<>|]/gu, '')
    .trim()
    .replace(/[\s.]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${prefix}-${safe || index + 1}.pdf`;
}

/** The reference printed on a document: event code, participation and the item's 1-based number. */
export function documentReference(eventCode: string, participationId: number, index: number): string {
  return `${eventCode}-${participationId}-${index + 1}`;
}
