// F11: the JSON Schema of schemas/forms/forms.yaml. It is the one description of
// what an organiser may write there: the loader (form-list.ts) validates the file against it,
// the types of a form's declaration are derived from it (json-schema-to-ts), and
// `npm run generate` writes it to schemas/forms/forms.schema.json for editors and CI.
// `additionalProperties: false` at every level: a typo (`aproval:`) is refused, never ignored.
// A new key of forms.yaml is added here, with its description, and nowhere else.

import { FILE_TYPES } from '../schemas/file';

const identifier = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' } as const;
/** O2: a value an organiser sets per event (values in the console, the name and default here). */
const eventSetting = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' } as const;
/** Spec §3: an exhibitor flag the organiser sets (console, import), stored under this name. */
const flagName = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' } as const;
const propertyName = { type: 'string', minLength: 1, description: 'A top-level property of the form schema' } as const;

const approvalRule = {
  description: 'O1: when a submission waits for the organiser’s decision',
  type: 'object',
  discriminator: { propertyName: 'when' },
  oneOf: [
    {
      type: 'object',
      description: 'Every submission waits',
      properties: { when: { const: 'always' } },
      required: ['when'],
      additionalProperties: false,
    },
    {
      type: 'object',
      description: 'A submission waits when any item of `list` has `flag` set (extra badges)',
      properties: { when: { const: 'anyItemFlag' }, list: propertyName, flag: { type: 'string', minLength: 1, description: 'A boolean property of the list’s items' } },
      required: ['when', 'list', 'flag'],
      additionalProperties: false,
    },
    {
      type: 'object',
      description: 'A submission waits when the number `field` is above `limit` (booth height)',
      properties: {
        when: { const: 'above' },
        field: propertyName,
        limit: { type: 'number', description: 'The largest value that needs no decision (the default where the event sets none)' },
        setting: { ...eventSetting, description: 'O2: the name of the event setting that holds the limit, set per event in the organiser console' },
      },
      required: ['when', 'field', 'limit'],
      additionalProperties: false,
    },
  ],
} as const;

const showroomFields = (names: readonly string[]) =>
  ({
    type: 'object',
    description: 'Showroom field → JSON pointer into the data',
    propertyNames: { enum: names },
    additionalProperties: { type: 'string', pattern: '^/', description: 'A JSON pointer such as /company/name' },
  }) as const;

export const FORM_DEFINITION_SCHEMA = {
  type: 'object',
  description: 'One participation form (F1)',
  properties: {
    id: { ...identifier, description: 'The form id; names <id>.schema.json and <id>.ui.json beside forms.yaml' },
    code: { type: 'string', minLength: 1, description: 'The code users see (S01 … S08, VIP); unique' },
    title: { type: 'string', minLength: 1, description: 'Locale key of the form’s title (locales/*.json)' },
    screen: { type: ['string', 'null'], description: 'Id of its screen in screens.yaml; null while it has none' },
    mandatory: { type: 'boolean', description: 'true = listed under Mandatory Forms' },
    deadline: { ...identifier, description: 'Which deadline of the account closes it: a name declared under `deadlines:` (O2: its value is set per event)' },
    submitOnceFlag: { oneOf: [flagName, { type: 'null' }], description: 'The exhibitor flag that makes it submit-once only; null = never' },
    sectionFlags: {
      type: 'array',
      uniqueItems: true,
      items: flagName,
      description: 'Spec §3: the exhibitor flags that show sections of this form; its schema names them in `showIf` and `requiredWhenShown`',
    },
    languageFlag: { ...flagName, description: 'Spec §3: the exhibitor flag that shows this form’s second-language fields; its schema names it in `secondLanguage`' },
    prerequisites: { type: 'array', items: { type: 'string' }, description: 'Ids of the forms that must be submitted first' },
    audience: { enum: ['exhibitor', 'both'], description: 'exhibitor, or both (exhibitors and their contractors)' },
    inheritFromPreviousEvent: { type: 'boolean', description: 'F3: the exhibitor may copy its entries from its previous event' },
    approval: approvalRule,
    approvalSummary: {
      type: 'array',
      description: 'O1: what the organiser sees beside a waiting submission',
      items: {
        type: 'object',
        properties: {
          field: propertyName,
          show: { type: 'array', items: { type: 'string' }, description: 'For a list: the item fields that make up each line' },
          optional: {
            type: 'array',
            items: { type: 'string' },
            description: 'Names of this entry (field or show) an event’s patch may remove; that event’s summary shows what its form has',
          },
        },
        required: ['field'],
        additionalProperties: false,
      },
    },
    fee: {
      type: 'object',
      description: 'F5: each item of `list` carrying `flag` costs `price` (shown before submitting)',
      properties: {
        list: propertyName,
        flag: { type: 'string', minLength: 1, description: 'A boolean property of the list’s items' },
        price: { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$', description: "A decimal amount, quoted: '10.00'" },
        currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' },
        setting: {
          ...eventSetting,
          description:
            'O2: the name of the event setting that holds the price, set per event in the organiser console (in the event’s currency); price and currency here apply where the event sets none',
        },
      },
      required: ['list', 'flag', 'price', 'currency'],
      additionalProperties: false,
    },
    parts: {
      type: 'array',
      description: 'P1 F4 (audience both only): the parts besides the exhibitor’s own, each saved and submitted on its own',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          id: { ...identifier, description: 'Names the part (API, lists, locale key forms.parts.<id>)' },
          filledBy: { type: 'array', minItems: 1, items: { enum: ['exhibitor', 'contractor'] }, description: 'The sides that may fill and submit it' },
          fields: { type: 'array', minItems: 1, items: propertyName, description: 'The top-level properties that belong to it' },
        },
        required: ['id', 'filledBy', 'fields'],
        additionalProperties: false,
      },
    },
    provides: {
      type: 'object',
      description: 'LD2: lists of this form other features take (engine/forms/provides.ts); at most one form provides each',
      properties: {
        leadInterests: {
          type: 'object',
          description: "What a visitor scanned at the booth may be interested in (the lead's interests)",
          properties: {
            list: { type: 'string', minLength: 1, description: 'The list property of the form (items are objects)' },
            label: { type: 'string', minLength: 1, description: 'The text field of each item read as its label' },
          },
          required: ['list', 'label'],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    documents: {
      type: 'array',
      description: 'F7: documents a submission yields, one per item of a list (engine/forms/documents.ts)',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z][\\w-]*$', description: 'Names the document in URLs and references' },
          each: propertyName,
          name: { type: 'string', minLength: 1, description: 'The item field that names each document' },
          summary: { type: 'array', items: { type: 'string' }, description: 'Item fields shown beside the name in the list of documents' },
          fileName: { type: 'string', minLength: 1, description: 'The start of the downloaded file’s name' },
          text: { type: 'string', minLength: 1, description: 'Where its text lives among the form’s strings (forms.<id>.<text>.*)' },
          particulars: {
            type: 'array',
            description: 'The table of particulars, in order: an item field, or { label, value } locale keys',
            items: {
              anyOf: [
                { type: 'string' },
                { type: 'object', properties: { label: { type: 'string' }, value: { type: 'string' } }, required: ['label', 'value'], additionalProperties: false },
              ],
            },
          },
          optional: {
            type: 'array',
            items: { type: 'string' },
            description: 'Item fields of summary or particulars an event’s patch may remove; that event’s documents leave them out',
          },
        },
        required: ['id', 'each', 'name', 'fileName', 'text', 'particulars'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'code', 'title', 'screen', 'mandatory', 'deadline', 'audience'],
  additionalProperties: false,
} as const;

export const SHOWROOM_SCHEMA = {
  type: 'object',
  description: 'CT5: where the exhibitor’s digital showroom takes its company and products from',
  properties: {
    company: {
      type: 'object',
      properties: { form: { type: 'string', description: 'The form holding the company' }, fields: showroomFields(['name', 'description', 'logo', 'website', 'video', 'address']) },
      required: ['form', 'fields'],
      additionalProperties: false,
    },
    products: {
      type: 'object',
      properties: {
        form: { type: 'string', description: 'The form holding the products' },
        list: { type: 'string', pattern: '^/', description: 'JSON pointer to the list of products' },
        fields: showroomFields(['name', 'brand', 'description', 'category', 'image', 'video', 'newLaunch']),
      },
      required: ['form', 'list', 'fields'],
      additionalProperties: false,
    },
  },
  required: ['company'],
  additionalProperties: false,
} as const;

/**
 * V2 V3: the upload purposes a form's file field may name (`"file": "<purpose>"`
 * in its schema). Top level rather than per form: one purpose serves fields of several forms and
 * event patches, and the upload endpoint receives only the purpose's name.
 */
export const UPLOADS_SCHEMA = {
  type: 'object',
  description: 'Upload purposes by name: what a file field of that purpose accepts (checked in the browser before sending and on the server)',
  propertyNames: { ...identifier, not: { enum: ['businessCard', 'manualAttachment'] }, description: 'The purpose’s name (businessCard and manualAttachment are the portal’s own)' },
  additionalProperties: {
    type: 'object',
    properties: {
      types: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { enum: FILE_TYPES },
        description: 'Accepted file types, judged by the file’s content (never its name)',
      },
      maxMegabytes: { type: 'number', exclusiveMinimum: 0, maximum: 50, description: 'Largest file, in megabytes (MiB, at most 50)' },
      minDpi: { type: 'integer', minimum: 1, maximum: 2400, description: 'Least resolution an image must record, in dots per inch (none = any)' },
    },
    required: ['types', 'maxMegabytes'],
    additionalProperties: false,
  },
} as const;

/**
 * H2 O2: the deadlines of an account, by name, in the order the account page and Home list them.
 * A form names one (`deadline:`); the organiser sets its date per event and per exhibitor.
 */
export const DEADLINES_SCHEMA = {
  type: 'object',
  description:
    'Deadline name → { title }: the account page and Home show each (title: a locale key), account info sends it as `<name>Dlinedate` (spec §3), the organiser sets its date per event and exhibitor',
  minProperties: 1,
  propertyNames: { ...identifier, description: 'The deadline’s name, stored with its dates' },
  additionalProperties: {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1, description: 'Locale key of the deadline’s label (locales/*.json)' } },
    required: ['title'],
    additionalProperties: false,
  },
} as const;

/** The whole of forms.yaml. */
export const FORM_LIST_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://exhibitor-portal.example/schemas/forms/forms.schema.json',
  title: 'forms.yaml: the participation forms',
  type: 'object',
  properties: {
    forms: { type: 'array', items: FORM_DEFINITION_SCHEMA, description: 'Every participation form, in the order the lists show them' },
    deadlines: DEADLINES_SCHEMA,
    showroom: SHOWROOM_SCHEMA,
    uploads: UPLOADS_SCHEMA,
  },
  required: ['forms', 'deadlines'],
  additionalProperties: false,
} as const;
