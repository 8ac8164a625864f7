import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { FILE_TYPE_MIME } from '../../src/engine/forms/files';
import { buildApp } from '../../src/server/app';
import { createPglite } from '../../src/server/db/connection';
import { loadConfig, type Config } from '../../src/server/config';
import { DEMO_PASSWORD } from '../../src/server/db/seed';
import type { Database } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/lib/passwords';
import type { Insertable } from 'kysely';

// Shared pieces of the server tests: one app per engine per test file, on a fresh copy of the
// migrated + seeded database that tests/server/global-setup.ts prepared.

export const ENGINES = ['pglite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

export { DEMO_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  engine: Engine;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Runs after buildApp and before the app is ready: add test-only routes or hooks here. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Log at the configured level into this stream (tests that read the log). */
  logStream?: { write(line: string): void };
  /** Watch FORMS_DIR for changes (tests of live forms); other tests read the forms once. */
  watchForms?: boolean;
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createTestApp(engine: Engine, overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `portal-test-${engine}-`));
  let pglite: PGlite | undefined;
  let database: string | undefined;
  let dbOverrides: Partial<Config> = {};
  if (engine === 'pglite') {
    pglite = createPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDumpFile'))]) });
    await pglite.waitReady;
  } else {
    database = `portal_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin(`CREATE DATABASE ${database} TEMPLATE ${inject('postgresTemplate')}`);
    dbOverrides = { databaseUrl: databaseUrl(inject('postgresAdminUrl'), database) };
  }
  const config = loadConfig(
    {},
    {
      dataDir,
      webDir: join(dataDir, 'no-web-app-here'),
      seedDemo: true,
      logLevel: 'silent',
      // Scheduled jobs run only when a test asks (app.scheduler.runNow), never mid-test.
      housekeepingSeconds: 0,
      ...dbOverrides,
      ...overrides,
    },
  );
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { pglite, logger: !!options.logStream, logStream: options.logStream, watchForms: options.watchForms ?? false });
    await options.extend?.(app);
    await app.ready();
  } catch (error) {
    await pglite?.close().catch(() => undefined);
    if (database) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    engine,
    config,
    async close() {
      await app.close();
      if (database) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The parsed `{ code, msg, data, error? }` envelope of spec §8. */
export interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
  error?: string;
}

export interface Answer<T = any> extends Envelope<T> {
  /** HTTP status and headers, for the tests that check them. */
  status: number;
  headers: LightMyRequestResponse['headers'];
}

function answer<T>(response: LightMyRequestResponse): Answer<T> {
  const body = response.json() as Envelope<T>;
  return Object.assign(body, { status: response.statusCode, headers: response.headers });
}

/** The envelope without the HTTP details, for comparing whole bodies. */
export function bodyOf<T>(result: Answer<T>): Envelope<T> {
  const { status: _status, headers: _headers, ...body } = result;
  return body;
}

type Extra = Pick<InjectOptions, 'headers' | 'remoteAddress' | 'query'>;

export async function call<T = any>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  { token, body, ...extra }: Extra & { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(extra.headers as Record<string, string> | undefined) };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await app.inject({ method, url, headers, remoteAddress: extra.remoteAddress, query: extra.query, ...(body === undefined ? {} : { payload: body as object }) });
  return answer<T>(response);
}

export const get = <T = any>(app: FastifyInstance, url: string, token?: string, extra: Extra = {}) => call<T>(app, 'GET', url, { token, ...extra });
export const post = <T = any>(app: FastifyInstance, url: string, body: unknown, token?: string, extra: Extra = {}) => call<T>(app, 'POST', url, { token, body, ...extra });
export const put = <T = any>(app: FastifyInstance, url: string, body: unknown, token?: string, extra: Extra = {}) => call<T>(app, 'PUT', url, { token, body, ...extra });
export const patch = <T = any>(app: FastifyInstance, url: string, body: unknown, token?: string, extra: Extra = {}) => call<T>(app, 'PATCH', url, { token, body, ...extra });

/** Badge codes of the event's visitors the exhibitor has no lead of yet, first registered first. */
export function unscannedVisitors(app: FastifyInstance, eventId: number, participationId: number, count: number) {
  return app.db
    .selectFrom('visitors')
    .select('badge_code')
    .where('event_id', '=', eventId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participationId))),
    )
    .orderBy('id')
    .limit(count)
    .execute();
}

/** The demo exhibitor's participation, its event (code, show days, offset) and the demo user: where volume tests put their leads. */
export function demoExhibitorScope(app: FastifyInstance) {
  return app.db
    .selectFrom('users')
    .innerJoin('participations', 'participations.id', 'users.participation_id')
    .innerJoin('events', 'events.id', 'participations.event_id')
    .select(['participations.id', 'events.id as eventId', 'events.code', 'events.starts_at', 'events.ends_at', 'events.utc_offset_minutes', 'users.id as userId'])
    .where('users.login_key', '=', 'demo')
    .executeTakeFirstOrThrow();
}

/** Logs in and answers the bearer token; fails the test with the server's answer otherwise. */
export async function login(app: FastifyInstance, account: string, password: string = DEMO_PASSWORD, extra: Extra = {}): Promise<string> {
  const result = await post<{ token: string }>(app, '/oga/auth/login', { account, password }, undefined, extra);
  if (result.code !== 200 || typeof result.data?.token !== 'string') {
    throw new Error(`Login of ${account} failed: ${JSON.stringify(bodyOf(result))}`);
  }
  return result.data.token;
}

/** Tries to log in and answers the whole envelope (for the failure cases). */
export const attemptLogin = (app: FastifyInstance, account: string, password: string, extra: Extra = {}) =>
  post<{ token: string } | null>(app, '/oga/auth/login', { account, password }, undefined, extra);

/** The text body with CRLF line ends made LF and the final line end dropped. */
export const mailText = (text: string) => text.replace(/\r\n/g, '\n').replace(/\n+$/, '');

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * Records an upload as the upload endpoint would have (without its bytes), so a test can
 * submit a form holding that file reference: the server accepts only references to the
 * exhibitor's recorded uploads (V3, P5).
 */
export async function recordUpload(
  app: FastifyInstance,
  participationId: number,
  purpose: string,
  ref: { id: string; name: string; size: number; type: string; dpi: number | null },
): Promise<void> {
  const participation = await app.db.selectFrom('participations').select(['event_id']).where('id', '=', participationId).executeTakeFirstOrThrow();
  const owner = await app.db.selectFrom('users').select('id').where('participation_id', '=', participationId).where('role', '=', 'exhibitor').executeTakeFirstOrThrow();
  await app.db
    .insertInto('uploads')
    .values({
      id: ref.id,
      participation_id: participationId,
      event_id: participation.event_id,
      user_id: owner.id,
      purpose,
      original_name: ref.name,
      content_type: FILE_TYPE_MIME[ref.type as keyof typeof FILE_TYPE_MIME],
      size: ref.size,
      dpi: ref.dpi,
      sha256: '0'.repeat(64),
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

/**
 * Polls `read` until `done` holds for its value (a row in the database, a status the mail queue
 * sets), and answers that value; fails with the last value after `timeoutMs`. Never a fixed sleep.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Another organisation with its own event (RIVAL2027) and organiser (login `rival`, the demo
 * password): what tests use to show an organiser sees and changes only its own event.
 */
export async function addRivalOrganiser(app: FastifyInstance, event: Partial<Insertable<Database['events']>> = {}): Promise<{ organisationId: number; eventId: number }> {
  const organisation = await app.db.insertInto('organisations').values({ name: 'Rival Fairs Ltd' }).returning('id').executeTakeFirstOrThrow();
  const created = await app.db
    .insertInto('events')
    .values({
      organisation_id: organisation.id,
      code: 'RIVAL2027',
      name: 'Rival Fair',
      url: '',
      logo_url: '',
      venue: '',
      starts_at: new Date(Date.now() + 9e9),
      ends_at: new Date(Date.now() + 9.1e9),
      utc_offset_minutes: 0,
      terms_url: '',
      support_email: 'x@rival.example',
      ...event,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await app.db
    .insertInto('users')
    .values({
      login: 'rival',
      login_key: 'rival',
      email: 'rival@rival.example',
      display_name: 'Rival',
      password_hash: await hashPassword(DEMO_PASSWORD),
      role: 'organiser',
      participation_id: null,
      organisation_id: organisation.id,
      event_id: created.id,
      status: 'active',
    })
    .execute();
  return { organisationId: organisation.id, eventId: created.id };
}

/** An active team user of a participation (password DEMO_PASSWORD, login = e-mail's local part) with a lead quota; its id. */
/**
 * Gives the demo event's second exhibitor ("limited") lead retrieval too and signs it in, so a
 * refusal it meets on another exhibitor's leads is about ownership (404), not the module (403).
 */
export async function limitedWithLeadRetrieval(app: FastifyInstance): Promise<string> {
  const other = await app.db.selectFrom('users').select(['participation_id']).where('login', '=', 'limited').executeTakeFirstOrThrow();
  await app.db
    .updateTable('participations')
    .set({ displayed_modules: JSON.stringify(['Leadgrab', 'Forms']) })
    .where('id', '=', other.participation_id!)
    .execute();
  return login(app, 'limited');
}

export async function insertTeamUser(app: FastifyInstance, user: { login: string; participationId: number; eventId: number; quota: number | null }): Promise<number> {
  const row = await app.db
    .insertInto('users')
    .values({
      login: user.login,
      login_key: user.login,
      email: `${user.login}@borneo-botanica.example`,
      display_name: `Team ${user.login}`,
      password_hash: await hashPassword(DEMO_PASSWORD),
      role: 'team_user',
      participation_id: user.participationId,
      event_id: user.eventId,
      status: 'active',
      lead_quota: user.quota,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
