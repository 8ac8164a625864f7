import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createOrganiser } from '../../src/server/admin/create-organiser';
import { loadConfig, type Config } from '../../src/server/config';
import { demoExposureWarning } from '../../src/server/lib/demo-exposure';
import { attemptLogin, bodyOf, createTestApp, ENGINES, get, post, type TestApp } from './helpers';

// `npm run admin -- create-organiser` on an EMPTY embedded and PostgreSQL
// database (the real command, in its own process): it migrates, creates nothing of the demo,
// prints a single-use set-password link and e-mails it through the queue; the organiser then
// sets its password from that link and logs in.

const run = promisify(execFile);
const PUBLIC_URL = 'http://portal.test';
const NEW_PASSWORD = 'First-organiser-2027';

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function adminCommand(args: string[], env: Record<string, string>) {
  return run(join(process.cwd(), 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 120_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

describe.each(ENGINES)('admin create-organiser on an empty %s database', (engine) => {
  let dataDir: string;
  let database: string | undefined;
  let env: Record<string, string>;
  let config: Config;
  let app: FastifyInstance | undefined;
  let created: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `portal-admin-${engine}-`));
    env = { DATA_DIR: dataDir, PUBLIC_URL };
    if (engine === 'postgres') {
      database = `portal_admin_${process.pid}_${randomBytes(4).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${database}`);
      const url = new URL(inject('postgresAdminUrl'));
      url.pathname = `/${database}`;
      env.DATABASE_URL = url.toString();
    }
    created = await adminCommand(['create-organiser', '--email', 'anna.lim@expo-asia.example', '--name', 'Anna Lim', '--organisation', 'Expo Asia'], env);
    // The server as an operator of a real show starts it: SEED_DEMO=false.
    config = loadConfig({ ...env, SEED_DEMO: 'false' }, { logLevel: 'silent', webDir: join(dataDir, 'no-web-app') });
    app = await buildApp(config, { logger: false, mailWorker: false });
    await app.ready();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates the empty database, creates the organiser and its organisation and nothing of the demo', async () => {
    expect(created.stderr).not.toMatch(/error/i);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('account ID anna.lim@expo-asia.example');
    const users = await app!.db.selectFrom('users').select(['login', 'role', 'display_name', 'event_id', 'organisation_id']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ login: 'anna.lim@expo-asia.example', role: 'organiser', display_name: 'Anna Lim', event_id: null });
    const organisations = await app!.db.selectFrom('organisations').select(['id', 'name']).execute();
    expect(organisations).toEqual([{ id: users[0]!.organisation_id, name: 'Expo Asia' }]);
    expect(await app!.db.selectFrom('events').select('id').execute()).toEqual([]);
    expect(await app!.db.selectFrom('exhibitors').select('id').execute()).toEqual([]);
    expect(await demoExposureWarning(app!.db, 'https://expo-asia.example')).toBeNull();
    const audit = await app!.db.selectFrom('audit_log').select(['action', 'organisation_id']).execute();
    expect(audit).toEqual([{ action: 'organiser.create', organisation_id: organisations[0]!.id }]);
  });

  it('prints the set-password link and e-mails the same link (delivered before the command ends)', async () => {
    const printed = created.stdout.match(/http:\/\/portal\.test\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
    expect(printed).toBeDefined();
    const outbox = await app!.db.selectFrom('mail_outbox').select(['to_address', 'status']).execute();
    expect(outbox).toEqual([{ to_address: 'anna.lim@expo-asia.example', status: 'sent' }]);
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(dataDir, 'outbox', files[0]!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(eml).toContain(printed!);
    expect(eml).toContain('Expo Asia');
  });

  it('the link sets the password once; the organiser then logs in', async () => {
    const link = created.stdout.match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1]!;
    expect(bodyOf(await get(app!, `/oga/auth/password/reset?token=${link}`)).data).toEqual({ account: 'anna.lim@expo-asia.example' });
    // Before the link is used nobody can log in (the stored password is an unknown secret).
    expect((await attemptLogin(app!, 'anna.lim@expo-asia.example', NEW_PASSWORD)).error).toBe('badCredentials');
    expect((await post(app!, '/oga/auth/password/reset', { token: link, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).code).toBe(200);
    const session = await attemptLogin(app!, 'Anna.Lim@expo-asia.example', NEW_PASSWORD);
    expect(session.code).toBe(200);
    const info = await get(app!, '/oga/user/info', session.data!.token);
    expect(info.code).toBe(200);
    expect((await post(app!, '/oga/auth/password/reset', { token: link, password: 'Another-pass-2028', confirmPassword: 'Another-pass-2028' })).error).toBe('resetLinkInvalid');
  });

  it('refuses a taken account ID and bad arguments with a message and exit code 2, storing nothing', async () => {
    // The embedded database is one process's: the command runs with the server stopped.
    await app!.close();
    const again = await adminCommand(['create-organiser', '--email', 'ANNA.LIM@expo-asia.example', '--name', 'Anna again'], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is taken');
    const badMail = await adminCommand(['create-organiser', '--email', 'not-an-address', '--name', 'X'], env);
    expect(badMail.code).toBe(2);
    expect(badMail.stderr).toContain('not a valid e-mail address');
    const missing = await adminCommand(['create-organiser', '--email', 'b@expo-asia.example'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name');
    app = await buildApp(config, { logger: false, mailWorker: false });
    await app.ready();
    expect(await app!.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  }, 120_000);

  it('a second organiser of the same organisation joins it', async () => {
    const second = await createOrganiser(app!, config, { email: 'ben@expo-asia.example', name: 'Ben Tan', organisation: 'expo asia', login: 'ben.tan' });
    expect(second.organisationCreated).toBe(false);
    const users = await app!.db.selectFrom('users').select(['login', 'organisation_id']).orderBy('id').execute();
    expect(users.map((u) => u.login)).toEqual(['anna.lim@expo-asia.example', 'ben.tan']);
    expect(users[1]!.organisation_id).toBe(users[0]!.organisation_id);
  });
});

describe('the demo warning', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('warns when the demo accounts exist and PUBLIC_URL is not local, and not on a local address', async () => {
    expect(await demoExposureWarning(t.app.db, 'https://expo.example.com')).toContain('SEED_DEMO=false');
    expect(await demoExposureWarning(t.app.db, 'http://localhost:8080')).toBeNull();
    expect(await demoExposureWarning(t.app.db, 'http://127.0.0.1:9000')).toBeNull();
  });
});
