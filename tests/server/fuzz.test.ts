import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEAM_USER_LOGIN } from '../../src/server/db/seed';
import { createTestApp, ENGINES, get, login, type TestApp } from './helpers';
import { FORM_LIST_FILE, formListOf } from '../../src/engine/forms/form-list';
import { ERRORS } from '../../src/engine/errors';
import ja from '../../locales/ja.json';
import { multipart } from '../support/multipart';

// A seeded, bounded fuzz test derived from every route's JSON Schema (the OpenAPI
// document the server builds from its route schemas) and every participation form's schema,
// on both databases. Inputs are mostly shaped like the schema, with hostile values mixed in
// (NUL, lone surrogates, direction overrides, integers past 2^31, deep JSON, wrong types,
// extra keys). Wanted: no HTTP 500 (nor body code 500), and nothing invalid stored.
// Bounded for CI: a fixed number of runs per route and per form, with a fixed seed.

const SEED = 14;
// The route count grows with every feature (about 130 operations now): 15 runs each keeps the
// file near a minute per engine on a quiet 2-core machine.
const RUNS_PER_ROUTE = 15;
const RUNS_PER_FORM = 25;
/** Bounded by the run counts; generous because CI machines may be busy. */
const FUZZ_TIMEOUT_MS = 300_000;
/** Routes left out, and why: each is covered by its own tests. */
const SKIPPED = new Map([
  ['POST /oga/auth/logout', 'ends the session the fuzzing runs with'],
  ['PUT /oga/user/password', 'would change the password of the fuzzing account'],
  ['POST /oga/uploads', 'multipart, covered by tests/server/uploads.test.ts'],
]);

const FORM_IDS = formListOf(readFileSync(join(__dirname, '../../schemas', FORM_LIST_FILE), 'utf8')).forms.map((form) => form.id);
const formSchema = (id: string) => JSON.parse(readFileSync(join(__dirname, `../../schemas/forms/${id}.schema.json`), 'utf8')) as Schema;

type Schema = Record<string, any>;

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'invoice\u202Efdp.exe',
  'bell\u0007',
  '\u2066isolate',
  '<img src=x onerror=alert(1)>',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00',
  '9'.repeat(40),
  '😀👍🏽',
  'Nguyễn 株式会社',
  'null',
  '2147483648',
  '\r\n',
  'x'.repeat(3000),
];
const HOSTILE_NUMBERS = [0, -1, 1, 2147483647, 2147483648, -2147483649, 9007199254740993, 1e20, 0.5, -0, 1e308];
const DEEP = '['.repeat(5000) + ']'.repeat(5000);
const RAW_BODIES = [DEEP, `{"data":${DEEP},"version":0}`, '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"__proto__":{"x":1}}', '{"a":', 'null', '[]', '"text"', '1e999'];

const hostileValue = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_NUMBERS), fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}));

function stringOf(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  return fc.oneof({ weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) }, { weight: 1, arbitrary: fc.string({ maxLength, unit: 'binary' }) });
}

/** An arbitrary value for a JSON Schema: mostly of its shape, sometimes hostile. */
function arbitraryFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 6) return hostileValue;
  const shaped = shapedFor(schema, depth);
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue });
}

function shapedFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0)
    return fc.oneof(...variants.map((variant: Schema) => arbitraryFor({ ...schema, anyOf: undefined, oneOf: undefined, ...variant }, depth + 1)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  if (types.length === 0) return hostileValue;
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return fc.oneof({ weight: 3, arbitrary: stringOf(schema) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) });
        case 'integer':
          return fc.oneof(
            { weight: 3, arbitrary: fc.integer({ min: Math.max(schema.minimum ?? -5, -5), max: Math.min(schema.maximum ?? 60, 60) }) },
            { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
          );
        case 'number':
          return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(...HOSTILE_NUMBERS));
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(arbitraryFor(schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
        case 'object': {
          const properties: Record<string, Schema> = schema.properties ?? {};
          const required = new Set<string>(schema.required ?? []);
          const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, arbitraryFor(child, depth + 1)])), {
            requiredKeys: Object.keys(properties).filter((key) => required.has(key) || key === 'version'),
          });
          // Now and then a key the schema does not know, hostile names included.
          return fc
            .tuple(record, fc.option(fc.tuple(fc.constantFrom('extra', '__proto__', 'a\u0000', '\ud800', 'constructor'), hostileValue), { freq: 6 }))
            .map(([value, extra]) => {
              if (!extra) return value;
              const copy: Record<string, unknown> = { ...value };
              Object.defineProperty(copy, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
              return copy;
            });
        }
        default:
          return hostileValue;
      }
    }),
  );
}

/** A plain value of the schema's shape (every property filled), the base the targeted cases alter. */
function exampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) {
    const chosen = variants.find((variant: Schema) => variant.type !== 'null') ?? variants[0];
    return exampleOf({ ...schema, anyOf: undefined, oneOf: undefined, ...chosen }, depth + 1);
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  switch (type) {
    case 'string':
      return schema.format === 'date' ? '2027-03-17' : schema.format === 'email' ? 'fuzz@example.com' : 'text';
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(schema.items, depth + 1)];
    case 'object':
      return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([key, child]) => [key, exampleOf(child, depth + 1)]));
    default:
      return null;
  }
}

/** Every leaf of a value, as a path of keys/indexes, with its value. */
function leavesOf(value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => leavesOf(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leavesOf(item, [...path, key]));
  return [{ path, value }];
}

function withLeaf(value: unknown, path: Array<string | number>, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = withLeaf(copy[path[0]!], path.slice(1), leaf);
  return copy;
}

/** Odd inputs that must never answer 500, put in every place of a request the schema describes. */
const TARGETED = { text: ['a\u0000b', 'x\ud800', 'Name\u202Eexe', 'bell\u0007'], number: [2147483648, -2147483649, 1e20] };

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  parameters: Array<{ in: string; name: string; schema?: Schema }>;
  body?: Schema;
}

function operationsOf(document: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** Path parameter values: real-looking ids most of the time (so handlers run), odd ones otherwise. */
function pathValue(name: string, schema: Schema | undefined): fc.Arbitrary<string> {
  const odd = fc.constantFrom('0', '-1', '2147483648', '99999999999999999999', 'abc', '%00', '%ED%A0%80', '1.5', encodeURIComponent('\u202E'));
  const real = schema?.type === 'integer' || name === 'index' ? fc.integer({ min: 0, max: 60 }).map(String) : fc.constantFrom(...FORM_IDS, '1', 'x');
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 1, arbitrary: odd });
}

function queryValue(schema: Schema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: shapedFor(schema ?? {}, 0).map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 100), '2147483648', '99999999999999999999') },
  );
}

describe.each(ENGINES)('fuzzing every route and form on %s', (engine) => {
  let t: TestApp;
  let tokens: Array<string | undefined>;
  const failures: string[] = [];
  /** How the server answered, by HTTP status and body code: proof the inputs reach the handlers. */
  const outcomes = new Map<string, number>();
  beforeAll(async () => {
    t = await createTestApp(engine);
    tokens = [await login(t.app, 'demo'), await login(t.app, 'organiser'), await login(t.app, DEMO_TEAM_USER_LOGIN), undefined];
  });
  afterAll(async () => t?.close());

  async function send(method: string, url: string, token: string | undefined, payload?: string) {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    });
    let bodyCode: unknown;
    if (String(response.headers['content-type'] ?? '').startsWith('application/json')) bodyCode = (response.json() as { code?: unknown }).code;
    const outcome = `${response.statusCode}/${String(bodyCode)}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (response.statusCode >= 500 || bodyCode === 500)
      failures.push(`${method} ${url} ${payload?.slice(0, 200) ?? ''} → HTTP ${response.statusCode} ${response.body.slice(0, 200)}`);
    return response;
  }

  it(
    'no route answers 500, whatever its input',
    async () => {
      const operations = operationsOf(t.app.swagger() as never).filter((operation) => !SKIPPED.has(`${operation.method} ${operation.path}`));
      expect(operations.length).toBeGreaterThan(40);
      for (const operation of operations) {
        const pathParams = operation.parameters.filter((p) => p.in === 'path');
        const queryParams = operation.parameters.filter((p) => p.in === 'query');
        const request = fc.record({
          token: fc.constantFrom(...tokens),
          path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name, p.schema)]))),
          query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p.schema)])), { requiredKeys: [] }),
          body: operation.body
            ? fc.oneof(
                { weight: 8, arbitrary: arbitraryFor(operation.body).map((value) => JSON.stringify(value) ?? 'null') },
                { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
              )
            : fc.constant(undefined),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ token, path, query, body }) => {
            const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (path as Record<string, string>)[name] ?? '1');
            const search = new URLSearchParams(query as Record<string, string>).toString();
            const response = await send(operation.method, search ? `${url}?${search}` : url, token, body as string | undefined);
            return response.statusCode < 500;
          }),
          { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        );
      }
      // Every odd input, deterministically: each text and number of each body, query and path in turn.
      let targeted = 0;
      for (const operation of operations) {
        const [token] = tokens;
        const pathOf = (values: Record<string, string> = {}) =>
          operation.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? (name === 'id' && operation.path.startsWith('/oga/forms') ? 's04' : '1'));
        const base = exampleOf(operation.body);
        if (operation.body) {
          await send(operation.method, pathOf(), token, DEEP);
          targeted += 1;
          for (const { path, value } of leavesOf(base)) {
            const cases = typeof value === 'number' ? TARGETED.number : TARGETED.text;
            for (const odd of cases) {
              await send(operation.method, pathOf(), token, JSON.stringify(withLeaf(base, path, odd)));
              targeted += 1;
            }
          }
        }
        for (const parameter of operation.parameters) {
          for (const odd of ['a%00b', '%ED%A0%80', '2147483648', '99999999999999999999', encodeURIComponent('\u202E')]) {
            const url = parameter.in === 'path' ? pathOf({ [parameter.name]: odd }) : `${pathOf()}?${encodeURIComponent(parameter.name)}=${odd}`;
            await send(operation.method, url, token, operation.body ? JSON.stringify(base) : undefined);
            targeted += 1;
          }
        }
      }
      expect(targeted).toBeGreaterThan(200);
      expect(failures).toEqual([]);
      console.log(
        engine,
        targeted,
        [...outcomes]
          .sort()
          .map(([k, v]) => `${k}:${v}`)
          .join(' '),
      );
      // The inputs are not all stopped at the door: many requests reach the handlers and succeed.
      expect(outcomes.get('200/200') ?? 0).toBeGreaterThan(operations.length);
    },
    FUZZ_TIMEOUT_MS,
  );

  it("a broken multipart body (no boundary, a part ended early, a foreign boundary) answers a coded 400 in the caller's language on every upload route", async () => {
    const [demo, organiser] = tokens;
    const document = t.app.swagger() as { paths: Record<string, Record<string, any>> };
    const { id: eventId } = await t.app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    // A path's {id} is the demo event's where the route is an event's, a form otherwise.
    const concrete = (path: string) =>
      path
        .replace(/\/events\/\{id\}/, `/events/${eventId}`)
        .replace('{id}', 's04')
        .replace('{list}', 'badges');
    const routes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation?.requestBody?.content?.['multipart/form-data'])
        .map(([method]) => ({ method: method.toUpperCase(), path: concrete(path) })),
    );
    // Every upload route is found from the OpenAPI document (those below at least).
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/oga/forms/s04/lists/badges/import', '/oga/organiser/content/attachments', '/oga/organiser/exhibitors/import', '/oga/uploads']),
    );
    const whole = multipart([
      { name: 'purpose', value: 'boothDesign' },
      { name: 'file', filename: 'booth.pdf', bytes: Buffer.from('%PDF-1.4\n'.repeat(200)) },
    ]);
    const boundary = whole.contentType.split('boundary=')[1]!;
    const broken = [
      { why: 'no boundary', contentType: 'multipart/form-data', payload: whole.payload },
      { why: 'an empty boundary', contentType: 'multipart/form-data; boundary=', payload: whole.payload },
      { why: 'a part ended early', contentType: whole.contentType, payload: whole.payload.subarray(0, whole.payload.length - 400) },
      { why: 'no closing boundary', contentType: whole.contentType, payload: whole.payload.subarray(0, whole.payload.indexOf(`--${boundary}--`)) },
      { why: 'a boundary the body does not use', contentType: 'multipart/form-data; boundary=elsewhere', payload: whole.payload },
      {
        why: 'part headers without end',
        contentType: whole.contentType,
        payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n`),
      },
    ];
    const expected = { code: ERRORS.multipartBroken.code, error: 'multipartBroken', msg: ja.errors.multipartBroken };
    for (const route of routes) {
      const token = route.path.startsWith('/oga/organiser') ? organiser : demo;
      for (const { why, contentType, payload } of broken) {
        const response = await t.app.inject({
          method: route.method as 'POST',
          url: route.path,
          payload,
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType, language: 'ja' },
        });
        const body = response.json() as { code: number; error?: string; msg: string };
        expect({ why, status: response.statusCode, code: body.code, error: body.error, msg: body.msg }, route.path).toEqual({ why, status: 400, ...expected });
      }
    }
    // The routes still work with a whole body afterwards (nothing left half-read).
    const upload = await t.app.inject({
      method: 'POST',
      url: '/oga/uploads',
      payload: whole.payload,
      headers: { authorization: `Bearer ${demo}`, 'content-type': whole.contentType },
    });
    expect(upload.statusCode, upload.body).toBeLessThan(500);
  });

  it(
    "no form draft or submission answers 500, with data derived from each form's schema",
    async () => {
      const [demo] = tokens;
      failures.length = 0;
      for (const formId of FORM_IDS) {
        const data = arbitraryFor(formSchema(formId));
        await fc.assert(
          fc.asyncProperty(data, fc.boolean(), async (value, submit) => {
            const opened = await get(t.app, `/oga/forms/${formId}`, demo);
            const version = (opened.data?.entry?.version as number | undefined) ?? 0;
            const payload = JSON.stringify({ data: value && typeof value === 'object' && !Array.isArray(value) ? value : { value }, version });
            const response = await send(submit ? 'POST' : 'PUT', `/oga/forms/${formId}/${submit ? 'submit' : 'draft'}`, demo, payload);
            return response.statusCode < 500;
          }),
          { seed: SEED, numRuns: RUNS_PER_FORM, endOnFailure: true },
        );
      }
      expect(failures).toEqual([]);
    },
    FUZZ_TIMEOUT_MS,
  );

  it('nothing invalid was stored: no broken characters anywhere, no control characters or overrides in names', async () => {
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'jsonb', 'character varying')`.execute(t.app.db);
    expect(columns.rows.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const { table_name, column_name } of columns.rows) {
      // U+FFFD is what a lone surrogate becomes when text is encoded; a jsonb escape of it is caught as text too.
      const row = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table_name)} where ${sql.ref(column_name)}::text like ${'%\ufffd%'} or ${sql.ref(column_name)}::text like ${'%\\ud8%'} or ${sql.ref(column_name)}::text like ${'%\\udc%'}`.execute(
        t.app.db,
      );
      if (row.rows[0]!.n > 0) broken.push(`${table_name}.${column_name}`);
    }
    expect(broken).toEqual([]);
    const forbidden = '[\u0001-\u001f\u007f\u202a-\u202e\u2066-\u2069]';
    const names = await sql<{ n: number }>`
      select (select count(*) from users where display_name ~ ${forbidden} or company ~ ${forbidden})::int
           + (select count(*) from invitations where recipient_name ~ ${forbidden})::int as n`.execute(t.app.db);
    expect(names.rows[0]!.n).toBe(0);
  });
});
