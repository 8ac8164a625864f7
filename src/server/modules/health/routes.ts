import type { ApiApp } from '../../lib/api-app';
import type { FromSchema } from 'json-schema-to-ts';
import { sql } from 'kysely';
import { migrationProvider } from '../../db/migrations';

// Probes for a load balancer or systemd: /healthz says the process answers,
// /readyz says it can serve users (database reachable, every migration applied, forms loaded).
// Outside /oga and never the web app's HTML: a proxy must not mistake the SPA for a healthy server.

const checkSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    detail: { type: 'string' },
  },
  required: ['ok'],
} as const;

const readySchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not ready'] },
    checks: {
      type: 'object',
      properties: { database: checkSchema, migrations: checkSchema, forms: checkSchema },
      required: ['database', 'migrations', 'forms'],
    },
  },
  required: ['status', 'checks'],
} as const;

type Check = FromSchema<typeof checkSchema>;

/** A probe must answer quickly even when the database hangs. */
const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
    work.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

function reason(error: unknown): string {
  // The kind of failure only: no host names, users or stack frames reach the probe's caller.
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? `unreachable (${code})` : 'unreachable';
}

export default async function healthRoutes(app: ApiApp) {
  const registry = app.forms.registry;
  const expected = Object.keys(await migrationProvider.getMigrations());

  app.get(
    '/healthz',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        response: { 200: { type: 'object', properties: { status: { type: 'string', enum: ['alive'] } }, required: ['status'] } },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { status: 'alive' as const };
    },
  );

  app.get(
    '/readyz',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database reachable, migrations applied, forms loaded',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      let database: Check = { ok: true };
      let migrations: Check = { ok: false, detail: 'not checked: database unreachable' };
      try {
        await withTimeout(sql`select 1`.execute(app.db));
      } catch (error) {
        database = { ok: false, detail: reason(error) };
      }
      if (database.ok) {
        try {
          const rows = await withTimeout(
            app.db
              .selectFrom('kysely_migration' as never)
              .select(sql<string>`name`.as('name'))
              .execute(),
          );
          const applied = new Set((rows as { name: string }[]).map((row) => row.name));
          const missing = expected.filter((name) => !applied.has(name));
          migrations = missing.length === 0 ? { ok: true } : { ok: false, detail: `not applied: ${missing.join(', ')}` };
        } catch (error) {
          migrations = { ok: false, detail: reason(error) };
        }
      }
      const forms: Check = registry.definitions.length > 0 ? { ok: true } : { ok: false, detail: 'no forms loaded' };
      const ready = database.ok && migrations.ok && forms.ok;
      reply.header('Cache-Control', 'no-store');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: { database, migrations, forms } });
    },
  );
}
