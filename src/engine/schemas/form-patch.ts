import type { FromSchema } from 'json-schema-to-ts';

// F11: an event's change to a form, described once: a JSON merge patch (RFC 7386) on the form's
// schema and UI schema (events/<exhibitCode>/<id>.patch.json), as the form editor's routes take
// and answer it and the engine's editing operations make it.

const jsonObject = { type: 'object', additionalProperties: true } as const;

/** A form's schema and UI schema. */
export const formFilesSchema = {
  type: 'object',
  properties: { schema: jsonObject, ui: jsonObject },
  required: ['schema', 'ui'],
  additionalProperties: false,
} as const;
export type FormFiles = FromSchema<typeof formFilesSchema>;

/** An event's patch of a form. */
export const formPatchSchema = {
  type: 'object',
  properties: { schema: jsonObject, ui: jsonObject },
  additionalProperties: false,
  description: "A JSON merge patch (RFC 7386) on the form's schema and UI schema",
} as const;
export type FormPatch = FromSchema<typeof formPatchSchema>;
