import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../../src/server/db/connection';
import { seedDemo } from '../../src/server/db/seed';
import { startPostgres, type RunningPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { generateShow, generatorHash, type GeneratedShow, type ShowSize } from '../generate-show';
import { startServerProcess } from './leads';

// The big show's data set and the two portals the big-show benchmark compares: the landed version
// ("before", BENCH_BEFORE, by default the merge-base with main) built from a checkout of its own,
// and this tree ("after"). The data set is made once on the landed version's schema (its server
// migrates and seeds an empty database, then scripts/generate-show.ts fills it) and kept under
// .tmp/big-show, keyed by a hash of the generator, the migrations, the form set and that revision;
// each portal then runs on a copy of its own, where the current build's migrations run on start.

export const CACHE_DIR = join(ROOT, '.tmp', 'big-show');

export interface ServerBuild {
  label: 'before' | 'after';
  /** The commit (before) or "working tree" (after). */
  revision: string;
  cwd: string;
  bundle: string;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** BENCH_BEFORE (a git revision; `none` measures this build alone), by default the merge-base with main. */
export function beforeRevision(): string | null {
  const asked = process.env.BENCH_BEFORE;
  if (asked === 'none') return null;
  return git('rev-parse', asked ?? git('merge-base', 'HEAD', 'main'));
}

function bundle(cwd: string) {
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`bundling the server in ${cwd} failed`);
}

/** This tree's server, bundled afresh. */
export function buildAfter(): ServerBuild {
  bundle(ROOT);
  return { label: 'after', revision: 'this tree', cwd: ROOT, bundle: join(ROOT, 'dist/server/main.js') };
}

/**
 * The landed version's tree: a detached checkout in .tmp (kept for the next run), this tree's
 * node_modules linked in. The big show runs its bundled server; the in-process benches import its
 * source (exhibitor.ts).
 */
export function checkoutBefore(revision: string): string {
  const cwd = join(CACHE_DIR, `before-${revision.slice(0, 12)}`);
  mkdirSync(CACHE_DIR, { recursive: true });
  if (!existsSync(join(cwd, '.git'))) git('worktree', 'add', '--detach', cwd, revision);
  if (!existsSync(join(cwd, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
  return cwd;
}

/** The landed version's server, bundled in its checkout. */
export function buildBefore(revision: string): ServerBuild {
  const cwd = checkoutBefore(revision);
  const main = join(cwd, 'dist/server/main.js');
  if (!existsSync(main)) bundle(cwd);
  return { label: 'before', revision, cwd, bundle: main };
}

interface CachedShow {
  show: GeneratedShow;
  buildSeconds: number;
}

/** The landed version's server migrates and seeds the empty database (its schema is the one both start from). */
async function seedWith(build: ServerBuild | null, env: Record<string, string>, open: () => ReturnType<typeof openDatabase>) {
  if (build) {
    const dataDir = env.DATA_DIR ?? join(CACHE_DIR, 'seed-data');
    mkdirSync(dataDir, { recursive: true });
    const server = await startServerProcess({ DATA_DIR: dataDir, ...env, SEED_DEMO: 'true' }, build.bundle, build.cwd, 900);
    await server.stop();
    return;
  }
  const opened = await open();
  await migrateToLatest(opened.db);
  await seedDemo(opened.db);
  await opened.close();
}

/**
 * This tree's migrations run on the after portal's copy before its server starts: at a big show's
 * size they build indexes over millions of rows, longer than a server waits for its database at
 * start (the app's plugin timeout), and their time is printed apart from the portal's start. The
 * copy is then vacuumed and analysed as the data set was: a migration that rewrites a table (stored
 * columns added to form entries) leaves it without statistics and visibility map, so each
 * index-only read would visit the table until autovacuum came by, which the landed copy never pays.
 */
export async function migrateCopy(options: { databaseUrl?: string; pgliteDir?: string }) {
  const started = performance.now();
  const opened = await openDatabase(options);
  let migrated = started;
  try {
    await migrateToLatest(opened.db);
    migrated = performance.now();
    await sql`vacuum (analyze)`.execute(opened.db);
  } finally {
    await opened.close();
  }
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  console.log(
    `  after copy migrated to this tree's schema in ${seconds(started, migrated)} s, vacuumed and analysed in ${seconds(migrated, performance.now())} s (before its portal starts)`,
  );
}

async function fill(open: () => ReturnType<typeof openDatabase>, size: ShowSize, log: (line: string) => void) {
  const opened = await open();
  try {
    return await generateShow(opened.db, size, log);
  } finally {
    await opened.close();
  }
}

/** A postmaster left by an interrupted run of this benchmark holds the kept cluster: stop it first. */
function stopLeftover(clusterDir: string) {
  const pidFile = join(clusterDir, 'data', 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && existsSync(pidFile); i++) execFileSync('sleep', ['0.1']);
  } catch {
    rmSync(pidFile, { force: true });
  }
}

export interface PostgresShow extends CachedShow {
  postgres: RunningPostgres;
  template: string;
  templateUrl: string;
  cached: boolean;
  /** A copy of the data set for one portal (CREATE DATABASE … TEMPLATE), its URL. */
  copy(name: string): Promise<string>;
  drop(name: string): Promise<void>;
}

const urlOf = (adminUrl: string, database: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** PostgreSQL (a cluster kept in .tmp/big-show/pg) with the data set as a template database, built when not cached. */
export async function postgresShow(size: ShowSize, before: ServerBuild | null, log: (line: string) => void): Promise<PostgresShow> {
  const clusterDir = join(CACHE_DIR, 'pg');
  // The cluster runs as the postgres user when we are root: it must be able to walk down to it.
  mkdirSync(CACHE_DIR, { recursive: true });
  for (const dir of [join(ROOT, '.tmp'), CACHE_DIR]) chmodSync(dir, statSync(dir).mode | 0o711);
  stopLeftover(clusterDir);
  // BENCH_SHOW_PG_SETTINGS="-c shared_buffers=4GB …": the cluster with a production server's settings (the tests' are small).
  const extraArgs = process.env.BENCH_SHOW_PG_SETTINGS?.split(/\s+/).filter(Boolean);
  const postgres = await startPostgres({ statStatements: true, keepDir: clusterDir, extraArgs });
  // A big show's server has memory for maintenance: the after portal's migrations build indexes
  // over millions of leads on start (the default 64 MB builds a trigram index in many passes).
  await admin(postgres.adminUrl, (client) => client.query(`alter system set maintenance_work_mem = '1GB'`).then(() => client.query('select pg_reload_conf()')));
  const template = `show_${generatorHash(size)}_${before?.revision.slice(0, 8) ?? 'self'}`;
  try {
    const comment = await admin(postgres.adminUrl, async (client) => {
      const found = await client.query<{ comment: string | null }>(`select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`, [template]);
      return found.rows[0]?.comment ?? null;
    });
    let cached: CachedShow;
    const isCached = comment?.startsWith('{') === true;
    if (isCached) cached = JSON.parse(comment!) as CachedShow;
    else {
      await admin(postgres.adminUrl, async (client) => {
        // Older data sets (another generator or revision) and copies left by an interrupted run go.
        const old = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'show\\_%' or datname like 'run\\_%'`);
        for (const row of old.rows) await client.query(`drop database if exists "${row.datname}" with (force)`);
        await client.query(`create database "${template}"`);
      });
      const databaseUrl = urlOf(postgres.adminUrl, template);
      const started = performance.now();
      log(`  building the data set on PostgreSQL (${template})…`);
      await seedWith(before, { DATABASE_URL: databaseUrl, DATA_DIR: join(CACHE_DIR, 'seed-data-pg') }, () => openDatabase({ databaseUrl }));
      const show = await fill(() => openDatabase({ databaseUrl }), size, log);
      // Hint bits set and statistics fresh once, so neither copy pays for them during its cases.
      await admin(databaseUrl, (client) => client.query('vacuum (analyze)').then(() => undefined));
      cached = { show, buildSeconds: (performance.now() - started) / 1000 };
      await admin(postgres.adminUrl, (client) => client.query(`comment on database "${template}" is '${JSON.stringify(cached).replace(/'/g, "''")}'`).then(() => undefined));
    }
    return {
      ...cached,
      postgres,
      template,
      templateUrl: urlOf(postgres.adminUrl, template),
      cached: isCached,
      copy: async (name) => {
        await admin(postgres.adminUrl, async (client) => {
          await client.query(`drop database if exists "${name}" with (force)`);
          await client.query(`create database "${name}" template "${template}"`);
        });
        return urlOf(postgres.adminUrl, name);
      },
      drop: (name) => admin(postgres.adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`).then(() => undefined)),
    };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}

export interface PgliteShow extends CachedShow {
  cached: boolean;
  /** A copy of the data directory for one portal (its DATA_DIR). */
  copy(name: string): string;
}

/** The embedded database's slice, a data directory kept in .tmp/big-show, built when not cached. */
export async function pgliteShow(size: ShowSize, before: ServerBuild | null, log: (line: string) => void): Promise<PgliteShow> {
  const dir = join(CACHE_DIR, `pglite-${generatorHash(size)}-${before?.revision.slice(0, 8) ?? 'self'}`);
  const marker = join(dir, 'big-show.json');
  const isCached = existsSync(marker);
  let cached: CachedShow;
  if (isCached) cached = JSON.parse(readFileSync(marker, 'utf8')) as CachedShow;
  else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const started = performance.now();
    log(`  building the data set on PGlite (${dir})…`);
    const open = () => openDatabase({ pgliteDir: defaultPgliteDir(dir) });
    await seedWith(before, { DATA_DIR: dir }, open);
    const show = await fill(open, size, log);
    cached = { show, buildSeconds: (performance.now() - started) / 1000 };
    writeFileSync(marker, JSON.stringify(cached));
  }
  return {
    ...cached,
    cached: isCached,
    copy: (name) => {
      const target = join(CACHE_DIR, `run-${name}`);
      rmSync(target, { recursive: true, force: true });
      cpSync(dir, target, { recursive: true });
      rmSync(join(target, 'big-show.json'), { force: true });
      return target;
    },
  };
}
