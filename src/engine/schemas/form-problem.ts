import type { FromSchema } from 'json-schema-to-ts';

// F11: one thing wrong in a file of the forms, as the loader (forms/form-list.ts) and the checks
// find it and the form set route shows it to the organiser. This schema is the only description of it.

export const formProblemSchema = {
  type: 'object',
  properties: {
    file: { type: 'string', description: 'Which file of the forms' },
    path: { type: 'string', description: 'Where in it (RFC 6901 JSON pointer)' },
    message: { type: 'string' },
  },
  required: ['file', 'path', 'message'],
  additionalProperties: false,
} as const;

export type FormProblem = FromSchema<typeof formProblemSchema>;
