import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { bodyOf, createTestApp, DEMO_PASSWORD, ENGINES, get, login, post, type TestApp } from './helpers';

// E1 on the server side: every failure answers the `{ code, msg, data, error }` envelope with a
// message for the user and nothing internal; security headers; the OpenAPI document; and the
// configuration check that reports every problem at once.

const BAD_REQUEST_MSG = 'The request is not valid. Please check what you entered.';
const BODY_LIMIT = 4096;
/** Things that must never reach a client: stack frames, file paths, error class names. */
const INTERNALS = [/\n\s+at /, /node_modules/, /\/work\//, /\.ts:\d+/, /SyntaxError/, /TypeError/, /Unexpected token/i, /FST_/, /stack/i];

function expectNoInternals(raw: string) {
  for (const pattern of INTERNALS) expect(raw, String(pattern)).not.toMatch(pattern);
}

describe.each(ENGINES)('E1 server error handling on %s', (engine) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(
      engine,
      { bodyLimitBytes: BODY_LIMIT },
      {
        // A route that fails unexpectedly, added before the app is ready.
        extend(app) {
          app.get('/oga/test/boom', { config: { public: true } }, async () => {
            throw new Error('secret internals: connection to db-primary.internal:5432 failed for user admin');
          });
        },
      },
    );
    token = await login(t.app, 'demo');
  });
  afterAll(async () => t?.close());

  it('E1 an unknown /oga path answers HTTP 404 with body code 404, with or without a session', async () => {
    const anonymous = await get(t.app, '/oga/no/such/endpoint');
    expect(anonymous.status).toBe(404);
    expect(bodyOf(anonymous)).toEqual({ code: 404, msg: 'The resource does not exist.', data: null, error: 'notFound' });
    const withSession = await post(t.app, '/oga/system/project/nothing-here', {}, token);
    expect(withSession.status).toBe(404);
    expect(withSession.code).toBe(404);
  });

  it('E1 a protected call without a token answers body code 401 "Invalid session."', async () => {
    const answer = await get(t.app, '/oga/system/project/exhibirotCode');
    expect(answer.status).toBe(200);
    expect(bodyOf(answer)).toEqual({ code: 401, msg: 'Invalid session.', data: null, error: 'invalidSession' });
    const wrongScheme = await t.app.inject({ method: 'GET', url: '/oga/user/info', headers: { authorization: `Basic ${token}` } });
    expect(wrongScheme.json().error).toBe('invalidSession');
  });

  it('E1 malformed JSON answers 601 badRequest without internals', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oga/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account": "demo", "password": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 601, msg: BAD_REQUEST_MSG, data: null, error: 'badRequest' });
    expectNoInternals(response.body);
  });

  it('E1 a body that breaks the schema answers 601 badRequest naming the field, without internals', async () => {
    const missing = await post(t.app, '/oga/auth/login', { account: 'demo' });
    expect(missing.status).toBe(400);
    expect(missing).toMatchObject({ code: 601, msg: BAD_REQUEST_MSG, error: 'badRequest' });
    expect(JSON.stringify(missing.data)).toContain('password');
    expectNoInternals(JSON.stringify(bodyOf(missing)));

    const extra = await post(t.app, '/oga/auth/login', { account: 'demo', password: DEMO_PASSWORD, admin: true });
    expect(extra).toMatchObject({ status: 400, code: 601, error: 'badRequest' });
    const wrongType = await t.app.inject({ method: 'PUT', url: '/oga/user/settings', headers: { authorization: `Bearer ${token}` }, payload: { showLeftMenus: 'maybe' } });
    expect(wrongType.json()).toMatchObject({ code: 601, error: 'badRequest' });
  });

  it('E1 a body over the size limit answers 601 payloadTooLarge', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oga/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account: 'demo', password: 'x'.repeat(BODY_LIMIT) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ code: 601, msg: 'What you sent is too large.', data: null, error: 'payloadTooLarge' });
    // Just under the limit is read (and then refused by the schema for its length, not its size).
    const under = await post(t.app, '/oga/auth/login', { account: 'demo', password: 'x'.repeat(BODY_LIMIT - 100) });
    expect(under.error).toBe('badRequest');
  });

  it('E1 an unexpected exception answers code 500 with a generic message naming the request id, and no internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/oga/test/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.code).toBe(500);
    expect(body.error).toBe('internal');
    const requestId = body.data.requestId as string;
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.msg).toBe(`Something went wrong on our side. Please try again; if it persists, contact support with reference ${requestId}.`);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('db-primary');
    expectNoInternals(response.body);
    // Each failure has its own reference.
    const again = (await t.app.inject({ method: 'GET', url: '/oga/test/boom' })).json();
    expect(again.data.requestId).not.toBe(requestId);
  });

  it('E1 the error message follows the Language header (falling back to English where untranslated)', async () => {
    const answer = await get(t.app, '/oga/user/info', undefined, { headers: { language: 'xx' } });
    expect(answer.msg).toBe('Invalid session.');
  });

  it('API responses are never cached and carry the security headers', async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/oga/user/info', headers: { authorization: `Bearer ${token}` } }),
      await t.app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'demo', password: 'wrong-password' } }),
      await t.app.inject({ method: 'GET', url: '/oga/nothing' }),
    ]) {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
    // Outside the API the security headers are there too, but not the API's no-store.
    const page = await t.app.inject({ method: 'GET', url: '/some-page' });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).not.toBe('no-store');
  });

  it('the OpenAPI document is public and lists the login and account info endpoints', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/oga/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Exhibitor Portal API');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/oga/auth/login', '/oga/system/project/exhibirotCode', '/oga/auth/password/forgot']));
    expect(document.paths['/oga/auth/login'].post).toBeDefined();
    expect(document.paths['/oga/system/project/exhibirotCode'].get).toBeDefined();
    // The document itself is not one of its paths.
    expect(document.paths['/oga/openapi.json']).toBeUndefined();
  });
});

describe('configuration check', () => {
  it('reports every problem of the environment at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', SESSION_IDLE_SECONDS: '1' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe('PORT must be a whole number from 0 to 65535 (got "abc")');
    expect(problems[1]).toMatch(/^SESSION_IDLE_SECONDS must be a whole number from 5 to \d+ \(got "1"\)$/);
    expect((error as ConfigError).message).toContain('PORT');
    expect((error as ConfigError).message).toContain('SESSION_IDLE_SECONDS');
  });

  it('a log level, listening host or mail sender the service cannot use is refused at start, by name', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({ LOG_LEVEL: 'verbose' })).toEqual(['LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")']);
    expect(problemsOf({ HOST: 'localhost; rm -rf /' })[0]).toMatch(/^HOST must be/);
    expect(problemsOf({ MAIL_FROM: 'Expo team' })[0]).toMatch(/^MAIL_FROM must be/);
    for (const good of [
      { LOG_LEVEL: 'warn' } as Record<string, string>,
      { HOST: '::1' },
      { HOST: 'portal.internal' },
      { MAIL_FROM: 'Expo <team@expo.example>' },
      { MAIL_FROM: 'team@expo.example' },
    ])
      expect(problemsOf(good), JSON.stringify(good)).toEqual([]);
  });

  it('a valid environment gives the values asked for and the defaults elsewhere', () => {
    const config = loadConfig({ PORT: '9090', SESSION_IDLE_SECONDS: '600', PUBLIC_URL: 'https://portal.example/', DATA_DIR: '/tmp/portal-data' });
    expect(config.port).toBe(9090);
    expect(config.session).toEqual({ idleSeconds: 600, absoluteSeconds: 12 * 3600, warningSeconds: 120 });
    expect(config.publicUrl).toBe('https://portal.example');
    expect(config.login).toEqual({ freeFailuresPerAccountAddress: 5, freeFailuresPerAddress: 20, maxFailuresPerAddress: 300, maxDelaySeconds: 900, windowSeconds: 3600 });
    expect(config.trustProxy).toBe(false);
    expect(config.dataDir).toBe('/tmp/portal-data');
  });

  it('each instance holds at most DATABASE_POOL_SIZE connections to PostgreSQL (10 unless set; several instances share the server)', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '3' }).databasePoolSize).toBe(3);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow('DATABASE_POOL_SIZE must be a whole number from 1 to 1000 (got "0")');
  });
});
