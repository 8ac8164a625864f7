import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// LD1: the installable scanner. The service worker and the manifest are served with
// their types and are asked again on every start (so a new version is found); the reader's
// WebAssembly is served as such; the content policy lets the portal compile its own WebAssembly
// and run its own worker, and the camera is allowed on the portal's pages (nowhere else).

describe.each(ENGINES)('installable scanner files (manifest, service worker) on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    const worker = `self.addEventListener('fetch', () => {});${' '.repeat(2000)}`;
    writeFileSync(join(dir, 'sw.js'), worker);
    writeFileSync(join(dir, 'sw.js.gz'), gzipSync(worker));
    writeFileSync(join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'LeadGrab', start_url: '/digital-tools/scanner' }));
    writeFileSync(join(dir, 'assets', 'zxing_reader-Ab12.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    t = await createTestApp(engine, { webDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the service worker as JavaScript, compressed or not, never cached for long', async () => {
    for (const headers of [{}, { 'accept-encoding': 'gzip' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/sw.js', headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves the manifest as a web app manifest, asked again on every start', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves the reader as WebAssembly (streaming compilation needs the type), cached as an asset', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/zxing_reader-Ab12.wasm' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('lets pages compile WebAssembly and run the portal’s worker, but no script eval and no other origin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/digital-tools/scanner' });
    const policy = String(page.headers['content-security-policy']);
    const directive = (name: string) =>
      policy
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${name} `));
    expect(directive('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive('worker-src')).toBe("worker-src 'self'");
    expect(directive('manifest-src')).toBe("manifest-src 'self'");
    expect(policy).not.toContain("'unsafe-eval'");
    expect(page.headers['permissions-policy']).toContain('camera=(self)');
    expect(page.headers['permissions-policy']).toContain('microphone=()');
  });
});
