import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../db/connection';
import type { Database } from '../db/schema';
import { seedDemo } from '../db/seed';
import { WriteObserver } from '../db/write-observer';
import { listenForBackups } from '../ops/backup';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbEngine: 'postgres' | 'pglite';
    /** Tells caches of rows (the auth hook's sessions) about every write made through app.db. */
    dbWrites: WriteObserver;
    /** The embedded database (online backups dump it); undefined on PostgreSQL. */
    pglite: PGlite | undefined;
  }
}

export interface DatabasePluginOptions {
  databaseUrl?: string;
  /** Connections to PostgreSQL at most (config DATABASE_POOL_SIZE). */
  poolSize?: number;
  dataDir: string;
  seedDemo: boolean;
  /** Tests hand in a database loaded from a prepared dump. */
  pglite?: PGlite;
}

export default fp<DatabasePluginOptions>(
  async (app, options) => {
    const opened = await openDatabase({
      databaseUrl: options.databaseUrl,
      poolSize: options.poolSize,
      pgliteDir: defaultPgliteDir(options.dataDir),
      pglite: options.pglite,
      log: (message) => app.log.warn(message),
    });
    const writes = new WriteObserver();
    app.decorate('db', opened.db.withPlugin(writes));
    app.decorate('dbWrites', writes);
    app.decorate('dbEngine', opened.engine);
    app.decorate('pglite', opened.pglite);
    app.addHook('onClose', async () => opened.close());
    await migrateToLatest(opened.db, (message) => app.log.info(message));
    if (options.seedDemo) await seedDemo(opened.db);
    // `npm run backup` while the server runs: the embedded database is this process's.
    if (opened.pglite && !options.pglite) {
      const control = await listenForBackups(opened.pglite, options.dataDir, app.log).catch((error: unknown) => {
        app.log.warn({ err: error }, 'no control socket in DATA_DIR: `npm run backup` works only with the server stopped');
        return undefined;
      });
      if (control) app.addHook('onClose', async () => void (await new Promise((resolve) => control.close(resolve))));
    }
  },
  { name: 'database' },
);
