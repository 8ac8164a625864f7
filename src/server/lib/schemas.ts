// JSON Schema pieces for route definitions: they validate input, type the handlers (json-schema-to-ts,
// see api-app.ts) and feed the OpenAPI document. Keep every schema literal `as const` and every
// helper generic over the schemas it is given, or the types of the routes built with it are lost.

import { envelope } from '../../engine/schemas/envelope';

/** The success envelope of spec §8 around a route's `data` (engine/schemas/envelope.ts). */
export { envelope };

export const okEnvelope = { 200: envelope() } as const;

/**
 * The body of a POST/PUT/DELETE that takes none: nothing, or an empty JSON object (Fastify
 * validates a missing body as null). The OpenAPI document says so, and the generated client
 * lets the call leave `body` out.
 */
export const NO_BODY = {
  description: 'No body (or an empty JSON object)',
  anyOf: [{ type: 'null' }, { type: 'object', properties: {}, additionalProperties: false }],
} as const;

/** Media types of the files the portal answers with. */
export const MEDIA_TYPE = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  pdf: 'application/pdf',
  any: 'application/octet-stream',
  image: 'image/*',
} as const;

/** A file answer (bytes or a stream) of one of `mediaTypes`: binary in the OpenAPI document. */
export function fileAnswer<const MediaType extends string>(description: string, mediaTypes: readonly MediaType[]) {
  const binary = { schema: { type: 'string', format: 'binary' } } as const;
  return { description, content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, binary])) as { [Key in MediaType]: typeof binary } };
}

export const passwordField = { type: 'string', minLength: 1, maxLength: 256 } as const;
