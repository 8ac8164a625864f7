import type { Ajv } from 'ajv';
import fp from 'fastify-plugin';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { INT32_MAX, INT32_MIN, JSON_MAX_DEPTH, jsonDepthExceeds, nameHasForbiddenCharacters, valueTextProblem } from '../../engine/text-rules';
import { AppError } from '../lib/app-error';
import { NAME_FORMAT } from '../../engine/schemas/json-schema';

// Odd input is refused in one place, before any route sees it: every JSON body,
// query string and path parameter, whatever the route. PostgreSQL cannot store NUL or half a
// UTF-16 character and its `integer` ends at 2,147,483,647; deep JSON would exhaust the stack
// of the validators. Each answers a coded 400 in the caller's language, never a 500.

/** Registers the formats the route schemas use on Fastify's ajv. */
export function addInputFormats(ajv: Ajv): Ajv {
  ajv.addFormat(NAME_FORMAT, { type: 'string', validate: (value) => !nameHasForbiddenCharacters(value) });
  // An annotation, not a check: codes a handler checks itself, documented as an enumeration (plugins/openapi.ts).
  ajv.addKeyword({ keyword: 'x-codes', schemaType: 'array' });
  return ajv;
}

type SchemaNode = Record<string, unknown>;

/** Whole numbers in request schemas are bounded to PostgreSQL's `integer` unless a route says otherwise. */
function boundIntegers(node: unknown, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) boundIntegers(item, seen);
    return;
  }
  const schema = node as SchemaNode;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer')) {
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) schema.maximum = INT32_MAX;
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) schema.minimum = INT32_MIN;
  }
  for (const value of Object.values(schema)) boundIntegers(value, seen);
}

/**
 * The storage bound a validation issue broke (the integer bounds added above, or a route's own
 * bound at least as wide, e.g. a bigint id), or null for an ordinary range rule of the route.
 */
export function storageBoundOf(issue: { keyword?: string; params?: { limit?: unknown } }): number | null {
  const limit = issue.params?.limit;
  if (typeof limit !== 'number') return null;
  if (issue.keyword === 'maximum' && limit >= INT32_MAX) return limit;
  if (issue.keyword === 'minimum' && limit <= INT32_MIN) return limit;
  return null;
}

function refuseOddText(value: unknown): void {
  const problem = valueTextProblem(value);
  if (problem) throw new AppError(problem);
}

export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (jsonDepthExceeds(text, JSON_MAX_DEPTH)) return done(new AppError('jsonTooDeep', null, { limit: JSON_MAX_DEPTH }), undefined);
      parseJson(request, text, (error: Error | null, value?: unknown) => {
        // Bad JSON, an empty body or prototype poisoning: Fastify's 400 (answered as badRequest).
        if (error) return done(error, undefined);
        const problem = valueTextProblem(value);
        if (problem) return done(new AppError(problem), undefined);
        done(null, value);
      });
    });

    app.addHook('onRoute', (route: RouteOptions) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      if (!schema) return;
      for (const part of ['body', 'querystring', 'params', 'headers']) boundIntegers(schema[part]);
    });

    // Query values and path parameters arrive URL-decoded (%00, %ED%A0%80 included).
    app.addHook('preValidation', async (request) => {
      refuseOddText(request.query);
      refuseOddText(request.params);
    });
  },
  { name: 'input', dependencies: ['errors'] },
);
