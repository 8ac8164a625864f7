import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

// The envelope of spec §8 around every answer's `data`: the routes' response schemas are built
// with it (and so the OpenAPI document), the browser's client reads the type derived from it.
// This schema is the only description of it.

const NULL_DATA = { type: 'null' } as const;

/** The success envelope of spec §8 around a route's `data`. */
export function envelope<const Data extends JSONSchema = typeof NULL_DATA>(data: Data = NULL_DATA as Data) {
  return {
    type: 'object',
    properties: {
      code: { type: 'integer', description: 'Body code (spec §8); 200 on success' },
      msg: { type: 'string' },
      data,
      error: { type: 'string', description: 'Error id when code is not 200' },
    },
    required: ['code', 'msg', 'data'],
  } as const;
}

/** Any answer's envelope as the browser reads it before its `data` (`error`: an error id of errors.ts). */
export type ApiEnvelope<Data = unknown> = FromSchema<ReturnType<typeof envelope<true>>> & { data: Data };
