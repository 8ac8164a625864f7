import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real webhook receiver for tests: a plain node http server on 127.0.0.1 that records every
// request (headers and raw body) and answers what the test tells it to (200 by default). It
// can be stopped and started again on the same port (a receiver that is down, then back).

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  url: string;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** What the next requests are answered: a status, or a status with headers (a redirect); `hang`: never answered. */
  answer: { status: number; headers?: Record<string, string>; hang?: boolean };
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  let server: Server | null = null;
  const receiver: WebhookReceiver = {
    url: '',
    port,
    received: [],
    answer: { status: 200 },
    async start() {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), url: request.url ?? '' });
          if (receiver.answer.hang) return;
          response.writeHead(receiver.answer.status, receiver.answer.headers ?? {});
          response.end('ok');
        });
      });
      await new Promise<void>((resolve) => server!.listen(receiver.port, '127.0.0.1', resolve));
      receiver.port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
    },
    async stop() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  await receiver.start();
  return receiver;
}
