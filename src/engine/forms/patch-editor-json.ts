import { objectProperties } from './object-properties';
import type { FormFiles } from '../schemas/form-patch';

// F11: the JSON Schema of one event's patch file (`{ schema, ui }`, a JSON merge patch on a form),
// made from the base form, for the editor's "Edit as JSON" tab: completion offers the form's field
// names at each level, the keywords the form checks accept (standard and the portal's own) and the
// declared upload purposes; a misspelt keyword or a value of the wrong kind is marked as one types.
// `null` is allowed wherever a merge patch removes something. The server's checks remain the judge.

type Node = Record<string, unknown>;
type JsonSchema = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

const STRING = { type: 'string' } as const;
const NUMBER = { type: 'number' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const FORMATS = ['email', 'uri', 'date', 'date-time'];

const removable = (schema: JsonSchema): JsonSchema => ({ anyOf: [{ type: 'null', description: 'Removes it (JSON merge patch)' }, schema] });

/** The keywords of one field with the kinds of value they take (the form checks refuse any other keyword). */
function keywordSchemas(purposes: readonly string[], field: () => JsonSchema): Record<string, JsonSchema> {
  const names = { type: 'array', items: STRING } as const;
  return {
    type: { anyOf: [{ enum: TYPES }, { type: 'array', items: { enum: TYPES } }] },
    title: { ...STRING, description: 'A locale key (forms.<formId>.…), in every locales/*.json' },
    description: { ...STRING, description: 'A locale key' },
    default: {},
    enum: { type: 'array', description: 'Codes; labels are forms.<formId>.enum.<field>.<code>' },
    const: {},
    format: { enum: FORMATS },
    minLength: NUMBER,
    maxLength: NUMBER,
    pattern: STRING,
    minimum: NUMBER,
    maximum: NUMBER,
    exclusiveMinimum: NUMBER,
    exclusiveMaximum: NUMBER,
    multipleOf: NUMBER,
    minItems: NUMBER,
    maxItems: NUMBER,
    uniqueItems: BOOLEAN,
    required: { ...names, description: 'The whole list (a merge patch replaces arrays)' },
    additionalProperties: {},
    propertyNames: {},
    if: {},
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a promise
    then: {},
    else: {},
    allOf: { type: 'array', description: 'The whole list' },
    anyOf: { type: 'array' },
    oneOf: { type: 'array' },
    not: {},
    items: field(),
    noFullWidth: { ...BOOLEAN, description: 'No full-width characters' },
    uniqueItemProperty: { ...STRING, description: 'The item property that must be unique' },
    videoHost: BOOLEAN,
    country: { ...BOOLEAN, description: 'An ISO 3166-1 alpha-2 code; pair with "ui:widget": "country"' },
    realName: { enum: ['any', 'chinese'] },
    quota: STRING,
    file: purposes.length > 0 ? { enum: [...purposes], description: 'An upload purpose of forms.yaml uploads:' } : STRING,
    showIf: { ...STRING, description: 'An exhibitor flag the form declares' },
    secondLanguage: STRING,
    customTags: BOOLEAN,
    requiredWhenShown: { type: 'object', additionalProperties: STRING },
    minItemsMessage: STRING,
  };
}

/** A field the base form does not have: any field (defined once, it holds fields of its own). */
const NEW_FIELD = { $ref: '#/$defs/newField' } as const;

/** The patch of one field (or the form): its own keywords, and its fields by name (new ones allowed). */
function fieldPatch(node: Node | null, purposes: readonly string[]): JsonSchema {
  const children = node ? [...objectProperties(node).entries()] : [];
  const items = node && isObject(node.items) ? node.items : null;
  const keywords = keywordSchemas(purposes, () => removable(items ? fieldPatch(items, purposes) : NEW_FIELD));
  return {
    type: 'object',
    properties: {
      ...keywords,
      properties: {
        type: 'object',
        properties: Object.fromEntries(children.map(([name, child]) => [name, removable(fieldPatch(child, purposes))])),
        additionalProperties: removable(NEW_FIELD),
      },
    },
    additionalProperties: false,
  };
}

const UI_KEYWORDS: Record<string, JsonSchema> = {
  'ui:order': { type: 'array', items: STRING, description: 'The whole order; "*" for the rest' },
  'ui:widget': { enum: ['textarea', 'radio', 'select', 'checkbox', 'country', 'hidden'] },
  'ui:field': { enum: ['upload', 'hidden'] },
  'ui:help': { ...STRING, description: 'A locale key' },
  'ui:title': { ...STRING, description: 'A locale key' },
  'ui:description': STRING,
  'ui:placeholder': STRING,
  'ui:addLabel': STRING,
  'ui:removeLabel': STRING,
  'ui:options': { type: 'object' },
};

function uiPatch(node: Node | null): JsonSchema {
  const children = node ? [...objectProperties(node).entries()] : [];
  const items = node && isObject(node.items) ? node.items : null;
  return {
    type: 'object',
    properties: {
      ...UI_KEYWORDS,
      ...Object.fromEntries(children.map(([name, child]) => [name, removable(uiPatch(child))])),
      ...(items ? { items: removable(uiPatch(items)) } : {}),
    },
  };
}

/** The JSON Schema of an event's patch file for one base form. */
export function patchFileSchema(base: FormFiles, purposes: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: { schema: fieldPatch(base.schema, purposes), ui: uiPatch(base.schema) },
    additionalProperties: false,
    $defs: { newField: fieldPatch(null, purposes) },
  };
}

/** The largest patch the JSON tab reads (a pasted file larger than this is refused, not parsed). */
export const PATCH_TEXT_LIMIT = 256 * 1024;

export type PatchTextOutcome = { ok: true; patch: { schema?: Node; ui?: Node } } | { ok: false; code: 'patchTooLarge' | 'patchNotJson' | 'patchNotObject'; detail?: string };

/** Reads the JSON tab's text as a patch: at most PATCH_TEXT_LIMIT characters, JSON, an object with only `schema` and `ui` objects. */
export function readPatchText(text: string): PatchTextOutcome {
  if (text.length > PATCH_TEXT_LIMIT) return { ok: false, code: 'patchTooLarge' };
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    return { ok: false, code: 'patchNotJson', detail: (error as Error).message };
  }
  if (!isObject(value) || Object.keys(value).some((key) => key !== 'schema' && key !== 'ui') || [value.schema, value.ui].some((half) => half !== undefined && !isObject(half)))
    return { ok: false, code: 'patchNotObject' };
  const patch: { schema?: Node; ui?: Node } = {};
  if (isObject(value.schema)) patch.schema = value.schema;
  if (isObject(value.ui)) patch.ui = value.ui;
  return { ok: true, patch };
}
