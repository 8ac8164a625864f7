import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, get, login, type TestApp } from './helpers';

// The OpenAPI document is complete — every API route the app registers (read from the
// app itself, not from a list kept here) is in it with the request parts its schema declares, a
// typed success answer and the error body — and real answers are what the document says.

interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The document's operation of a route (Fastify's `:id` is OpenAPI's `{id}`). */
function operationOf(document: OpenApiDocument, method: string, url: string): Operation | undefined {
  return document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
}

/** A validator of answers against the document's schemas (its `#/components/schemas/…` refs resolved). */
function answerValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  return (schema: Record<string, unknown>, value: unknown) => {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
    const validate = ajv.compile(rewritten);
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

describe.each(ENGINES)('the OpenAPI document on %s', (engine) => {
  let t: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp(engine);
    document = (await t.app.inject({ method: 'GET', url: '/oga/openapi.json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('describes every API route the app registered: its path parameters, query and body, its answer and the error body', () => {
    const routes = t.app.registeredRoutes.filter((route) => route.url.startsWith('/oga/') && !route.hidden);
    expect(routes.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const operation = operationOf(document, route.method, route.url);
      if (!operation) {
        problems.push(`${name}: not in the document`);
        continue;
      }
      const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (pathNames.length > 0 && !route.declares.params) problems.push(`${name}: path parameters without a schema`);
      for (const pathName of pathNames) {
        if (!operation.parameters?.some((parameter) => parameter.in === 'path' && parameter.name === pathName && parameter.schema)) {
          problems.push(`${name}: path parameter ${pathName} undocumented`);
        }
      }
      if (route.declares.querystring && !operation.parameters?.some((parameter) => parameter.in === 'query' && parameter.schema)) {
        problems.push(`${name}: query schema missing from the document`);
      }
      if (route.declares.body && !Object.values(operation.requestBody?.content ?? {}).some((content) => content.schema)) {
        problems.push(`${name}: body schema missing from the document`);
      }
      if (BODY_METHODS.has(route.method) && route.declares.body !== !!operation.requestBody) problems.push(`${name}: request body and document disagree`);
      const success = operation.responses?.['200'];
      const contents = Object.entries(success?.content ?? {});
      if (!route.declares.response || contents.length === 0 || contents.some(([, content]) => !content.schema)) {
        problems.push(`${name}: no schema of its answer`);
      }
      const json = success?.content?.['application/json']?.schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
      if (json && !['code', 'msg', 'data'].every((key) => json.properties?.[key] && json.required?.includes(key))) {
        problems.push(`${name}: the JSON answer is not the { code, msg, data } envelope`);
      }
      const error = operation.responses?.default?.content?.['application/json']?.schema;
      if (error?.$ref !== '#/components/schemas/ApiError') problems.push(`${name}: the error body is not documented`);
    }
    expect(problems).toEqual([]);
  });

  it('real answers are what the document says: a success, a business error and a refused session', async () => {
    const matches = answerValidator(document);
    const schemaOf = (method: string, url: string, status: string) =>
      operationOf(document, method, url)?.responses?.[status]?.content?.['application/json']?.schema as Record<string, unknown>;
    const token = await login(t.app, 'demo', DEMO_PASSWORD);

    const info = await get(t.app, '/oga/user/info', token);
    expect(info.code).toBe(200);
    expect(matches(schemaOf('GET', '/oga/user/info', '200'), bodyOf(info))).toEqual([]);

    const missing = await get(t.app, '/oga/leads/999999', token);
    expect(missing.error).toBe('notFound');
    expect(matches(schemaOf('GET', '/oga/leads/:id', 'default'), bodyOf(missing))).toEqual([]);

    const refused = await get(t.app, '/oga/leads');
    expect(refused.code).toBe(401);
    expect(matches(schemaOf('GET', '/oga/leads', 'default'), bodyOf(refused))).toEqual([]);
    // The error body is strict: an answer with an unknown error id would not pass.
    expect(matches(schemaOf('GET', '/oga/leads', 'default'), { ...bodyOf(refused), error: 'noSuchError' })).not.toEqual([]);
  });

  it('an answer outside the success schema keeps its own shape: the catalogue unchanged since its ETag is a bodiless 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/oga/catalogue' });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: '/oga/catalogue', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('a route that serves a screen takes its roles from screens.yaml', () => {
  it('refuses a route whose roles repeat its screen’s, and accepts one narrower than it', async () => {
    let refused: unknown = null;
    const t = await createTestApp(
      'pglite',
      {},
      {
        extend(app) {
          try {
            app.get('/oga/test/repeated-roles', { config: { screen: 'approvals', roles: ['organiser'] } }, async () => null);
          } catch (error) {
            refused = error;
          }
          app.get('/oga/test/narrower-roles', { config: { screen: 'leads', roles: ['exhibitor'] } }, async () => null);
        },
      },
    );
    try {
      expect(String(refused)).toMatch(/roles repeat those of screen approvals in screens\.yaml/);
      expect(t.app.hasRoute({ method: 'GET', url: '/oga/test/narrower-roles' })).toBe(true);
    } finally {
      await t.close();
    }
  });
});
