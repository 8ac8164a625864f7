import type { FromSchema } from 'json-schema-to-ts';

// V2 V3: an uploaded file as forms hold it, and the rule of an upload purpose (forms/files.ts
// applies them). These schemas are the only description of them: the upload route and a form's
// answer document them, the engine's rules, the upload widget and the server read the types
// derived from them.

/** The file types the portal recognises, by content (never by name). */
export const FILE_TYPES = ['jpeg', 'png', 'pdf', 'gif', 'webp'] as const;

/** The reference a form holds for an uploaded file (made by POST /oga/uploads). */
export const fileReferenceSchema = {
  type: 'object',
  description: 'The reference a form holds for an uploaded file',
  properties: {
    id: { type: 'string' },
    name: { type: 'string', description: 'The original file name' },
    size: { type: 'integer', description: 'Bytes' },
    type: { type: 'string', enum: FILE_TYPES, description: 'Detected from the content' },
    dpi: { type: ['integer', 'null'], description: 'Resolution the image records; null when it records none' },
  },
  required: ['id', 'name', 'size', 'type', 'dpi'],
  additionalProperties: false,
} as const;

/** What an upload purpose accepts. */
export const filePurposeRuleSchema = {
  type: 'object',
  properties: {
    types: { type: 'array', items: { type: 'string', enum: FILE_TYPES }, description: 'Accepted file types, judged by content' },
    maxBytes: { type: 'integer' },
    minDpi: { type: 'integer', description: 'Least resolution an image must record (none = any); images of this purpose must record one' },
  },
  required: ['types', 'maxBytes'],
  additionalProperties: false,
} as const;

export type FileReference = FromSchema<typeof fileReferenceSchema>;
export type FilePurposeRule = FromSchema<typeof filePurposeRuleSchema>;
