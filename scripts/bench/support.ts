import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { ROOT } from '../catalogue-source';

// What the benchmark sections share: the built web app, a real portal on a fresh embedded
// database (demo data seeded), the demo account's token, Debian's Chromium.

export const DEMO_ACCOUNT = { account: 'demo', password: 'Demo-pass-2026' };

export function ensureBuilt() {
  if (existsSync(join(ROOT, 'dist/web/index.html'))) return;
  console.log('building the web app…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/**
 * A portal on a fresh database; `webDir` is the built web app it serves (another build can be
 * compared). `requestLog` logs as production does (level info: two lines per request), to /dev/null;
 * `formsDir` serves another copy of the forms (live-forms bench).
 */
export async function startPortal(databaseUrl?: string, webDir = join(ROOT, 'dist/web'), options: { requestLog?: boolean; formsDir?: string } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const config = loadConfig(
    {},
    { port: 0, host: '127.0.0.1', dataDir, databaseUrl, webDir, logLevel: options.requestLog ? 'info' : 'silent', ...(options.formsDir ? { formsDir: options.formsDir } : {}) },
  );
  const app = await buildApp(config, options.requestLog ? { logger: true, logStream: createWriteStream('/dev/null') } : { logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function loginToken(url: string): Promise<string> {
  const response = await fetch(`${url}/oga/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ACCOUNT),
  });
  const body = (await response.json()) as { data: { token: string } };
  return body.data.token;
}

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}
