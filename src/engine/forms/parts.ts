import type { FromSchema } from 'json-schema-to-ts';
import { canonicalJson } from './canonical';
import type { FORM_DEFINITION_SCHEMA } from './form-list-schema';

// P1 F4: a form shared between an exhibitor and its contractor is made of parts, each
// saved, submitted, locked (submit-once) and approved on its own, so that neither side's
// submission locks the other out. forms.yaml declares the parts a form has besides the
// exhibitor's own (`parts:`); the exhibitor's part is every top-level property no declared part
// names. A form without `parts` is one part, as before.

/** A part as forms.yaml declares it (`parts:`; its JSON Schema describes each key). */
type PartDeclaration = FromSchema<typeof FORM_DEFINITION_SCHEMA.properties.parts.items>;
/** Who fills a part: the exhibitor's side (exhibitor and its team users) or its contractor. */
export type PartSide = PartDeclaration['filledBy'][number];

/** The exhibitor's own part: what no declared part names. */
export const EXHIBITOR_PART = 'exhibitor';

export interface FormPart {
  id: string;
  filledBy: PartSide[];
  /** Its top-level properties; the exhibitor's part lists the rest of the schema's. */
  fields: string[];
  /** The JSON Schema of each of its fields (their defaults tell an entered value from a form's own). */
  schemas: Record<string, unknown>;
}

/** What is recorded of each part's submission, by part id (form_entries.parts). */
export type PartStates = Record<string, { submittedAt: string; submittedBy: number | null }>;

export function sideOf(role: string): PartSide | null {
  if (role === 'contractor') return 'contractor';
  if (role === 'exhibitor' || role === 'team_user') return 'exhibitor';
  return null;
}

/** The parts of a form, the exhibitor's own first; null for a form that is one part. */
export function partsOf(definition: { parts?: PartDeclaration[] }, schema: { properties?: Record<string, unknown> }): FormPart[] | null {
  const declared = definition.parts;
  if (!declared || declared.length === 0) return null;
  const named = new Set(declared.flatMap((part) => part.fields));
  const properties = schema.properties ?? {};
  const rest = Object.keys(properties).filter((field) => !named.has(field));
  const schemasOf = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, properties[field]]));
  return [
    { id: EXHIBITOR_PART, filledBy: ['exhibitor'], fields: rest, schemas: schemasOf(rest) },
    ...declared.map((part) => ({ id: part.id, filledBy: [...part.filledBy], fields: [...part.fields], schemas: schemasOf(part.fields) })),
  ];
}

/** The parts a side may fill. */
export function partsFilledBy(parts: FormPart[], side: PartSide | null): FormPart[] {
  return side ? parts.filter((part) => part.filledBy.includes(side)) : [];
}

/** The part holding a top-level property. */
export function partOfField(parts: FormPart[], field: string): FormPart | undefined {
  return parts.find((part) => part.fields.includes(field));
}

/** The part the form's approval rule reads (O1): only its submission resets the decision. */
export function approvalPart(parts: FormPart[], rule: { when: string; field?: string; list?: string } | undefined): FormPart | undefined {
  const field = rule?.field ?? rule?.list;
  return field === undefined ? parts[0] : partOfField(parts, field);
}

/**
 * When each part was last submitted. An entry submitted before parts existed (no states recorded)
 * counts as every part submitted then.
 */
export function partStates(
  entry: { parts?: PartStates | null; submitted_at: Date | string | null; submitted_by: number | null } | null | undefined,
  parts: FormPart[],
): PartStates {
  if (entry?.parts) return entry.parts;
  if (!entry?.submitted_at) return {};
  const submittedAt = new Date(entry.submitted_at).toISOString();
  return Object.fromEntries(parts.map((part) => [part.id, { submittedAt, submittedBy: entry.submitted_by }]));
}

/**
 * True when a value holds something a user entered: text, a number or a choice, a list item, a
 * file. What a form fills in by itself is not: a checkbox's or a field's `default` left as it is,
 * an empty text, an empty group or file reference (`{}`), an empty list.
 */
export function hasEnteredValue(value: unknown, schema?: unknown): boolean {
  const node = typeof schema === 'object' && schema !== null ? (schema as { default?: unknown; properties?: Record<string, unknown> }) : {};
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.entries(value).some(([key, item]) => hasEnteredValue(item, node.properties?.[key]));
  return node.default === undefined || canonicalJson(value) !== canonicalJson(node.default);
}

/** True when any of the part's fields holds a value a user entered (see hasEnteredValue). */
export function partHasData(part: FormPart, data: Record<string, unknown> | null | undefined): boolean {
  return part.fields.some((field) => hasEnteredValue(data?.[field], part.schemas[field]));
}

/** True when the part's working copy differs from its submitted copy. */
export function partChanged(part: FormPart, data: Record<string, unknown> | null | undefined, submitted: Record<string, unknown> | null | undefined): boolean {
  return part.fields.some((field) => canonicalJson(data?.[field]) !== canonicalJson(submitted?.[field]));
}

/** Where a user's parts of a form stand, as the server records them and the form page is told. */
export interface PartsOfUser {
  /** The parts the user fills. */
  mine: FormPart[];
  /** Of those, the user's own: sent with every submission (the first side filledBy names). */
  own: FormPart[];
  /** Ids of the parts closed by their own submit-once lock. */
  locked: string[];
  /** Ids of the parts submitted at least once. */
  submitted: string[];
}

/**
 * P1 F4: the parts a submission sends, among the open parts the user fills: its own parts until
 * they are first submitted, another part it fills (the exhibitor filling the contractor's part
 * when it has no contractor) only when it entered something in it, and a submitted part only
 * when its data differs from its last submission. An unchanged part is not sent again, so its
 * approval decision stays; when nothing changed, the user's own open parts are submitted again.
 * The browser validates what this sends and the server checks the same, so a refusal names only
 * fields of the parts being submitted.
 */
export function partsToSubmit(user: PartsOfUser, data: Record<string, unknown> | null | undefined, submitted: Record<string, unknown> | null | undefined): FormPart[] {
  const open = user.mine.filter((part) => !user.locked.includes(part.id));
  const sent = open.filter((part) => (user.submitted.includes(part.id) ? partChanged(part, data, submitted) : user.own.includes(part) || partHasData(part, data)));
  return sent.length > 0 ? sent : open.filter((part) => user.own.includes(part));
}

/** `base` with the part's fields replaced by those of `from` (a field `from` lacks is removed). */
export function withPartsFrom(base: Record<string, unknown>, from: Record<string, unknown>, parts: FormPart[]): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const field of parts.flatMap((part) => part.fields)) {
    if (from[field] === undefined) delete result[field];
    else result[field] = from[field];
  }
  return result;
}

/** The top-level property a JSON pointer (/contractor/email) is about. */
export function topField(pointer: string): string {
  return pointer.split('/')[1] ?? '';
}

/**
 * Problems of a form's `parts` declaration (checked when the forms load). Whether its fields exist
 * is checked against each form, base and patched, by field-references.ts.
 */
export function partProblems(definition: { id: string; audience: string; parts?: PartDeclaration[] }): string[] {
  const declared = definition.parts;
  if (declared === undefined) return [];
  const where = `schemas/forms/forms.yaml (${definition.id}) parts`;
  if (!Array.isArray(declared) || declared.length === 0) return [`${where}: must be a non-empty list`];
  if (definition.audience !== 'both') return [`${where}: only a form for contractors (audience: both) has parts`];
  const problems: string[] = [];
  const seen = new Set<string>();
  const ids = new Set<string>([EXHIBITOR_PART]);
  for (const part of declared) {
    if (typeof part?.id !== 'string' || !/^[a-z][a-zA-Z0-9]*$/.test(part.id)) problems.push(`${where}: each part needs an id (letters and digits)`);
    else if (ids.has(part.id)) problems.push(`${where}: "${part.id}" is taken`);
    else ids.add(part.id);
    if (!Array.isArray(part?.filledBy) || part.filledBy.length === 0 || part.filledBy.some((side) => side !== 'exhibitor' && side !== 'contractor'))
      problems.push(`${where} (${part?.id}): filledBy lists exhibitor and/or contractor`);
    if (!Array.isArray(part?.fields) || part.fields.length === 0) {
      problems.push(`${where} (${part?.id}): fields must be a non-empty list`);
      continue;
    }
    for (const field of part.fields) {
      if (seen.has(field)) problems.push(`${where} (${part.id}): "${field}" belongs to two parts`);
      seen.add(String(field));
    }
  }
  return problems;
}
