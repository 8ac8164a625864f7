import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { text } from './support/locales';
import { apiLogin, DEMO_PASSWORD, REPO_ROOT, WEB_DIR } from './support/portal';
import { freePort } from '../support/ports';

// Production runs the bundled server (`npm start` → node dist/server/main.js), not the
// TypeScript sources the other browser tests load in-process: start it as its own process and
// use it as a user and as the scanning app would.

const SERVER = join(REPO_ROOT, 'dist/server/main.js');
const session = useBrowser();
const STARTUP_LIMIT_MS = 150_000;
const en = (key: string) => text('en', key);

let child: ChildProcess;
let url: string;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(SERVER)) throw new Error('Run `npm run build` first (it bundles the server into dist/server)');
  dataDir = mkdtempSync(join(tmpdir(), 'portal-bundle-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIR, LOG_LEVEL: 'warn', PUBLIC_URL: url, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A first start creates, migrates and seeds its database: on a loaded CI machine that can take a
  // minute, so the wait is for the server to answer (or exit), bounded only against a hang.
  const giveUpAt = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the bundled server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/oga/openapi.json`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    if (Date.now() > giveUpAt) throw new Error(`the bundled server did not answer within ${STARTUP_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, STARTUP_LIMIT_MS + 10_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the bundled server (dist/server/main.js)', () => {
  test('validates a form with the precompiled validators and takes a scan, then a user signs in and sees the lead', async () => {
    const token = await apiLogin(url, 'demo');
    const send = (path: string, body: unknown) =>
      fetch(`${url}/oga${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ code: number; data: { errors?: Array<{ key: string }>; results?: Array<{ status: string; visitorName: string }> } }>,
      );
    const refused = await send('/forms/s04/submit', { version: 0, data: { badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'ａ@borneo.example' }] } });
    expect(refused.code).toBe(601);
    expect(refused.data.errors?.map((e) => e.key)).toContain('validation.noFullWidth');
    const scanned = await send('/leads/scans', { scans: [{ clientScanId: `bundle-${Date.now()}`, badgeCode: 'AFHE2027-V0000077', scannedAt: new Date().toISOString() }] });
    expect(scanned.data.results?.[0]?.status).toBe('created');
    const name = scanned.data.results![0]!.visitorName;

    const { page } = session;
    await loginAndLand(page, url, 'demo', DEMO_PASSWORD);
    await page.goto(`${url}/digital-tools/leads`);
    await page.getByRole('textbox', { name: en('leads.filter.keyword') }).fill('AFHE2027-V0000077');
    await page.getByRole('button', { name: en('leads.filter.search') }).click();
    await expectVisible(page.getByRole('row').filter({ hasText: name }), `the scanned visitor "${name}" in the lead list`);
  });
});
