import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createPglite } from '../../src/server/db/connection';
import { jpegJfif } from '../support/fixtures';
import { multipart } from '../support/multipart';
import { freePort } from '../support/ports';
import { DEMO_PASSWORD, eventually } from './helpers';

// The embedded database's data directory, with real server processes: a second
// process on the same DATA_DIR stops with a clear message; a killed server's lock is taken over;
// everything the server writes there (database, uploads, outgoing mail) is private to its user;
// `npm run backup` while the server runs, `npm run restore` into a fresh directory, and the
// restored portal logs in and serves the upload. (PGlite only: with PostgreSQL the database is
// the server's, and README "Backups" uses pg_dump.)

const ROOT = resolve(import.meta.dirname, '../..');
const DEMO_EMAIL = 'demo@borneo-botanica.example';

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function startServer(dataDir: string): Promise<Run & { url: string }> {
  const port = await freePort();
  const server = run(['src/server/main.ts'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WEB_DIR: join(dataDir, 'no-web-app'),
    LOG_LEVEL: 'info',
    HOUSEKEEPING_SECONDS: '0',
    MAIL_POLL_SECONDS: '1',
    SMTP_URL: '',
    DATABASE_URL: '',
  });
  const url = `http://127.0.0.1:${port}`;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  await eventually(
    async () => (exitCode !== undefined ? 'exited' : (await fetch(`${url}/readyz`).catch(() => null))?.status),
    (status) => status === 200 || status === 'exited',
    60_000,
  );
  if (exitCode !== undefined) throw new Error(`server exited (${exitCode}): ${server.output()}`);
  return { ...server, url };
}

async function stop(server: Run, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.child.exitCode === null) server.child.kill(signal);
  await server.exited;
}

async function loginOver(url: string, account: string): Promise<string> {
  const response = await fetch(`${url}/oga/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { data: { token: string } };
  return body.data.token;
}

/**
 * Every file and folder under dir whose mode lets anyone but the owner in. Files PGlite adds
 * while it runs get 666 whatever the umask (its file system layer sets it): inside db/, which
 * is 700, they are out of everyone else's reach, so only its folders are checked while it runs.
 */
function notPrivate(dir: string, { running = false } = {}): string[] {
  const found: string[] = [];
  const walk = (path: string, inDb: boolean) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      const open = (statSync(child).mode & 0o077) !== 0 && !entry.isSocket();
      if (open && !(running && inDb && entry.isFile())) found.push(`${child} ${(statSync(child).mode & 0o777).toString(8)}`);
      if (entry.isDirectory()) walk(child, inDb || (path === dir && entry.name === 'db'));
    }
  };
  if ((statSync(dir).mode & 0o077) !== 0) found.push(dir);
  walk(dir, false);
  return found;
}

describe('the embedded data directory: lock, private files, backup and restore', () => {
  const dirs: string[] = [];
  let dataDir: string;
  let first: Run & { url: string };
  let uploadId: string;
  const logo = jpegJfif(300);
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-datadir-'));
    dirs.push(dataDir);
    // The seeded database of the test run, unpacked the way an older version left it: world-readable.
    const seeded = createPglite({ dataDir: join(dataDir, 'db'), loadDataDir: new Blob([readFileSync(inject('pgliteDumpFile'))]) });
    await seeded.waitReady;
    await seeded.close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'db', 'PG_VERSION'), 0o666);
    first = await startServer(dataDir);
  }, 120_000);
  afterAll(async () => {
    if (first) await stop(first, 'SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a second server on the same DATA_DIR stops with a message naming the running one', async () => {
    const second = run(['src/server/main.ts'], { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' });
    expect(await second.exited).toBe(3);
    expect(second.output()).toContain(`is in use by process ${first.child.pid}`);
    expect(second.output()).toMatch(/use PostgreSQL \(DATABASE_URL\) for several instances/);
    // The first one still serves.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  });

  it('the database, uploads and outgoing mail are private to the service user (also what an older version left open)', async () => {
    const token = await loginOver(first.url, 'demo');
    const { payload, contentType } = multipart([
      { name: 'purpose', value: 'logo' },
      { name: 'file', filename: 'logo.jpg', bytes: logo },
    ]);
    const uploaded = (await (
      await fetch(`${first.url}/oga/uploads`, { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${token}` }, body: new Uint8Array(payload) })
    ).json()) as { data: { id: string } };
    uploadId = uploaded.data.id;
    expect(uploadId).toBeTruthy();
    await fetch(`${first.url}/oga/auth/password/forgot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: DEMO_EMAIL }) });
    const outbox = join(dataDir, 'outbox');
    await eventually(
      async () => (existsSync(outbox) ? readdirSync(outbox).length : 0),
      (n) => n > 0,
      20_000,
    );
    // On a local PUBLIC_URL the log carries the link as written (the .eml is quoted-printable).
    await eventually(
      async () => first.output(),
      (log) => /links: http:\/\/127\.0\.0\.1:\d+\/\S*token=/.test(log),
      10_000,
    );
    expect(existsSync(join(dataDir, 'uploads', uploadId))).toBe(true);
    expect(notPrivate(dataDir, { running: true })).toEqual([]);
    expect(statSync(join(dataDir, 'db')).mode & 0o777).toBe(0o700);
  });

  it('npm run backup while the server runs, npm run restore into a fresh directory, and the restored portal works', async () => {
    const backupDir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
    dirs.push(backupDir);
    const file = join(backupDir, 'portal.tar');
    const backup = run(['scripts/backup.ts', file], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(await backup.exited, backup.output()).toBe(0);
    expect(backup.output()).toMatch(/is running: asking it for the backup/);
    expect(statSync(file).mode & 0o077).toBe(0);

    const restored = mkdtempSync(join(tmpdir(), 'portal-restored-'));
    dirs.push(restored);
    const restore = run(['scripts/restore.ts', file], { DATA_DIR: restored, DATABASE_URL: '' });
    expect(await restore.exited, restore.output()).toBe(0);
    // A second restore into the same directory refuses to overwrite its database.
    const again = run(['scripts/restore.ts', file], { DATA_DIR: restored, DATABASE_URL: '' });
    expect(await again.exited).toBe(1);
    expect(again.output()).toMatch(/already holds a database/);

    const app = await buildApp(loadConfig({}, { dataDir: restored, webDir: join(restored, 'none'), seedDemo: false, logLevel: 'silent', housekeepingSeconds: 0 }), {
      logger: false,
      mailWorker: false,
      reminders: false,
    });
    try {
      const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'demo', password: DEMO_PASSWORD } });
      expect(login.statusCode).toBe(200);
      const token = (login.json() as { data: { token: string } }).data.token;
      const file = await app.inject({ method: 'GET', url: `/oga/uploads/${uploadId}`, headers: { authorization: `Bearer ${token}` } });
      expect(file.statusCode).toBe(200);
      expect(Buffer.from(file.rawPayload).equals(Buffer.from(logo))).toBe(true);
    } finally {
      await app.close();
    }
    expect(notPrivate(restored)).toEqual([]);
  }, 120_000);

  it("a killed server's lock is taken over by the next start; a clean stop leaves no lock", async () => {
    await stop(first, 'SIGKILL');
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(true);
    const next = await startServer(dataDir);
    try {
      expect(next.output()).toMatch(/took over the lock .* from process \d+, which no longer runs/);
      expect(await loginOver(next.url, 'organiser')).toBeTruthy();
    } finally {
      await stop(next);
    }
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(false);
  }, 120_000);
});
