import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../db/connection';
import type { Database } from '../db/schema';
import { seedDemo } from '../db/seed';
import { WriteObserver } from '../db/write-observer';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbEngine: 'postgres' | 'pglite';
    /** Tells caches of rows (the auth hook's sessions) about every write made through app.db. */
    dbWrites: WriteObserver;
  }
}

export interface DatabasePluginOptions {
  databaseUrl?: string;
  dataDir: string;
  seedDemo: boolean;
  /** Tests hand in a database loaded from a prepared dump. */
  pglite?: PGlite;
}

export default fp<DatabasePluginOptions>(
  async (app, options) => {
    const opened = await openDatabase({
      databaseUrl: options.databaseUrl,
      pgliteDir: defaultPgliteDir(options.dataDir),
      pglite: options.pglite,
    });
    const writes = new WriteObserver();
    app.decorate('db', opened.db.withPlugin(writes));
    app.decorate('dbWrites', writes);
    app.decorate('dbEngine', opened.engine);
    app.addHook('onClose', async () => opened.close());
    await migrateToLatest(opened.db);
    if (options.seedDemo) await seedDemo(opened.db);
  },
  { name: 'database' },
);
