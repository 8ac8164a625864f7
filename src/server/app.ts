import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { redactUrl, REDACTED_LOG_PATHS } from './lib/redact';
import multipart from '@fastify/multipart';
import type { PGlite } from '@electric-sql/pglite';
import { DOCUMENT_MAX_BYTES } from '../engine/constants';
import { isDevelopmentUrl, type Config } from './config';
import authPlugin from './plugins/auth';
import databasePlugin from './plugins/database';
import errorsPlugin from './plugins/errors';
import inputPlugin, { addInputFormats } from './plugins/input';
import auditPlugin from './plugins/audit';
import compressionPlugin from './plugins/compression';
import mailerPlugin from './plugins/mailer';
import webhooksPlugin from './plugins/webhooks/service';
import openapiPlugin from './plugins/openapi';
import storagePlugin from './plugins/storage';
import schedulerPlugin from './plugins/scheduler';
import securityPlugin from './plugins/security';
import webPlugin from './plugins/static';
import authModule from './modules/auth/module';
import accountModule from './modules/account/module';
import eventsModule from './modules/events/module';
import formsModule from './modules/forms/module';
import healthModule from './modules/health/module';
import organiserFormsModule from './modules/organiser-forms/module';
import organiserFormVersionsModule from './modules/organiser-form-versions/module';
import contentModule from './modules/content/module';
import showroomModule from './modules/showroom/module';
import approvalsModule from './modules/approvals/module';
import organiserProgressModule from './modules/organiser-progress/module';
import reopenModule from './modules/reopen/module';
import organiserSubmissionsModule from './modules/organiser-submissions/module';
import organiserAuditModule from './modules/organiser-audit/module';
import organiserRemindersModule from './modules/organiser-reminders/module';
import organiserEventsModule from './modules/organiser-events/module';
import organiserExhibitorsModule from './modules/organiser-exhibitors/module';
import documentsModule from './modules/documents/module';
import uploadsModule from './modules/uploads/module';
import filesModule from './modules/files/module';
import membersModule from './modules/members/module';
import leadsModule from './modules/leads/module';
import apiKeysModule from './modules/api-keys/module';
import analyticsModule from './modules/analytics/module';
import organiserPrivacyModule from './modules/organiser-privacy/module';
import webhooksModule from './modules/webhooks/module';
import formService from './plugins/forms/service';
import formEntriesService from './plugins/form-entries';
import fileHousekeeping from './modules/files/housekeeping';
import type { ServerModule } from './lib/server-module';

/** The server's modules, each bringing its routes and its periodic jobs (src/server/modules/<name>/module.ts). */
const MODULES: ServerModule[] = [
  authModule,
  accountModule,
  eventsModule,
  formsModule,
  healthModule,
  organiserFormsModule,
  organiserFormVersionsModule,
  contentModule,
  showroomModule,
  approvalsModule,
  organiserProgressModule,
  reopenModule,
  organiserSubmissionsModule,
  organiserAuditModule,
  organiserRemindersModule,
  organiserEventsModule,
  organiserExhibitorsModule,
  documentsModule,
  uploadsModule,
  filesModule,
  membersModule,
  leadsModule,
  apiKeysModule,
  analyticsModule,
  organiserPrivacyModule,
  webhooksModule,
];

export interface BuildOptions {
  /** A prepared embedded database (tests). */
  pglite?: PGlite;
  /** Log to stdout (the server) or stay quiet (tests). */
  logger?: boolean;
  /** Where the log goes instead of stdout (tests that read the log). */
  logStream?: { write(line: string): void };
  /** Run the mail queue's worker (default); one-off commands deliver with app.mailer.deliverDue(). */
  mailWorker?: boolean;
  /** Run the reminders' due check (organiser-reminders' job) on its timer (default); one-off commands do not. */
  reminders?: boolean;
  /** Pick form changes up as files change (default); one-off commands read the forms once. */
  watchForms?: boolean;
}

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
    // No time limit on a plugin's start: the database plugin applies migrations, and on a big
    // show's database (millions of leads) one migration's index build takes minutes; a limit would
    // make every start after such an upgrade fail half-way. The database plugin logs which
    // migrations it is applying, so a long start shows what it is doing.
    pluginTimeout: 0,
    // A hop count trusts that many proxies nearest the server (X-Forwarded-For read from the right).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true }, plugins: [addInputFormats] },
  });
  app.decorate('config', config);
  await app.register(errorsPlugin);
  await app.register(inputPlugin);
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(compressionPlugin);
  await app.register(openapiPlugin);
  await app.register(databasePlugin, {
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
    seedDemo: config.seedDemo,
    pglite: options.pglite,
  });
  // Housekeeping runs on timers unless switched off (HOUSEKEEPING_SECONDS=0; tests run jobs by hand);
  // a job with a switch of its own (the reminders') follows that instead.
  await app.register(schedulerPlugin, { enabled: config.housekeepingSeconds > 0 });
  await app.register(mailerPlugin, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    maxAttempts: config.mail.maxAttempts,
    retryBaseMs: config.mail.retrySeconds * 1000,
    pollMs: config.mail.pollSeconds * 1000,
    worker: options.mailWorker,
    logLinks: !config.smtpUrl && isDevelopmentUrl(config.publicUrl),
  });
  // LD: webhooks, queued in the database and sent signed by a worker (claimed once across servers).
  await app.register(webhooksPlugin, {
    policy: { localTargets: config.webhooks.localTargets },
    timeoutMs: config.webhooks.timeoutSeconds * 1000,
    pollMs: config.webhooks.pollSeconds * 1000,
    disableAfterMs: config.webhooks.disableAfterHours * 3_600_000,
    worker: config.webhooks.worker && options.mailWorker !== false,
    publicUrl: config.publicUrl,
  });
  await app.register(auditPlugin);
  await app.register(storagePlugin, { kind: config.fileStore, dataDir: config.dataDir });
  // The forms as data (FORMS_DIR), live: modules read the set in use through app.forms.
  await app.register(formService, { dir: config.formsDir, watch: options.watchForms });
  await app.register(authPlugin, { policy: config.session });
  // The exhibitors' form entries (drafts, submissions, parts, reopening): modules go through app.formEntries.
  await app.register(formEntriesService);
  // Uploads: one file per request, at most one byte over the limit (so a larger file shows up as
  // too large instead of being cut silently; the upload route sets it to its largest purpose's,
  // forms.yaml `uploads:`); names keep their path so that "../x.jpg" is refused rather than shortened.
  await app.register(multipart, { limits: { fileSize: DOCUMENT_MAX_BYTES + 1, files: 1, fields: 5 }, preservePath: true });

  for (const module of MODULES) await app.register(module.routes);
  // Every module's periodic jobs go to the one scheduler (plugins/scheduler.ts, claimed once).
  await app.register(fileHousekeeping, {
    jobs: MODULES.flatMap((module) => module.jobs?.(config) ?? []),
    switches: { housekeeping: config.housekeepingSeconds > 0, reminders: options.reminders !== false },
  });

  await app.register(webPlugin, { webDir: config.webDir });
  return app;
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
