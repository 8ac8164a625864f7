import type { FromSchema } from 'json-schema-to-ts';

// LD4: an exhibitor's CRM export mapping, described once: the leads routes answer and take it,
// the engine maps leads with it (crm-export.ts), the browser edits it.

/** What a column can carry: the lead's fields, its visitor's name split in two, and the exhibitor's qualification. */
export const EXPORT_FIELDS = [
  'visitorName',
  'firstName',
  'lastName',
  'salutation',
  'company',
  'businessNature',
  'jobTitle',
  'country',
  'mobile',
  'email',
  'phone',
  'address',
  'badgeCode',
  'leadType',
  'temperature',
  'followUp',
  'notes',
  'scannedBy',
  'scannedAt',
  'interestedProducts',
] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];

export const EXPORT_PRESETS = ['portal', 'salesforce', 'hubspot', 'custom'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

export const EXPORT_COLUMNS_MAX = 40;
export const EXPORT_HEADER_MAX = 80;

/** One column of an export: which lead field, under which name. */
export const exportColumnSchema = {
  type: 'object',
  required: ['field', 'header'],
  additionalProperties: false,
  properties: {
    field: { type: 'string', enum: [...EXPORT_FIELDS], description: 'The lead field (firstName/lastName: the visitor name split at its last word)' },
    header: { type: 'string', minLength: 1, maxLength: EXPORT_HEADER_MAX, description: 'The column name in the file' },
  },
} as const;
export type ExportColumn = FromSchema<typeof exportColumnSchema>;

/** An exhibitor's mapping: a preset, and the columns in order. */
export const exportMappingSchema = {
  type: 'object',
  required: ['preset', 'columns'],
  additionalProperties: false,
  properties: {
    preset: {
      type: 'string',
      enum: [...EXPORT_PRESETS],
      description: "`portal`: every field, headers in the user's language, custom tags; `salesforce`, `hubspot`: those CRMs' import column names; `custom`: the columns given",
    },
    columns: { type: 'array', maxItems: EXPORT_COLUMNS_MAX, items: exportColumnSchema, description: 'The columns in order (a preset answers its own; only `custom` reads them)' },
  },
} as const;
export type ExportMapping = FromSchema<typeof exportMappingSchema>;
