import { afterAll, beforeAll, inject } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app';
import { loadConfig, type Config } from '../../../src/server/config';
import { createPglite } from '../../../src/server/db/connection';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { freePort } from '../../support/ports';

// The real server (Fastify, embedded PGlite, real SMTP to a sink) serving the built web app,
// one per spec file, on a free loopback port with a fresh database: a copy of the one the run
// prepared (tests/e2e/global-setup.ts), unless the spec brings its own data directory.

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
// E2E_WEB_DIR lets a second build (another work in progress) be tested without touching dist/web.
export const WEB_DIR = process.env.E2E_WEB_DIR ? resolve(process.env.E2E_WEB_DIR) : join(REPO_ROOT, 'dist/web');

export const DEMO_PASSWORD = 'Demo-pass-2026';

export interface Portal {
  url: string;
  sink: SmtpSink;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/** The newest web-app source (not the server's) changed after the build, if any. */
function newerThanBuild(): string | undefined {
  const builtAt = statSync(join(WEB_DIR, 'index.html')).mtimeMs;
  const sources = ['src', 'locales', 'index.html', 'screens.yaml'].map((name) => join(REPO_ROOT, name));
  while (sources.length > 0) {
    const path = sources.pop()!;
    if (!existsSync(path) || path === join(REPO_ROOT, 'src', 'server')) continue;
    const info = statSync(path);
    if (info.isDirectory()) sources.push(...readdirSync(path).map((name) => join(path, name)));
    else if (info.mtimeMs > builtAt && !/\.test\.tsx?$/.test(path)) return path;
  }
  return undefined;
}

let warnedStale = false;

/**
 * A portal on a free port. The port is chosen before the app is built (its address goes into the
 * configuration, e-mail links included), so another test worker may take it meanwhile: then the
 * portal is started again on another port.
 */
export async function startPortal(overrides: Partial<Config> = {}): Promise<Portal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPortalOnce(overrides);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw error;
    }
  }
}

async function startPortalOnce(overrides: Partial<Config>): Promise<Portal> {
  if (!existsSync(join(WEB_DIR, 'index.html'))) throw new Error('Run `npm run build` first');
  const stale = warnedStale ? undefined : newerThanBuild();
  if (stale) {
    warnedStale = true;
    console.warn(`dist/web is older than ${stale.slice(REPO_ROOT.length + 1)}: the browser tests run the previous build. Run \`npm run build\` first.`);
  }
  const sink = await startSmtpSink();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  let app: FastifyInstance | undefined;
  try {
    const port = await freePort();
    const config = loadConfig(
      {},
      {
        port,
        host: '127.0.0.1',
        dataDir,
        webDir: WEB_DIR,
        smtpUrl: sink.url,
        publicUrl: `http://127.0.0.1:${port}`,
        logLevel: 'warn',
        ...overrides,
      },
    );
    // The run's prepared database, unless the spec asks for its own (a data directory, PostgreSQL, no demo).
    const prepared = overrides.dataDir === undefined && !overrides.databaseUrl && overrides.seedDemo !== false;
    const pglite = prepared ? createPglite({ loadDataDir: new Blob([readFileSync(inject('e2ePgliteDumpFile'))]) }) : undefined;
    app = await buildApp(config, { logger: false, pglite });
    await app.listen({ port, host: config.host });
    const started = app;
    const url = `http://127.0.0.1:${port}`;
    let closed = false;
    return {
      url,
      sink,
      app: started,
      config,
      async close() {
        if (closed) return;
        closed = true;
        await started.close().catch(() => undefined);
        await sink.close().catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await sink.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Logs in through the API (as a script would), answering the bearer token. */
export async function apiLogin(url: string, account: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await fetch(`${url}/oga/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  const body = (await response.json()) as { code: number; msg?: string; data?: { token?: string } };
  if (!body.data?.token) throw new Error(`API login of ${account} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

/** GET an API path with a bearer token, answering the envelope ({ code, msg, data }). */
export async function apiGet(url: string, path: string, token: string): Promise<{ code: number; msg: string; data: unknown }> {
  const response = await fetch(`${url}/oga${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

/** A one-time sign-in link code (S3 `?token=`) for the account of this session. */
export async function apiLinkCode(url: string, token: string): Promise<string> {
  const response = await fetch(`${url}/oga/auth/link-codes`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data?: { code?: string } };
  if (!body.data?.code) throw new Error(`No link code: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.data.code;
}

/** The demo exhibitor's participation in the demo event (its form entries hang on it). */
export async function demoParticipationId(portal: Pick<Portal, 'app'>): Promise<number> {
  const user = await portal.app.db.selectFrom('users').select('participation_id').where('login', '=', 'demo').executeTakeFirstOrThrow();
  if (user.participation_id === null) throw new Error('the demo user has no participation');
  return user.participation_id;
}

/**
 * One portal for the whole spec file: started before its tests, closed after them. The returned
 * object is filled in by the time the tests run.
 */
export function usePortal(overrides: Partial<Config> = {}): Portal {
  const portal = {} as Portal;
  beforeAll(async () => {
    Object.assign(portal, await startPortal(overrides));
  });
  afterAll(async () => {
    await portal.close?.();
  });
  return portal;
}
