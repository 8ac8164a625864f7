import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectVisible, field, useBrowser } from './support/browser';
import { REPO_ROOT, usePortal, WEB_DIR } from './support/portal';

// F11: `npm run build` next to a running server never breaks its pages. The server
// serves a copy of the built app; a real vite build (the project's config) then writes a new
// build into that same folder while the server runs, as `npm run build` does into dist/web.

const webDir = mkdtempSync(join(tmpdir(), 'portal-e2e-web-'));
cpSync(WEB_DIR, webDir, { recursive: true });
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const portal = usePortal({ webDir });
const session = useBrowser();

/** The asset files an index.html names. */
const assetsOf = (html: string) => [...html.matchAll(/\/assets\/[\w.-]+/g)].map((match) => match[0]).sort();

/** Opens /login and answers the requests for the app's own files that failed. */
async function openLogin(page: Page): Promise<string[]> {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(portal.url) && !response.url().includes('/oga/') && response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
  await page.goto(`${portal.url}/login`);
  await expectVisible(field(page, 'Account ID'), 'the login form');
  return failed;
}

describe('build beside a running server', () => {
  test("a new build written into the served folder leaves the running server's pages whole", async () => {
    const { page } = session;
    expect(await openLogin(page)).toEqual([]);
    const served = assetsOf(readFileSync(join(webDir, 'index.html'), 'utf8'));
    expect(served.length).toBeGreaterThan(0);
    // An asset no build has written for two days goes; this build's and the running one's stay.
    const forgotten = join(webDir, 'assets', 'forgotten-0000.js');
    writeFileSync(forgotten, 'export {};\n');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(forgotten, twoDaysAgo, twoDaysAgo);

    // The same sources built again, with different chunk hashes (as after any source change).
    const script = `import { build } from 'vite';
await build({ logLevel: 'warn', build: { outDir: ${JSON.stringify(webDir)} }, plugins: [{ name: 'another-build', augmentChunkHash: () => 'another-build' }] });`;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, timeout: 180_000 });

    const rebuilt = assetsOf(readFileSync(join(webDir, 'index.html'), 'utf8'));
    expect(rebuilt, 'the new build names other assets').not.toEqual(served);
    for (const asset of served) expect(existsSync(join(webDir, asset)), `${asset} of the running build is still there`).toBe(true);
    expect(existsSync(forgotten), 'the asset of a build two days old is removed').toBe(false);
    expect(statSync(join(webDir, 'index.html')).isFile()).toBe(true);

    // The running server's pages still load every file they name, in a fresh browser.
    const fresh = await (await session.newContext()).newPage();
    expect(await openLogin(fresh)).toEqual([]);
    // A whole vite build runs inside the test: on a busy machine it takes minutes, not seconds.
  }, 240_000);
});
