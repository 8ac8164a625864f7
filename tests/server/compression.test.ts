import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/vite-precompress';
import { chooseEncoding } from '../../src/server/plugins/compression';
import { createTestApp, ENGINES, login, type TestApp } from './helpers';

// The web app's files are precompressed at build and picked by Accept-Encoding;
// JSON answers above 1 KB are compressed per request; streamed downloads go out untouched.

/** A built web app in miniature: index.html and a hashed, compressible script, precompressed. */
function miniWebApp(): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(dir, 'assets'));
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app-Ab12Cd34.js'), script);
  const result = precompressDirectory(dir);
  expect(result.files).toBe(1);
  return { dir, script };
}

const STREAMED = 'a,b,c\n'.repeat(2000);

describe.each(ENGINES)('compression of answers and streamed downloads on %s', (engine) => {
  let t: TestApp;
  let web: { dir: string; script: string };
  beforeAll(async () => {
    web = miniWebApp();
    t = await createTestApp(
      engine,
      { webDir: web.dir },
      {
        // A download as the export routes send it: a stream, already typed as an attachment.
        extend: (app) => {
          app.get('/oga/test-stream', { config: { public: true } }, async (_request, reply) =>
            reply
              .type('text/csv')
              .header('content-disposition', 'attachment; filename="x.csv"')
              .send(Readable.from([STREAMED])),
          );
        },
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web.dir, { recursive: true, force: true });
  });

  const script = (acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url: '/assets/app-Ab12Cd34.js', headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('a hashed asset goes out as its brotli twin to a browser that accepts brotli, cached for good', async () => {
    const response = await script('gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(web.script.length / 3);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(web.script);
  });

  it('gzip to a client without brotli, the plain file to one that accepts neither', async () => {
    const gzipped = await script('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(web.script);
    const plain = await script();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.payload).toBe(web.script);
    const refused = await script('br;q=0, gzip;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.payload).toBe(web.script);
  });

  it('a JSON answer above 1 KB is compressed, one below is not', async () => {
    const token = await login(t.app, 'organiser');
    const big = await t.app.inject({ method: 'GET', url: '/oga/openapi.json', headers: { 'accept-encoding': 'br, gzip', authorization: `Bearer ${token}` } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(String(big.headers.vary)).toMatch(/accept-encoding/i);
    const document = JSON.parse(brotliDecompressSync(big.rawPayload).toString()) as { paths: object };
    expect(Object.keys(document.paths).length).toBeGreaterThan(20);
    expect(big.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(document)) / 3);

    const gz = await t.app.inject({ method: 'GET', url: '/oga/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(document);

    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'alive' });
  });

  it('a streamed download is sent as it is, never buffered to compress', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/oga/test-stream', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.payload).toBe(STREAMED);
  });
});

describe('Accept-Encoding negotiation', () => {
  it('prefers brotli, honours q-values and "*", and answers null when nothing fits', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, gzip;q=0.1')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
