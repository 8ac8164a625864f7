import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../db/connection';
import type { Database } from '../db/schema';
import { seedDemo } from '../db/seed';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbEngine: 'postgres' | 'pglite';
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
    app.decorate('db', opened.db);
    app.decorate('dbEngine', opened.engine);
    app.addHook('onClose', async () => opened.close());
    await migrateToLatest(opened.db);
    if (options.seedDemo) await seedDemo(opened.db);
  },
  { name: 'database' },
);
