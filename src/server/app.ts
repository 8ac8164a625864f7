import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { redactUrl, REDACTED_LOG_PATHS } from './lib/redact';
import multipart from '@fastify/multipart';
import type { PGlite } from '@electric-sql/pglite';
import { DOCUMENT_MAX_BYTES } from '../engine/constants';
import type { Config } from './config';
import authPlugin from './plugins/auth';
import databasePlugin from './plugins/database';
import errorsPlugin from './plugins/errors';
import inputPlugin, { addInputFormats } from './plugins/input';
import auditPlugin from './plugins/audit';
import compressionPlugin from './plugins/compression';
import mailerPlugin from './plugins/mailer';
import openapiPlugin from './plugins/openapi';
import storagePlugin from './plugins/storage';
import schedulerPlugin from './plugins/scheduler';
import securityPlugin from './plugins/security';
import webPlugin from './plugins/static';
import authRoutes from './modules/auth/routes';
import linkCodeRoutes from './modules/auth/link-codes';
import analyticsRoutes from './modules/analytics/routes';
import approvalRoutes from './modules/approvals/routes';
import contentRoutes from './modules/content/routes';
import formRoutes from './modules/forms/routes';
import healthRoutes from './modules/health/routes';
import leadRoutes from './modules/leads/routes';
import memberRoutes from './modules/members/routes';
import organiserEventRoutes from './modules/organiser-events/routes';
import eventLogoRoutes from './modules/organiser-events/logo-routes';
import organiserExhibitorRoutes from './modules/organiser-exhibitors/routes';
import organiserImportRoutes from './modules/organiser-exhibitors/import-routes';
import formService from './plugins/forms/service';
import formSetRoutes from './modules/forms/form-set-routes';
import listImportRoutes from './modules/forms/list-import-routes';
import formGalleryRoutes from './modules/organiser-forms/gallery-routes';
import progressRoutes from './modules/organiser-progress/routes';
import projectRoutes from './modules/events/routes';
import reopenRoutes from './modules/reopen/routes';
import auditRoutes from './modules/organiser-audit/routes';
import { sendDueReminders } from './modules/organiser-reminders/due';
import reminderRoutes from './modules/organiser-reminders/routes';
import reminderScheduler from './plugins/reminder-scheduler';
import submissionRoutes from './modules/organiser-submissions/routes';
import showroomRoutes from './modules/showroom/routes';
import uploadRoutes from './modules/uploads/routes';
import fileHousekeeping from './modules/files/housekeeping';
import { fileJobs } from './modules/files/jobs';
import { privacyJobs } from './modules/organiser-privacy/jobs';
import privacyRoutes from './modules/organiser-privacy/routes';
import userRoutes from './modules/account/routes';
import documentRoutes from './modules/documents/routes';

export interface BuildOptions {
  /** A prepared embedded database (tests). */
  pglite?: PGlite;
  /** Log to stdout (the server) or stay quiet (tests). */
  logger?: boolean;
  /** Where the log goes instead of stdout (tests that read the log). */
  logStream?: { write(line: string): void };
  /** Run the mail queue's worker (default); one-off commands deliver with app.mailer.deliverDue(). */
  mailWorker?: boolean;
  /** Run the reminders' due check every REMINDER_CHECK_MS (default); one-off commands do not. */
  reminders?: boolean;
  /** Pick form changes up as files change (default); one-off commands read the forms once. */
  watchForms?: boolean;
}

/** How often each instance looks for reminders that have come due (issue 9). */
const REMINDER_CHECK_MS = 15 * 60_000;

/** Infrastructure plugins first, then one route module per area. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
            serializers: {
              // Fastify's request serializer, with secrets in the query string redacted.
              req: (request: FastifyRequest) => ({
                method: request.method,
                url: redactUrl(request.url),
                host: request.host,
                remoteAddress: request.ip,
                remotePort: request.socket?.remotePort,
              }),
            },
          },
    bodyLimit: config.bodyLimitBytes,
    // A first start creates the embedded database and seeds it, which takes seconds.
    pluginTimeout: 120_000,
    // A hop count trusts that many proxies nearest the server (X-Forwarded-For read from the right).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true }, plugins: [addInputFormats] },
  });
  await app.register(errorsPlugin);
  await app.register(inputPlugin);
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(compressionPlugin);
  await app.register(openapiPlugin);
  await app.register(databasePlugin, {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    seedDemo: config.seedDemo,
    pglite: options.pglite,
  });
  // Housekeeping runs on timers unless switched off (HOUSEKEEPING_SECONDS=0; tests run jobs by hand).
  await app.register(schedulerPlugin, { enabled: config.housekeepingSeconds > 0 });
  await app.register(mailerPlugin, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    maxAttempts: config.mail.maxAttempts,
    retryBaseMs: config.mail.retrySeconds * 1000,
    pollMs: config.mail.pollSeconds * 1000,
    worker: options.mailWorker,
    logLinks: !config.smtpUrl && isLocalAddress(config.publicUrl),
  });
  await app.register(auditPlugin);
  await app.register(storagePlugin, { kind: config.fileStore, dataDir: config.dataDir });
  await app.register(authPlugin, { policy: config.session });
  // Uploads: one file per request, at most one byte over the limit (so a larger file shows up as
  // too large instead of being cut silently; the upload route sets it to its largest purpose's,
  // forms.yaml `uploads:`); names keep their path so that "../x.jpg" is refused rather than shortened.
  await app.register(multipart, { limits: { fileSize: DOCUMENT_MAX_BYTES + 1, files: 1, fields: 5 }, preservePath: true });

  await app.register(authRoutes, { config });
  await app.register(linkCodeRoutes, { config });
  await app.register(userRoutes, { config });
  await app.register(projectRoutes);
  // The forms as data (FORMS_DIR), live: modules read the set in use through app.forms.
  await app.register(formService, { dir: config.formsDir, watch: options.watchForms });
  const registry = app.forms.registry;
  await app.register(formSetRoutes);
  await app.register(healthRoutes, { registry });
  await app.register(formRoutes, { registry });
  await app.register(listImportRoutes);
  await app.register(formGalleryRoutes);
  await app.register(contentRoutes, { registry });
  await app.register(showroomRoutes, { config, registry });
  await app.register(approvalRoutes, { registry, config });
  await app.register(progressRoutes, { registry });
  await app.register(reopenRoutes, { registry });
  await app.register(submissionRoutes, { registry, config });
  await app.register(auditRoutes);
  await app.register(reminderRoutes, { registry, publicUrl: config.publicUrl });
  await app.register(organiserEventRoutes, { registry });
  await app.register(eventLogoRoutes);
  await app.register(organiserExhibitorRoutes, { registry, config });
  await app.register(organiserImportRoutes, { registry });
  // Issue 9: the reminders' due check, on every instance (the mail queue sends each once).
  if (options.reminders !== false) {
    await app.register(reminderScheduler, {
      name: 'reminders',
      everyMs: REMINDER_CHECK_MS,
      task: (instance) => sendDueReminders(instance, { definitions: registry.definitions, publicUrl: config.publicUrl }),
    });
  }
  await app.register(documentRoutes);
  await app.register(uploadRoutes, { config, registry });
  // The composition root hands each module's periodic jobs to the one scheduler.
  await app.register(fileHousekeeping, { jobs: [...fileJobs(config), ...privacyJobs(config)] });
  await app.register(memberRoutes, { config });
  await app.register(leadRoutes, { config });
  await app.register(analyticsRoutes, { config });
  await app.register(privacyRoutes);

  await app.register(webPlugin, { webDir: config.webDir });
  return app;
}

/** A development server: PUBLIC_URL on this machine (localhost, 127.x, ::1). */
function isLocalAddress(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '[::1]';
}

/**
 * A hop count trusts X-Forwarded-For only on connections from this machine (loopback), where the
 * proxies of a hop count run: a client reaching the portal directly from elsewhere keeps its own
 * address whatever it forges. Proxies on other machines are named by address in TRUST_PROXY.
 */
function trustHops(hops: number) {
  return (address: string, hop: number) => hop < hops && (hop > 0 || isLoopback(address));
}

function isLoopback(address: string): boolean {
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return bare.startsWith('127.') || bare === '::1';
}
