import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { PGlite } from '@electric-sql/pglite';
import { DOCUMENT_MAX_BYTES } from '../engine/constants';
import type { Config } from './config';
import authPlugin from './plugins/auth';
import databasePlugin from './plugins/database';
import errorsPlugin from './plugins/errors';
import auditPlugin from './plugins/audit';
import mailerPlugin from './plugins/mailer';
import openapiPlugin from './plugins/openapi';
import storagePlugin from './plugins/storage';
import securityPlugin from './plugins/security';
import webPlugin from './plugins/static';
import authRoutes from './modules/auth/routes';
import analyticsRoutes from './modules/analytics/routes';
import approvalRoutes from './modules/approvals/routes';
import contentRoutes from './modules/content/routes';
import formRoutes from './modules/forms/routes';
import leadRoutes from './modules/leads/routes';
import memberRoutes from './modules/members/routes';
import { loadFormRegistry } from './modules/forms/registry';
import projectRoutes from './modules/project/routes';
import showroomRoutes from './modules/showroom/routes';
import uploadRoutes from './modules/uploads/routes';
import fileHousekeeping from './modules/files/housekeeping';
import privacyRoutes from './modules/privacy/routes';
import userRoutes from './modules/user/routes';
import visaRoutes from './modules/visa/routes';

export interface BuildOptions {
  /** A prepared embedded database (tests). */
  pglite?: PGlite;
  /** Log to stdout (the server) or stay quiet (tests). */
  logger?: boolean;
  /** Run the mail queue's worker (default); one-off commands deliver with app.mailer.deliverDue(). */
  mailWorker?: boolean;
  /** Run the periodic housekeeping jobs (default: with the mail worker). */
  housekeeping?: boolean;
}

/** Infrastructure plugins first, then one route module per area. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    // A first start creates the embedded database and seeds it, which takes seconds.
    pluginTimeout: 120_000,
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  });
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(openapiPlugin);
  await app.register(databasePlugin, {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    seedDemo: config.seedDemo,
    pglite: options.pglite,
  });
  await app.register(mailerPlugin, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    maxAttempts: config.mail.maxAttempts,
    retryBaseMs: config.mail.retrySeconds * 1000,
    pollMs: config.mail.pollSeconds * 1000,
    worker: options.mailWorker,
  });
  await app.register(auditPlugin);
  await app.register(storagePlugin, { kind: config.fileStore, dataDir: config.dataDir });
  await app.register(authPlugin, { policy: config.session });
  // Uploads: one file per request, at most one byte over the largest purpose's limit (so a larger
  // file shows up as too large instead of being cut silently); names keep their path so that
  // "../x.jpg" is refused rather than shortened.
  await app.register(multipart, { limits: { fileSize: DOCUMENT_MAX_BYTES + 1, files: 1, fields: 5 }, preservePath: true });

  await app.register(authRoutes, { config });
  await app.register(userRoutes, { config });
  await app.register(projectRoutes);
  // The forms as data are read once and shared by the modules that need them.
  const registry = loadFormRegistry();
  await app.register(formRoutes, { registry });
  await app.register(contentRoutes, { registry });
  await app.register(showroomRoutes, { config, registry });
  await app.register(approvalRoutes, { registry });
  await app.register(visaRoutes, { registry });
  await app.register(uploadRoutes, { config, registry });
  await app.register(fileHousekeeping, { config, enabled: options.housekeeping ?? options.mailWorker ?? true });
  await app.register(memberRoutes, { config });
  await app.register(leadRoutes, { config });
  await app.register(analyticsRoutes, { config });
  await app.register(privacyRoutes);

  await app.register(webPlugin, { webDir: config.webDir });
  return app;
}
