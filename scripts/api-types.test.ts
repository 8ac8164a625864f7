import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_TYPES_HEADER, type OpenApiDocument, renderApiTypes } from './api-types';
import { staleGeneratedFiles } from './generate';

// The browser's API types are generated from the OpenAPI document. The output must
// not depend on the order routes were registered in (or CI's staleness check would fail at
// random), and `npm run check` must refuse a committed copy that differs.

const envelope = (data: object) => ({
  content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' }, msg: { type: 'string' }, data }, required: ['code', 'msg', 'data'] } } },
});

function sampleDocument(): OpenApiDocument {
  return {
    paths: {
      '/oga/leads/{id}': {
        get: {
          summary: 'One lead',
          parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
          responses: {
            200: envelope({
              type: 'object',
              title: 'Lead',
              properties: { id: { type: 'integer' }, name: { type: 'string' }, temperature: { type: ['string', 'null'], enum: ['cold', 'warm', 'hot', null] } },
              required: ['id', 'name'],
            }),
          },
        },
        patch: {
          parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'integer' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { notes: { type: 'string' } } } } } },
          responses: { 200: envelope({ type: 'null' }) },
        },
      },
      '/oga/leads': {
        get: {
          parameters: [
            { in: 'query', name: 'page', schema: { type: 'integer' } },
            { in: 'query', name: 'limit', schema: { type: 'integer', enum: [10, 20] } },
          ],
          responses: { 200: envelope({ type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] }) },
        },
      },
      '/oga/uploads': {
        post: {
          requestBody: { required: true, content: { 'multipart/form-data': {} } },
          responses: { 200: envelope({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }) },
        },
      },
      '/oga/uploads/{id}': {
        get: { parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }], responses: { 200: {} } },
      },
      '/healthz': { get: { responses: { 200: envelope({ type: 'object' }) } } },
    },
  } as unknown as OpenApiDocument;
}

/** The same document with every object's keys in reverse order (routes registered in another order). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reversed((value as Record<string, unknown>)[key])]),
  );
}

describe('renderApiTypes: the browser’s API types from the OpenAPI document', () => {
  it('writes the same file whatever order the routes and their schemas come in', async () => {
    const first = await renderApiTypes(sampleDocument());
    const again = await renderApiTypes(sampleDocument());
    const shuffled = await renderApiTypes(reversed(sampleDocument()) as OpenApiDocument);
    expect(again).toBe(first);
    expect(shuffled).toBe(first);
  });

  it('types each operation by METHOD and path: parameters, body, data; files as Blob, uploads as FormData', async () => {
    const source = await renderApiTypes(sampleDocument());
    expect(source.startsWith(API_TYPES_HEADER)).toBe(true);
    // The route's summary documents the operation.
    expect(source).toMatch(/One lead\s*\*\/\s*'GET \/leads\/\{id\}'/);
    expect(source).toMatch(/'GET \/leads\/\{id\}': \{\s*data: \{\s*id: number;\s*name: string;\s*temperature\?: 'cold' \| 'warm' \| 'hot' \| null;/);
    expect(source).toMatch(/'PATCH \/leads\/\{id\}': \{\s*body: \{\s*notes\?: string;\s*\};\s*data: null;\s*path: \{\s*id: number;/);
    // No required query parameter: the query is optional.
    expect(source).toMatch(/'GET \/leads': \{[\s\S]*?query\?: \{\s*limit\?: 10 \| 20;\s*page\?: number;/);
    expect(source).toMatch(/'POST \/uploads': \{[\s\S]*?body: FormData;/);
    expect(source).toMatch(/'GET \/uploads\/\{id\}': \{[\s\S]*?data: Blob;/);
    // Only the API under API_BASE; no schema title becomes a type name of its own.
    expect(source).not.toContain('healthz');
    expect(source).not.toContain('interface Lead ');
  });
});

describe('staleGeneratedFiles (what npm run check reports)', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('accepts a fresh copy and reports a planted stale or a missing one', async () => {
    root = mkdtempSync(join(tmpdir(), 'portal-stale-'));
    const files = { 'src/generated/api.ts': await renderApiTypes(sampleDocument()) };
    mkdirSync(join(root, 'src', 'generated'), { recursive: true });
    writeFileSync(join(root, 'src/generated/api.ts'), files['src/generated/api.ts']);
    expect(staleGeneratedFiles(files, root)).toEqual([]);

    // A route's schema changed but the committed types were not regenerated.
    const changed = { ...sampleDocument() };
    changed.paths['/oga/leads']!.get!.responses = { 200: envelope({ type: 'object', properties: { total: { type: 'string' } }, required: ['total'] }) } as never;
    const expected = { 'src/generated/api.ts': await renderApiTypes(changed) };
    expect(staleGeneratedFiles(expected, root)).toEqual(['src/generated/api.ts is stale: run `npm run generate` and commit the result']);

    rmSync(join(root, 'src/generated/api.ts'));
    expect(staleGeneratedFiles(files, root)).toEqual(['src/generated/api.ts is missing: run `npm run generate`']);
  });
});
