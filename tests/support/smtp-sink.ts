import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback that keeps what it receives, so tests read the e-mail the
// portal really sent (headers, body, links) instead of trusting a mock.

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The text body, with quoted-printable and soft line breaks decoded. */
  text: string;
  /** The HTML part of a multipart message, decoded. */
  html?: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first message to `to` (received now or later) that matches. */
  waitFor(to: string, options?: { timeoutMs?: number; since?: number; match?: (mail: ReceivedMail) => boolean }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i]!;
    const hex = source.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const ENCODED_WORD = /=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi;

/**
 * A header decoded per RFC 2047. A long subject is folded into several encoded words; the
 * whitespace between adjacent encoded words is not text, and a character may be split between
 * two words, so a run of adjacent words is joined as bytes before decoding.
 */
export function decodeHeader(value: string): string {
  const joined = value.replace(/(=\?[^?]+\?[BQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[BQ]\?[^?]*\?=)/gi, '$1');
  return joined.replace(/(?:=\?[^?]+\?[BQ]\?[^?]*\?=)+/gi, (run) => {
    const bytes: Buffer[] = [];
    for (const [, , encoding, data] of run.matchAll(ENCODED_WORD)) {
      if (encoding!.toUpperCase() === 'B') bytes.push(Buffer.from(data!, 'base64'));
      else
        bytes.push(
          Buffer.from(
            data!.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ),
        );
    }
    return Buffer.concat(bytes).toString('utf8');
  });
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** Subject and text part; the HTML part too when the message is multipart (text and HTML). */
export function parseMail(raw: string): { subject: string; text: string; html?: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  const body = rest.join('\n\n');
  const boundary = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(header('Content-Type'))?.[1];
  if (!boundary) return { subject: decodeHeader(header('Subject')), text: decodeBody(body, header('Content-Transfer-Encoding').toLowerCase()) };
  const typed = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .map((part) => ({ type: /^content-type:\s*([^;\r\n]+)/im.exec(part)?.[1]?.toLowerCase() ?? '', parsed: parseMail(part.replace(/^\r?\n/, '')) }));
  return {
    subject: decodeHeader(header('Subject')),
    text: typed.find((part) => part.type === 'text/plain')?.parsed.text.trimEnd() ?? '',
    html: typed.find((part) => part.type === 'text/html')?.parsed.text.trimEnd(),
  };
}

/** `port`: listen on this port (a test's "SMTP server that comes up later"); default any free one. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    port: listening,
    messages,
    waitFor(to, { timeoutMs = 10_000, since = 0, match = () => true } = {}) {
      const find = () => messages.slice(since).find((m) => m.to.includes(to) && match(m));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const wake = () => {
          const mail = find();
          if (mail) {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve(mail);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No e-mail to ${to} within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link in a text. */
export function firstLink(text: string): string {
  const match = /https?:\/\/[^\s<>"]+/.exec(text);
  if (!match) throw new Error(`No link in: ${text}`);
  return match[0];
}
