import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

// A route's request (body, query, params) and its answer are typed from its JSON
// Schemas (declared `as const`) by json-schema-to-ts, so the schema that validates the input and
// documents the API is the only description of it: no interface repeats a schema, no cast reads a body.

/**
 * An answer as the serializer writes it: only the properties its schema declares. An object
 * schema without `additionalProperties` types as `{ [x: string]: unknown; …declared }`, which no
 * interface satisfies; the serializer drops undeclared properties anyway, so the answer's type
 * keeps the declared ones and loses that open index (maps such as `additionalProperties: { type:
 * 'string' }` keep theirs).
 */
type Serialized<T> = T extends (...args: never) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? readonly Serialized<Item>[]
    : T extends object
      ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Serialized<T[K]> }
      : T;

/** A file answer (`{ type: 'string', format: 'binary' }` in the OpenAPI document) is sent as bytes or a stream. */
type SerializerOptions = { deserialize: [{ pattern: { type: 'string'; format: 'binary' }; output: Buffer | Uint8Array | Readable | string }] };

/** A json-schema-to-ts type provider (as @fastify/type-provider-json-schema-to-ts's), with answers typed as serialized. */
export interface ApiTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : unknown;
  serializer: this['schema'] extends JSONSchema ? Serialized<FromSchema<this['schema'], SerializerOptions>> : unknown;
}

/** The Fastify instance route modules receive: route types come from route schemas. */
export type ApiApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ApiTypeProvider>;
