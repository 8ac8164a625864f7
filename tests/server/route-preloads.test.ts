import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_PRELOADS_FILE } from '../../src/engine/route-preloads';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// A fast first screen (Lighthouse): the index.html answered for a screen's path names the modules the build
// listed for that screen (scripts/vite-route-preloads.ts), so the browser loads them beside the
// entry; other paths get the plain page, and the list itself is not served.

const INDEX = '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-Ab12.js"></script></head><body><div id="root"></div></body></html>';

describe.each(ENGINES)('route preloads in the served page on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'HomePage-Cd34.js'), 'export default 1;\n');
    writeFileSync(
      join(dir, ROUTE_PRELOADS_FILE),
      JSON.stringify({ '/home': ['/assets/SignedInFrame-Ef56.js', '/assets/HomePage-Cd34.js'], '/login': ['/assets/LoginPage-Gh78.js'] }),
    );
    t = await createTestApp(engine, { webDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    return response.body;
  };
  const preloaded = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it("a screen's page names its modules, with or without a query; / is Home's", async () => {
    for (const url of ['/home', '/home?lang=ja', '/home/', '/']) expect(preloaded(await page(url)), url).toEqual(['/assets/SignedInFrame-Ef56.js', '/assets/HomePage-Cd34.js']);
    expect(preloaded(await page('/login?exhibitCode=AFHE2027'))).toEqual(['/assets/LoginPage-Gh78.js']);
  });

  it('any other path gets the plain page; the list is not served', async () => {
    expect(await page('/no-such-screen')).toBe(INDEX);
    expect((await t.app.inject({ method: 'GET', url: `/${ROUTE_PRELOADS_FILE}` })).statusCode).toBe(404);
  });
});
