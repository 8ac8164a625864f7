import type { FromSchema } from 'json-schema-to-ts';

// Y8: which page of a list is shown, as every paginated answer states it (server/lib/paging.ts)
// and the pagination rules (pagination.ts) read it. This schema is the only description of it.

export const pageStateSchema = {
  type: 'object',
  properties: { page: { type: 'integer' }, limit: { type: 'integer' } },
  required: ['page', 'limit'],
  additionalProperties: false,
} as const;

export type PageState = FromSchema<typeof pageStateSchema>;
