import type { FromSchema } from 'json-schema-to-ts';

// LD1: a visitor of the event as the organiser lets the exhibitor's phone keep it (the visitor
// directory): the directory route answers it, the scanner stores it offline. This schema is the
// only description of it.

export const directoryVisitorSchema = {
  type: 'object',
  required: ['badgeCode'],
  additionalProperties: false,
  properties: { badgeCode: { type: 'string' }, name: { type: 'string' }, company: { type: 'string' }, jobTitle: { type: 'string' } },
} as const;

export type DirectoryVisitor = FromSchema<typeof directoryVisitorSchema>;
