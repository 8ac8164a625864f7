import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { API_BASE } from '../../engine/constants';
import { ERRORS } from '../../engine/errors';

/** A route as registered: what the OpenAPI document must describe (tests compare the two). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** `schema.hide`: left out of the document on purpose (the document itself, web app pages). */
  hidden: boolean;
  /** The request parts the route's schema declares. */
  declares: { params: boolean; querystring: boolean; body: boolean; response: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order (the OpenAPI document's source of truth). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * The body of every error (spec §8): HTTP 4xx/5xx, or HTTP 200 for a business outcome whose body
 * code is not 200. `error` names the outcome (the error table's id), `msg` says it in the
 * caller's language, `data` carries its details (field problems, per-scan results…).
 */
export const errorEnvelope = {
  type: 'object',
  required: ['code', 'msg', 'data', 'error'],
  properties: {
    code: { type: 'integer', description: 'Body code (spec §8): 401, 403, 404, 500, 501 or 601' },
    msg: { type: 'string', description: "The outcome in the caller's language" },
    data: { description: 'Details of the outcome, or null' },
    error: { type: 'string', enum: Object.keys(ERRORS), description: 'The error id' },
  },
  additionalProperties: false,
} as const;

const ERROR_SCHEMA_NAME = 'ApiError';

const errorResponse = {
  description: 'An error: HTTP 4xx/5xx, or HTTP 200 with a body code other than 200 for a business outcome (read `code` and `error` before `data`).',
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } },
};

/** Paths outside the API base that belong in the document: the load balancer's probes. */
const DOCUMENTED_OUTSIDE_API: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

type DocumentedOperation = { operationId?: string; responses?: Record<string, unknown> };

/**
 * An operation's id, derived from its method and path so that it is unique and stable without a
 * list: `GET /oga/leads/{id}/file` → `getLeadsByIdFile`, `POST /oga/api-keys` → `postApiKeys`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(new RegExp(`^${API_BASE}(?=/|$)`), '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      return parameter ? ['by', ...parameter[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/**
 * Codes a handler checks itself (to answer a coded message in the user's language rather than a
 * schema failure) are named in the route schema as `x-codes`; the document states them as the
 * enumeration they are.
 */
function withDocumentedCodes<T>(document: T): T {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const object = node as Record<string, unknown>;
      if (Array.isArray(object['x-codes'])) {
        object.enum = object['x-codes'];
        delete object['x-codes'];
      }
      Object.values(object).forEach(visit);
    }
  };
  visit(document);
  return document;
}

/** The OpenAPI document, generated from the route schemas, at /oga/openapi.json. */
export default fp(
  async (app) => {
    const routes: RegisteredRoute[] = [];
    app.decorate('registeredRoutes', routes);
    app.addHook('onRoute', (route: RouteOptions) => {
      if (route.method === 'HEAD') return;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      for (const method of [route.method].flat()) {
        routes.push({
          method,
          url: route.url,
          hidden: schema.hide === true,
          declares: { params: !!schema.params, querystring: !!schema.querystring, body: !!schema.body, response: !!schema.response },
        });
      }
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Exhibitor Portal API',
          version: '1',
          description:
            'Every response is `{ code, msg, data, error? }` with HTTP 200 for business outcomes. Body codes: 200 ok, 401 invalid session (error `sessionInactive` after inactivity), 403 no permission (module missing), 404 not found, 500 internal, 501 login required, 601 business warning (see `error` for the id). Send `Authorization: Bearer <token>` from /auth/login and a `Language` header (en, cn, ja, vi).',
        },
        // The portal this server answers as (PUBLIC_URL): the paths below carry the /oga base.
        servers: [{ url: app.config.publicUrl, description: 'This portal' }],
        components: {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                "A session token from `POST /oga/auth/login`, a scanning device's token (`POST /oga/leads/devices`) or an exhibitor's API key (`POST /oga/api-keys`, starting `ogak_`): an API key opens only the routes of its scopes (the leads API).",
            },
          },
          schemas: { [ERROR_SCHEMA_NAME]: errorEnvelope as unknown as Record<string, unknown> },
        },
        security: [{ bearer: [] }],
      },
      // Every API operation documents the error body beside its success (the answer's
      // serializer never sees errors: plugins/errors.ts sends them as they are).
      transformObject: (documentObject) => {
        // A copy: the route schemas the document was made from stay as they are.
        const document = structuredClone('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject);
        const paths = (document.paths ?? {}) as Record<string, Record<string, DocumentedOperation>>;
        for (const [path, operations] of Object.entries(paths)) {
          // The web app's pages (its index and catch-all) are no API.
          if (!path.startsWith(`${API_BASE}/`) && !DOCUMENTED_OUTSIDE_API.has(path)) {
            delete paths[path];
            continue;
          }
          for (const [method, operation] of Object.entries(operations)) {
            if (!operation || typeof operation !== 'object') continue;
            operation.operationId ??= operationIdOf(method, path);
            if (path.startsWith(`${API_BASE}/`) && operation.responses) operation.responses.default ??= errorResponse;
          }
        }
        return withDocumentedCodes(document);
      },
    });
    app.get(`${API_BASE}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
