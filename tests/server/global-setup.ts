import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, migrateToLatest, openDatabase } from '../../src/server/db/connection';
import { seedDemo } from '../../src/server/db/seed';
import { startPostgres, type RunningPostgres } from '../support/postgres';

// Prepares the two databases every server test file starts from, once per run:
// - a migrated + seeded PGlite, dumped to a file (a test file loads a fresh copy in ~0.5 s);
// - a migrated + seeded PostgreSQL database `portal_template` (a test file clones it with
//   CREATE DATABASE … TEMPLATE, which takes a few tens of milliseconds).

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the gzip-compressed PGlite data directory dump. */
    pgliteDumpFile: string;
    /** URL of a maintenance database on the PostgreSQL server (to create/drop test databases). */
    postgresAdminUrl: string;
    /** Name of the migrated + seeded database to clone. */
    postgresTemplate: string;
  }
}

export const TEMPLATE_DATABASE = 'portal_template';
const MISSING_POSTGRES = 'PostgreSQL is required for the server tests: apt-get install -y postgresql';

function postgresInstalled(): boolean {
  const dirs = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/18/bin'];
  const has = (name: string) => {
    if (dirs.some((dir) => existsSync(join(dir, name)))) return true;
    try {
      execFileSync('which', [name], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  };
  return has('initdb') && has('postgres');
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(adminUrl: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

async function preparePglite(file: string): Promise<void> {
  const pglite = createPglite();
  const opened = await openDatabase({ pglite });
  try {
    await migrateToLatest(opened.db);
    await seedDemo(opened.db);
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await opened.close();
  }
}

async function preparePostgresTemplate(adminUrl: string): Promise<void> {
  await adminQuery(adminUrl, [`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`, `CREATE DATABASE ${TEMPLATE_DATABASE}`]);
  // Connections are closed before any test clones the template (CREATE DATABASE … TEMPLATE
  // refuses a template that has open connections).
  const opened = await openDatabase({ databaseUrl: databaseUrl(adminUrl, TEMPLATE_DATABASE) });
  try {
    await migrateToLatest(opened.db);
    await seedDemo(opened.db);
  } finally {
    await opened.close();
  }
}

export default async function setup(project: TestProject) {
  const tempDir = mkdtempSync(join(tmpdir(), 'portal-server-tests-'));
  const dumpFile = join(tempDir, 'pglite-seeded.tar.gz');

  let postgres: RunningPostgres | undefined;
  const externalUrl = process.env.TEST_DATABASE_URL;
  const teardown = async () => {
    if (externalUrl) await adminQuery(externalUrl, [`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`]).catch(() => undefined);
    if (postgres) await postgres.stop();
    rmSync(tempDir, { recursive: true, force: true });
  };

  try {
    let adminUrl: string;
    if (externalUrl) {
      adminUrl = externalUrl;
    } else {
      if (!postgresInstalled()) throw new Error(MISSING_POSTGRES);
      try {
        postgres = await startPostgres();
      } catch (error) {
        if (/not found/i.test(String(error))) throw new Error(MISSING_POSTGRES);
        throw error;
      }
      adminUrl = postgres.adminUrl;
    }
    // Both in parallel: PGlite works in this process, PostgreSQL in its own.
    await Promise.all([preparePglite(dumpFile), preparePostgresTemplate(adminUrl)]);

    project.provide('pgliteDumpFile', dumpFile);
    project.provide('postgresAdminUrl', adminUrl);
    project.provide('postgresTemplate', TEMPLATE_DATABASE);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
