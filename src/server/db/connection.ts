import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { migrationProvider } from './migrations';
import { makePrivate } from './private-files';
import type { Database } from './schema';

// One data-access layer over two engines: embedded PGlite (default, files under DATA_DIR/db)
// or a PostgreSQL server (DATABASE_URL). Both run the same migrations.

// pg returns bigint (count(*)) as a string; PGlite returns a number. Make pg agree.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Connections to PostgreSQL at most (10 when not given). */
  poolSize?: number;
  /** Directory of the embedded database; ignored with databaseUrl. */
  pgliteDir?: string;
  /** An already-open PGlite (tests load one from a dump). */
  pglite?: PGlite;
  /** Told when a stale lock of the embedded database is taken over. */
  log?: (message: string) => void;
}

export interface OpenDatabase {
  db: Kysely<Database>;
  engine: 'postgres' | 'pglite';
  /** The embedded database itself (backups dump it), when that is the engine. */
  pglite?: PGlite;
  close(): Promise<void>;
}

/**
 * An embedded database with the extensions the migrations use (pg_trgm and btree_gin: the lead
 * keyword index by exhibitor). Every PGlite of the project, tests included, is made here: a data directory whose
 * index needs an extension cannot be used without it.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): PGlite {
  return new PGlite({ ...options, extensions: { pg_trgm, btree_gin } });
}

export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  if (options.databaseUrl) {
    // JIT compilation off: the portal's statements are short (a page, a batch), and PostgreSQL's
    // cost threshold put the progress matrix of a 5,000-exhibitor event over it, spending ~50 ms
    // compiling a plan that runs once per request. pg_trgm's word-similarity threshold at its
    // default, whatever the server's configuration says: a lead keyword of two letters finds the
    // leads where they start a word at similarity 2/3 (see the leads' keywordByPair).
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, options: '-c jit=off -c pg_trgm.word_similarity_threshold=0.6' });
    // An idle connection the server closes (restart, failover, a dropped database) must not
    // crash the process: the pool replaces it on the next query.
    pool.on('error', () => undefined);
    // The same for a connection checked out between two queries (a transaction, a streamed read):
    // the pool listens only to idle ones, and an unheard 'error' would end the process. The next
    // query on it fails and is answered like any database error.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  let pglite = options.pglite;
  let lock: DataDirLock | undefined;
  if (!pglite) {
    if (options.pgliteDir) {
      // One process per embedded database: a second one stops here with a clear message.
      mkdirSync(dirname(options.pgliteDir), { recursive: true, mode: 0o700 });
      lock = acquireDataDirLock(`${options.pgliteDir}.lock`, `The embedded database ${options.pgliteDir}`, options.log);
      mkdirSync(options.pgliteDir, { recursive: true, mode: 0o700 });
      makePrivate(dirname(options.pgliteDir));
    }
    try {
      pglite = createPglite({ dataDir: options.pgliteDir });
      await pglite.waitReady;
      if (options.pgliteDir) makePrivate(options.pgliteDir, { always: true });
    } catch (error) {
      lock?.release();
      throw error;
    }
  }
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    engine: 'pglite',
    pglite,
    async close() {
      try {
        await db.destroy();
        // What PGlite wrote since it opened (see makePrivate) is put right as it closes.
        if (lock && options.pgliteDir) makePrivate(options.pgliteDir, { always: true });
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * Applies the migrations not yet applied. `log` hears which are about to run before they start:
 * on a large database one can build an index over millions of rows for minutes, and whoever
 * watches a start should know the server is at work, not hung.
 */
export async function migrateToLatest(db: Kysely<Database>, log?: (message: string) => void): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  if (log) {
    const pending = (await migrator.getMigrations()).filter((migration) => !migration.executedAt).map((migration) => migration.name);
    if (pending.length > 0) log(`applying ${pending.length} database migration(s): ${pending.join(', ')}; on a large database this can take minutes`);
  }
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

export function defaultPgliteDir(dataDir: string): string {
  return join(dataDir, 'db');
}
