import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { MailOutboxTable } from '../db/schema';
import type { Selectable } from 'kysely';

// Every e-mail goes through a queue in the database (mail_outbox): `send` only records the
// message, and a worker delivers it with retries and backoff. A request never waits for SMTP,
// a dead or silent mail server delays mail instead of requests, and several server instances
// share the queue without sending a message twice (rows are claimed with FOR UPDATE SKIP LOCKED).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Replies go here instead of the portal's no-reply sender (an exhibitor's invitation, LA5). */
  replyTo?: string;
  /** Who hears how delivery went (see onResult), e.g. 'invitation' with the invitation's id. */
  kind?: string;
  refId?: string | number;
  /** A message that must exist once: a second send with the same key is dropped (reminders). */
  dedupeKey?: string;
}

export type DeliveryResult = { status: 'sent' } | { status: 'failed'; error: DeliveryError };

/** What is kept of a delivery failure (nodemailer's error fields). */
export interface DeliveryError {
  message: string;
  code?: string;
  responseCode?: number;
  command?: string;
}

export interface Mailer {
  /** Queues the message; resolves once it is stored (false when its dedupe key was used). */
  send(mail: OutgoingMail): Promise<boolean>;
  /** Registers what happens when a message of this kind is delivered or finally fails. */
  onResult(kind: string, handler: (refId: string, result: DeliveryResult) => Promise<void>): void;
  /** Delivers every message that is due now (the worker's step; tests and commands call it). */
  deliverDue(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  /** Attempts before a message is given up (failed). */
  maxAttempts?: number;
  /** The first retry waits this long; each next one twice as long (capped at an hour). */
  retryBaseMs?: number;
  /** How often the worker looks for due messages another instance queued. */
  pollMs?: number;
  /** Run the worker (false for one-off commands that call deliverDue themselves). */
  worker?: boolean;
  /**
   * Without SMTP on a development server (PUBLIC_URL on localhost): log each message's links as
   * written, since the .eml file is quoted-printable and a link copied out of it is broken.
   */
  logLinks?: boolean;
}

/** A message being sent is another instance's for this long; after it, it is retried. */
const CLAIM_SECONDS = 120;
const BATCH = 20;
/** How long a delivered message's body stays in the outbox table. */
const SENT_BODY_KEEP_MS = 24 * 3_600_000;
/** SMTP time limits: a server that accepts and never answers fails the attempt instead of hanging. */
const SMTP_TIMEOUTS = { connectionTimeout: '10000', greetingTimeout: '10000', socketTimeout: '30000' };

function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, value] of Object.entries(SMTP_TIMEOUTS)) if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  return url.toString();
}

function deliveryErrorOf(error: unknown): DeliveryError {
  const source = (error ?? {}) as Partial<DeliveryError> & { message?: unknown };
  return {
    message: typeof source.message === 'string' ? source.message.slice(0, 500) : String(error).slice(0, 500),
    ...(typeof source.code === 'string' ? { code: source.code } : {}),
    ...(typeof source.responseCode === 'number' ? { responseCode: source.responseCode } : {}),
    ...(typeof source.command === 'string' ? { command: source.command } : {}),
  };
}

/** The web links in a message's text, as written (not quoted-printable). */
function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
}

/** A refusal for good (5xx: no such mailbox, message refused) is not retried. */
function isPermanent(error: DeliveryError): boolean {
  return error.responseCode !== undefined && error.responseCode >= 500 && error.responseCode < 600;
}

/**
 * Real e-mail through nodemailer. With SMTP_URL it goes to that server; without, each message
 * is written as an .eml file to DATA_DIR/outbox and its path logged, so a newcomer can open it.
 */
export default fp<MailerOptions>(
  async (app, options) => {
    const maxAttempts = options.maxAttempts ?? 6;
    const retryBaseMs = options.retryBaseMs ?? 30_000;
    const transport = options.smtpUrl
      ? nodemailer.createTransport(withTimeouts(options.smtpUrl))
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const handlers = new Map<string, (refId: string, result: DeliveryResult) => Promise<void>>();
    let sequence = 0;

    async function deliver(row: Selectable<MailOutboxTable>): Promise<void> {
      const info = await transport.sendMail({
        from: options.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body ? { html: row.html_body } : {}),
        ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      });
      if (options.smtpUrl) {
        app.log.info({ mail: row.id, to: row.to_address, subject: row.subject, messageId: info.messageId }, 'mail sent');
        return;
      }
      // Mail holds set-password and sign-in links: readable by the service user only.
      mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      sequence += 1;
      const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${row.id}-${sequence}.eml`);
      writeFileSync(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
      const links = options.logLinks ? linksIn(row.text_body) : [];
      app.log.info(
        { mail: row.id, to: row.to_address, subject: row.subject, file, ...(links.length ? { links } : {}) },
        `mail written to ${file}${links.length ? ` — links: ${links.join(' ')}` : ''}`,
      );
    }

    async function report(row: Selectable<MailOutboxTable>, result: DeliveryResult) {
      const handler = row.kind ? handlers.get(row.kind) : undefined;
      if (!handler) return;
      try {
        await handler(row.ref_id, result);
      } catch (error) {
        app.log.error({ err: error, mail: row.id, kind: row.kind }, 'mail result handler failed');
      }
    }

    async function claim(): Promise<Selectable<MailOutboxTable>[]> {
      const result = await sql<Selectable<MailOutboxTable>>`
        update mail_outbox set status = 'sending', attempts = attempts + 1, locked_until = now() + make_interval(secs => ${CLAIM_SECONDS})
        where id in (
          select id from mail_outbox
          where (status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now())
          order by id limit ${BATCH} for update skip locked)
        returning *`.execute(app.db);
      return result.rows;
    }

    let running: Promise<number> | null = null;
    let again = false;
    /** One delivery pass at a time per process; a nudge during a pass runs one more. */
    function deliverDue(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let delivered = 0;
        do {
          again = false;
          for (let rows = await claim(); rows.length > 0; rows = await claim()) {
            for (const row of rows) {
              try {
                await deliver(row);
                await app.db.updateTable('mail_outbox').set({ status: 'sent', sent_at: new Date(), locked_until: null, last_error: null }).where('id', '=', row.id).execute();
                delivered += 1;
                await report(row, { status: 'sent' });
              } catch (cause) {
                const error = deliveryErrorOf(cause);
                const final = isPermanent(error) || row.attempts >= maxAttempts;
                const delay = Math.min(retryBaseMs * 2 ** (row.attempts - 1), 3_600_000);
                await app.db
                  .updateTable('mail_outbox')
                  .set({ status: final ? 'failed' : 'pending', locked_until: null, last_error: JSON.stringify(error), next_attempt_at: new Date(Date.now() + delay) })
                  .where('id', '=', row.id)
                  .execute();
                app.log.warn({ mail: row.id, to: row.to_address, attempt: row.attempts, final, error: error.message }, final ? 'mail failed' : 'mail delivery failed, will retry');
                if (final) await report(row, { status: 'failed', error });
              }
            }
          }
        } while (again);
        return delivered;
      })().finally(() => {
        running = null;
      });
      return running;
    }

    let closed = false;
    const nudge = () => {
      if (options.worker === false || closed) return;
      deliverDue().catch((error: unknown) => app.log.error({ err: error }, 'mail worker pass failed'));
    };

    const mailer: Mailer = {
      async send(mail) {
        const row = await app.db
          .insertInto('mail_outbox')
          .values({
            to_address: mail.to,
            subject: mail.subject,
            text_body: mail.text,
            html_body: mail.html ?? null,
            reply_to: mail.replyTo ?? null,
            kind: mail.kind ?? '',
            ref_id: mail.refId === undefined ? '' : String(mail.refId),
            dedupe_key: mail.dedupeKey ?? null,
          })
          .onConflict((oc) => oc.column('dedupe_key').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (row) setImmediate(nudge);
        return row !== undefined;
      },
      onResult(kind, handler) {
        handlers.set(kind, handler);
      },
      deliverDue,
    };
    app.decorate('mailer', mailer);

    if (options.worker !== false) {
      const timer = setInterval(nudge, options.pollMs ?? 5_000);
      timer.unref();
      app.addHook('onReady', async () => nudge());
      app.addHook('onClose', async () => {
        closed = true;
        clearInterval(timer);
        await running?.catch(() => undefined);
      });
    }
    // Sent messages keep who and when, not their bodies: set-password and reset links must not
    // stay readable in the database once delivered (a day later, when nobody needs a resend).
    app.scheduler.every('mail-outbox-bodies', 3_600, async () => {
      await app.db
        .updateTable('mail_outbox')
        .set({ text_body: '', html_body: null })
        .where('status', '=', 'sent')
        .where('sent_at', '<', new Date(Date.now() - SENT_BODY_KEEP_MS))
        .where('text_body', '!=', '')
        .execute();
    });
    app.addHook('onClose', async () => transport.close());
  },
  { name: 'mailer', dependencies: ['database', 'scheduler'] },
);
