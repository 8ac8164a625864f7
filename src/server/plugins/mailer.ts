import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Replies go here instead of the portal's no-reply sender (an exhibitor's invitation, LA5). */
  replyTo?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
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
}

/**
 * Real e-mail through nodemailer. With SMTP_URL it goes to that server; without, each message
 * is written as an .eml file to DATA_DIR/outbox and its path logged, so a newcomer can open it.
 */
export default fp<MailerOptions>(
  async (app, options) => {
    const transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    let sequence = 0;
    const mailer: Mailer = {
      async send(mail) {
        const info = await transport.sendMail({ from: options.from, ...mail });
        if (options.smtpUrl) {
          app.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
          return;
        }
        mkdirSync(options.outboxDir, { recursive: true });
        sequence += 1;
        const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${sequence}.eml`);
        writeFileSync(file, (info as unknown as { message: Buffer }).message);
        app.log.info({ to: mail.to, subject: mail.subject, file }, `mail written to ${file}`);
      },
    };
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => transport.close());
  },
  { name: 'mailer' },
);
