import { isIP } from 'node:net';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SCHEMAS_DIR } from './plugins/forms/form-set';
import type { LoginThrottlePolicy } from '../engine/login-throttle';
import { SESSION_DEFAULTS } from '../engine/constants';

// Configuration is read once at start from the environment, checked, and reported as one list
// of everything that is wrong, so a newcomer fixes it in one go.

export interface Config {
  port: number;
  host: string;
  /** Where the embedded database, the mail outbox and uploads live. */
  dataDir: string;
  /** A PostgreSQL server to use instead of the embedded database. */
  databaseUrl?: string;
  /**
   * Connections this instance keeps to PostgreSQL at most. Several instances share the server's
   * connections and cores: together they should hold about what the server runs well at once.
   */
  databasePoolSize: number;
  /** SMTP server for outgoing mail; without it mail is written to DATA_DIR/outbox. */
  smtpUrl?: string;
  mailFrom: string;
  /** The mail queue: attempts per message, first retry delay (doubling), how often it looks for due mail. */
  mail: { maxAttempts: number; retrySeconds: number; pollSeconds: number };
  /** The address users reach the portal at, for links in e-mails. */
  publicUrl: string;
  /** The built web app, served with fallback to index.html. */
  webDir: string;
  /** The forms as data (forms/, events/), read live: changes are picked up without a restart. */
  formsDir: string;
  session: { idleSeconds: number; absoluteSeconds: number; warningSeconds: number };
  login: LoginThrottlePolicy;
  resetTokenMinutes: number;
  bodyLimitBytes: number;
  seedDemo: boolean;
  logLevel: string;
  /** Where files live: local disk under DATA_DIR, or PostgreSQL itself for several instances. */
  fileStore: 'local' | 'database';
  /** Bytes of uploads one participation may keep (all its users together). */
  uploadQuotaBytes: number;
  /** Lead export files are removed this many days after they were made. */
  exportRetentionDays: number;
  /**
   * Behind reverse proxies: how many proxy hops to trust in X-Forwarded-For (a number; only on
   * connections from loopback, where such a proxy runs), or the
   * proxies' addresses/CIDR ranges; false takes the connection's address. Never "trust anyone".
   */
  trustProxy: false | number | string[];
  /** Minutes a one-time sign-in link code (?token=) stays valid. */
  linkCodeMinutes: number;
  /** How often the housekeeping jobs run (purging expired sessions, failures, links); 0 = never on a timer. */
  housekeepingSeconds: number;
  /**
   * Webhook delivery (LD). `localTargets`: plain http to this machine (localhost, loopback) is
   * allowed: a development server (PUBLIC_URL on localhost) or WEBHOOK_LOCAL_TARGETS=true (tests).
   * Private, link-local and other internal addresses are refused always. `worker`: this server
   * delivers on its own (off: a command or test calls app.webhooks.deliverDue()).
   */
  webhooks: { localTargets: boolean; timeoutSeconds: number; pollSeconds: number; disableAfterHours: number; worker: boolean };
}

/** A development server: the public address is on this machine (localhost, 127.x, ::1). */
export function isDevelopmentUrl(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '[::1]';
}

/** The levels the logger (pino) knows; anything else is refused at start rather than crashing later. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = env[name];
    if (!raw) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) problems.push(`${name} must start with ${protocols.join(' or ')} (got "${parsed.protocol}")`);
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };

  const port = integer('PORT', 8080, 0, 65535);
  const idleSeconds = integer('SESSION_IDLE_SECONDS', SESSION_DEFAULTS.idleSeconds, 5);
  const absoluteSeconds = integer('SESSION_ABSOLUTE_SECONDS', SESSION_DEFAULTS.absoluteSeconds, 60);
  if (absoluteSeconds < idleSeconds) problems.push('SESSION_ABSOLUTE_SECONDS must not be shorter than SESSION_IDLE_SECONDS');
  const fileStore = (env.FILE_STORE || 'local').toLowerCase();
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const host = env.HOST || '0.0.0.0';
  if (!/^[A-Za-z0-9.:_-]+$/.test(host)) problems.push(`HOST must be an address or host name to listen on (got "${host}")`);
  const mailFrom = env.MAIL_FROM || 'Exhibitor Portal <no-reply@exhibitor-portal.example>';
  if (!/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/.test(mailFrom.trim()))
    problems.push(`MAIL_FROM must be an address, optionally with a name ("Name <address>") (got "${mailFrom}")`);
  if (fileStore !== 'local' && fileStore !== 'database') problems.push(`FILE_STORE must be local or database (got "${env.FILE_STORE}")`);
  if (fileStore === 'database' && !env.DATABASE_URL) problems.push('FILE_STORE=database shares files between instances through PostgreSQL: set DATABASE_URL too');
  const publicUrl = url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;

  const config: Config = {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    mail: {
      maxAttempts: integer('MAIL_MAX_ATTEMPTS', 6, 1, 100),
      retrySeconds: integer('MAIL_RETRY_SECONDS', 30, 0, 86_400),
      pollSeconds: integer('MAIL_POLL_SECONDS', 5, 1, 3_600),
    },
    publicUrl: publicUrl.replace(/\/+$/, ''),
    webDir: resolve(env.WEB_DIR || './dist/web'),
    formsDir: env.FORMS_DIR ? resolve(env.FORMS_DIR) : SCHEMAS_DIR,
    session: {
      idleSeconds,
      absoluteSeconds,
      warningSeconds: integer('SESSION_WARNING_SECONDS', SESSION_DEFAULTS.warningSeconds, 1),
    },
    login: {
      freeFailuresPerAccountAddress: integer('LOGIN_FREE_FAILURES', 5, 1, 1000),
      freeFailuresPerAddress: integer('LOGIN_FREE_FAILURES_PER_ADDRESS', 20, 1, 100_000),
      maxFailuresPerAddress: integer('LOGIN_MAX_FAILURES_PER_ADDRESS', 300, 1),
      maxDelaySeconds: integer('LOGIN_MAX_DELAY_SECONDS', 900, 1, 24 * 3600),
      windowSeconds: 3600,
    },
    resetTokenMinutes: integer('RESET_TOKEN_MINUTES', 60, 1, 24 * 60),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    seedDemo: flag('SEED_DEMO', true),
    logLevel,
    fileStore: fileStore === 'database' ? 'database' : 'local',
    uploadQuotaBytes: integer('UPLOAD_QUOTA_MB', 200, 1, 1_000_000) * 1024 * 1024,
    exportRetentionDays: integer('EXPORT_RETENTION_DAYS', 30, 1, 3650),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    linkCodeMinutes: integer('LINK_CODE_MINUTES', 10, 1, 24 * 60),
    housekeepingSeconds: integer('HOUSEKEEPING_SECONDS', 15 * 60, 0, 7 * 24 * 3600),
    webhooks: {
      localTargets: flag('WEBHOOK_LOCAL_TARGETS', false) || isDevelopmentUrl(publicUrl),
      timeoutSeconds: integer('WEBHOOK_TIMEOUT_SECONDS', 10, 1, 120),
      pollSeconds: integer('WEBHOOK_POLL_SECONDS', 2, 1, 3_600),
      disableAfterHours: integer('WEBHOOK_DISABLE_AFTER_HOURS', 72, 1, 30 * 24),
      worker: flag('WEBHOOK_WORKER', true),
    },
    ...overrides,
  };
  if (!existsSync(join(config.formsDir, 'forms', 'forms.yaml'))) problems.push(`FORMS_DIR must be a folder holding forms/forms.yaml (got "${config.formsDir}")`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * TRUST_PROXY: a hop count ("1" for one nginx in front) or a comma-separated list of the
 * proxies' addresses or CIDR ranges. "true" is refused: it would take the client address from
 * whatever X-Forwarded-For a client sends, so anyone could rotate addresses at will.
 */
function trustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || ['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  if (['true', 'yes'].includes(value.toLowerCase())) {
    problems.push("TRUST_PROXY=true would trust any client's X-Forwarded-For: give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.2,10.0.0.0/8)");
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) problems.push(`TRUST_PROXY must be a hop count from 1 to 10 or proxy addresses (got "${value}")`);
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (!family || !prefixOk || rest.length > 0) problems.push(`TRUST_PROXY entry "${entry}" is not an IP address or CIDR range`);
  }
  return entries;
}
