import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type Nginx } from '../support/nginx';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// TRUST_PROXY behind a real nginx: the client connects from 127.0.0.5 and forges a
// different X-Forwarded-For on every attempt; nginx appends the address it saw. With one
// trusted hop the portal counts the failures against 127.0.0.5 and throttles it, whatever the
// client forged.

function loginThrough(port: number, forwardedFor: string): Promise<{ status: number; body: { error?: string } }> {
  const payload = JSON.stringify({ account: 'organiser', password: 'not-the-password' });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.5',
        method: 'POST',
        path: '/oga/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-forwarded-for': forwardedFor },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { error?: string } }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe.each(ENGINES)('TRUST_PROXY=1 behind nginx on %s', (engine) => {
  let t: TestApp;
  let nginx: Nginx;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      trustProxy: 1,
      login: { freeFailuresPerAccountAddress: 3, freeFailuresPerAddress: 100, maxFailuresPerAddress: 300, maxDelaySeconds: 900, windowSeconds: 3600 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    nginx = await startNginx((t.app.server.address() as { port: number }).port);
  });
  afterAll(async () => {
    await nginx?.close();
    await t?.close();
  });

  it('rotating a forged X-Forwarded-For through the proxy does not escape the login throttle', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 6; i += 1) answers.push((await loginThrough(nginx.port, `203.0.113.${i}`)).body.error ?? 'ok');
    expect(answers).toEqual(['badCredentials', 'badCredentials', 'badCredentials', 'tooManyAttempts', 'tooManyAttempts', 'tooManyAttempts']);
    const recorded = await t.app.db.selectFrom('login_failures').select('ip').distinct().where('login_key', '=', 'organiser').execute();
    expect(recorded.map((row) => row.ip)).toEqual(['127.0.0.5']);
  });
});
