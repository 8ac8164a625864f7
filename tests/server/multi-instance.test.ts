import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { jpegJfif } from '../support/fixtures';
import { multipart } from '../support/multipart';
import { startNginx, type Nginx } from '../support/nginx';
import { freePort } from '../support/ports';
import { setParticipationDeadline } from '../support/settings';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { DEMO_PASSWORD, eventually, HOUR } from './helpers';

// Several instances (README "Operating it"): two real server processes on one
// PostgreSQL with FILE_STORE=database, behind a real nginx balancing them round-robin. What one
// instance made (a session, an upload, a lead export) is used through the other, and the
// reminders' due check, which runs as the instances start (claimed by one of them), sends each
// e-mail once.
// nginx names the instance that answered in X-Upstream, so every "through the other" is checked,
// not assumed from the balancing.

const ROOT = resolve(import.meta.dirname, '../..');
const KOPI_EMAIL = 'limited@kopi-nusantara.example';
const DATABASE = 'portal_multi_instance';

interface Instance {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startInstance(env: Record<string, string>, dataDir: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIR: join(dataDir, 'no-web-app'),
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      HOUSEKEEPING_SECONDS: '0',
      MAIL_POLL_SECONDS: '1',
      MAIL_RETRY_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, port, output: () => output, exited };
}

async function ready(instance: Instance): Promise<void> {
  let exitCode: number | null | undefined;
  void instance.exited.then((code) => (exitCode = code));
  await eventually(
    async () => (exitCode !== undefined ? 'exited' : (await fetch(`http://127.0.0.1:${instance.port}/readyz`).catch(() => null))?.status),
    (status) => status === 200 || status === 'exited',
    90_000,
  );
  if (exitCode !== undefined) throw new Error(`instance exited (${exitCode}): ${instance.output()}`);
}

/** Lines of an instance's JSON log that say a reminders run ended. */
const reminderRuns = (instance: Instance) =>
  instance
    .output()
    .split('\n')
    .filter((line) => line.includes('"job":"reminders"') && line.includes('scheduled job done'));

describe('several instances: two servers on one PostgreSQL behind nginx', () => {
  let sink: SmtpSink;
  let nginx: Nginx;
  let databaseUrl: string;
  const instances: Instance[] = [];
  const dirs: string[] = [];
  let proxy: string;

  /** A request through nginx; answers the body and which instance (its port) served it. */
  async function through(path: string, init: RequestInit = {}, token?: string) {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    const response = await fetch(`${proxy}${path}`, { ...init, headers });
    const upstream = response.headers.get('x-upstream') ?? '';
    const port = Number(upstream.split(':').pop());
    expect(
      instances.map((i) => i.port),
      `X-Upstream "${upstream}"`,
    ).toContain(port);
    return { response, port };
  }

  /** Sends requests through nginx until one is served by an instance other than `not`. */
  async function throughOther(not: number, path: string, init: RequestInit = {}, token?: string) {
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await through(path, init, token);
      if (answer.port !== not) return answer;
      await answer.response.arrayBuffer();
    }
    throw new Error(`nginx never sent ${path} to the other instance`);
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE} TEMPLATE ${inject('postgresTemplate')}`);
    await admin.end();
    const url = new URL(inject('postgresAdminUrl'));
    url.pathname = `/${DATABASE}`;
    databaseUrl = url.toString();

    // Reminders come due before the instances start: each runs the due check as it starts.
    const opened = await openDatabase({ databaseUrl });
    try {
      const kopi = await opened.db.selectFrom('users').select(['participation_id', 'event_id']).where('login_key', '=', 'limited').executeTakeFirstOrThrow();
      await opened.db
        .updateTable('events')
        .set({ reminder_days: JSON.stringify([1, 7]) })
        .where('id', '=', kopi.event_id!)
        .execute();
      await setParticipationDeadline(opened.db, kopi.participation_id!, 'badges', new Date(Date.now() + 12 * HOUR));
      await setParticipationDeadline(opened.db, kopi.participation_id!, 'booth', new Date(Date.now() + 72 * HOUR));
    } finally {
      await opened.close();
    }

    const env = { DATABASE_URL: databaseUrl, FILE_STORE: 'database', SMTP_URL: sink.url, PUBLIC_URL: 'http://portal.test' };
    for (let n = 0; n < 2; n += 1) {
      // Each its own DATA_DIR: nothing may depend on a shared disk.
      const dataDir = mkdtempSync(join(tmpdir(), `portal-instance-${n}-`));
      dirs.push(dataDir);
      instances.push(await startInstance(env, dataDir));
    }
    await Promise.all(instances.map(ready));
    nginx = await startNginx(instances.map((i) => i.port));
    proxy = `http://127.0.0.1:${nginx.port}`;
  }, 180_000);

  afterAll(async () => {
    await nginx?.close();
    for (const instance of instances) {
      if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
      await instance.exited;
    }
    await sink?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it('a session made through one instance is used through the other; a sign-out through one ends it on both', async () => {
    const made = await through('/oga/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: DEMO_PASSWORD }),
    });
    const { data } = (await made.response.json()) as { data: { token: string } };
    expect(data.token).toBeTruthy();
    const used = await throughOther(made.port, '/oga/user/info', {}, data.token);
    const info = (await used.response.json()) as { code: number; data: { account: string } };
    expect(info.code).toBe(200);
    expect(info.data.account).toBe('demo');

    const out = await throughOther(used.port, '/oga/auth/logout', { method: 'POST' }, data.token);
    expect(out.response.status).toBe(200);
    // The instance that served the sign-out forgets the session at once; the other within its
    // session cache's second (ARCHITECTURE "How a request flows"), never later.
    const codeOn = async (instance: Instance) =>
      ((await (await fetch(`http://127.0.0.1:${instance.port}/oga/user/info`, { headers: { authorization: `Bearer ${data.token}` } })).json()) as { code: number }).code;
    expect(await codeOn(instances.find((i) => i.port === out.port)!)).toBe(401);
    expect(
      await eventually(
        () => Promise.all(instances.map(codeOn)),
        (codes) => codes.every((c) => c === 401),
        10_000,
      ),
    ).toEqual([401, 401]);
  });

  it('an upload made through one instance is downloaded through the other, byte for byte', async () => {
    const login = await through('/oga/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: DEMO_PASSWORD }),
    });
    const { token } = ((await login.response.json()) as { data: { token: string } }).data;
    const logo = jpegJfif(300);
    const { payload, contentType } = multipart([
      { name: 'purpose', value: 'logo' },
      { name: 'file', filename: 'logo.jpg', bytes: logo },
    ]);
    const uploaded = await through('/oga/uploads', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(payload) }, token);
    const { code, data } = (await uploaded.response.json()) as { code: number; data: { id: string } };
    expect(code).toBe(200);
    const downloaded = await throughOther(uploaded.port, `/oga/uploads/${data.id}`, {}, token);
    expect(downloaded.response.status).toBe(200);
    expect(Buffer.from(await downloaded.response.arrayBuffer()).equals(Buffer.from(logo))).toBe(true);
  });

  it('a lead export made through one instance is downloaded through the other', async () => {
    const login = await through('/oga/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: DEMO_PASSWORD }),
    });
    const { token } = ((await login.response.json()) as { data: { token: string } }).data;
    const made = await through('/oga/leads/exports', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ format: 'csv' }) }, token);
    const { code, data } = (await made.response.json()) as { code: number; data: { id: number; rows: number; size: number } };
    expect(code).toBe(200);
    expect(data.rows).toBeGreaterThan(0);
    const file = await throughOther(made.port, `/oga/leads/exports/${data.id}/file`, {}, token);
    expect(file.response.status).toBe(200);
    const text = Buffer.from(await file.response.arrayBuffer());
    expect(text.byteLength).toBe(data.size);
    // A header line and one line per lead (the demo's leads have no line breaks in their cells).
    expect(text.toString('utf8').trimEnd().split('\r\n')).toHaveLength(data.rows + 1);
  });

  it('the reminders run once across both instances as they start: each e-mail reaches the SMTP server once', async () => {
    // The instance that claimed the start-up run has finished it (it logs its end), and the queue has sent it all.
    const runsAcross = () => instances.reduce((sum, i) => sum + reminderRuns(i).length, 0);
    await eventually(
      async () => runsAcross(),
      (runs) => runs >= 1,
      60_000,
    );
    const opened = await openDatabase({ databaseUrl });
    try {
      const queued = await eventually(
        () => opened.db.selectFrom('mail_outbox').select(['status', 'to_address']).where('kind', '=', 'reminder').execute(),
        (rows) => rows.length > 0 && rows.every((r) => r.status === 'sent'),
        30_000,
      );
      // Kopi's badges deadline (the 1-day reminder) and booth deadline (the 7-day one).
      expect(queued.map((r) => r.to_address)).toEqual([KOPI_EMAIL, KOPI_EMAIL]);
      const audited = await opened.db.selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).where('action', '=', 'reminder.sent').executeTakeFirstOrThrow();
      expect(audited.n).toBe(2);
    } finally {
      await opened.close();
    }
    const received = sink.messages.filter((m) => m.to.includes(KOPI_EMAIL));
    expect(received).toHaveLength(2);
    // One run across the two: the scheduler's claim let one instance run the due check.
    expect(runsAcross()).toBe(1);
  });

  it('saves, submits and scans of one exhibitor at once through both instances: each stored once, a save based on an older version refused with the conflict message', async () => {
    const login = await through('/oga/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'demo', password: DEMO_PASSWORD }),
    });
    const { token } = ((await login.response.json()) as { data: { token: string } }).data;
    const opened = await openDatabase({ databaseUrl });
    try {
      const demo = await opened.db
        .selectFrom('users')
        .innerJoin('events', 'events.id', 'users.event_id')
        .select(['users.participation_id', 'events.code'])
        .where('users.login_key', '=', 'demo')
        .executeTakeFirstOrThrow();
      const participationId = demo.participation_id!;
      const stored = () =>
        opened.db
          .selectFrom('form_entries')
          .select(['version', 'data', 'status', 'submitted_data'])
          .where('participation_id', '=', participationId)
          .where('form_id', '=', 's04')
          .executeTakeFirst();
      const badges = (...names: string[]) => ({
        badges: names.map((name) => ({ firstName: name, lastName: 'Rahman', email: `${name.toLowerCase()}@borneo.example`, extra: false })),
      });
      type Saved = { code: number; error?: string; msg: string; data: { version: number } | null };
      const save = async (kind: 'draft' | 'submit', data: object, version: number) => {
        const { response, port } = await through(
          `/oga/forms/s04/${kind}`,
          { method: kind === 'draft' ? 'PUT' : 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data, version }) },
          token,
        );
        return { port, body: (await response.json()) as Saved };
      };
      const STALE = { code: 601, error: 'staleVersion', msg: 'Someone else saved this form after you opened it. Reload to see their changes, then make yours again.', data: null };

      // Eight saves at once, all based on the version both instances read: one is stored, seven are told so.
      const base = (await stored())?.version ?? 0;
      const names = ['Aisyah', 'Hafiz', 'Nurul', 'Farid', 'Siti', 'Imran', 'Zara', 'Amir'];
      const drafts = await Promise.all(names.map((name) => save('draft', badges(name), base)));
      expect(new Set(drafts.map((d) => d.port)).size).toBe(2);
      const stored1 = drafts.filter((d) => d.body.code === 200);
      expect(stored1).toHaveLength(1);
      expect(stored1[0]!.body.data!.version).toBe(base + 1);
      for (const refused of drafts.filter((d) => d.body.code !== 200)) expect(refused.body).toEqual(STALE);
      const winner = names[drafts.findIndex((d) => d.body.code === 200)]!;
      expect(await stored()).toMatchObject({ version: base + 1, data: badges(winner) });

      // Two people saving in turn through different instances, each reloading when told: every
      // acknowledged save has its own version, and the last one is what is stored.
      const acknowledged: Array<{ version: number; data: object }> = [];
      const person = async (name: string) => {
        for (let round = 0; round < 4; round++) {
          const data = badges(name, ['Lim', 'Tan', 'Ong', 'Goh'][round]!);
          for (;;) {
            const { body } = await save('draft', data, (await stored())!.version);
            if (body.code === 200) {
              acknowledged.push({ version: body.data!.version, data });
              break;
            }
            expect(body).toEqual(STALE);
          }
        }
      };
      await Promise.all([person('Mei'), person('Rina')]);
      const versions = acknowledged.map((a) => a.version).sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: 8 }, (_, n) => base + 2 + n));
      const last = acknowledged.find((a) => a.version === versions.at(-1))!;
      expect(await stored()).toMatchObject({ version: last.version, data: last.data });

      // Six submits at once on the same version: one submission, one audit row.
      const submitsBefore = async () =>
        (
          await opened.db
            .selectFrom('audit_log')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('action', '=', 'form.submit')
            .where('participation_id', '=', participationId)
            .executeTakeFirstOrThrow()
        ).n;
      const audited = await submitsBefore();
      const submitted = await Promise.all(names.slice(0, 6).map((name) => save('submit', badges(name), last.version)));
      expect(new Set(submitted.map((s) => s.port)).size).toBe(2);
      const accepted = submitted.filter((s) => s.body.code === 200);
      expect(accepted).toHaveLength(1);
      for (const refused of submitted.filter((s) => s.body.code !== 200)) expect(refused.body).toEqual(STALE);
      const submitter = names[submitted.findIndex((s) => s.body.code === 200)]!;
      expect(await stored()).toMatchObject({ version: last.version + 1, status: 'submitted', submitted_data: badges(submitter) });
      expect(await submitsBefore()).toBe(audited + 1);

      // Scans: one batch sent four times at once (a device resending), and two other devices
      // scanning the same badges with their own scan ids, all at once through both instances.
      const scannedAt = new Date().toISOString();
      const codes = Array.from({ length: 10 }, (_, n) => `${demo.code}-MULTI-${n}`);
      const batch = (device: string) => JSON.stringify({ scans: codes.map((badgeCode, n) => ({ clientScanId: `multi-${device}-${n}`, badgeCode, scannedAt })) });
      type ScanAnswer = { code: number; data: { results: Array<{ clientScanId: string; status: string; leadId: number | null }> } };
      const scans = await Promise.all(
        ['a', 'a', 'a', 'a', 'b', 'c'].map(async (device) => {
          const { response, port } = await through('/oga/leads/scans', { method: 'POST', headers: { 'content-type': 'application/json' }, body: batch(device) }, token);
          return { port, body: (await response.json()) as ScanAnswer };
        }),
      );
      expect(new Set(scans.map((s) => s.port)).size).toBe(2);
      for (const { body } of scans) expect(body.code).toBe(200);
      const leads = await opened.db
        .selectFrom('leads')
        .select(['id', 'badge_code', 'scan_count'])
        .where('participation_id', '=', participationId)
        .where('badge_code', 'in', codes)
        .execute();
      // Each badge one lead, scanned by three devices (the resends are no new scans), and every answer names that lead.
      expect(leads.map((l) => l.badge_code).sort()).toEqual([...codes].sort());
      for (const lead of leads) expect(lead.scan_count).toBe(3);
      const answers = scans.flatMap((s) => s.body.data.results);
      for (const [n, code] of codes.entries()) {
        const lead = leads.find((l) => l.badge_code === code)!;
        const ofBadge = answers.filter((a) => a.clientScanId.endsWith(`-${n}`));
        expect(ofBadge.map((a) => a.leadId)).toEqual(ofBadge.map(() => lead.id));
        expect(ofBadge.filter((a) => a.status === 'created')).toHaveLength(1);
        expect(ofBadge.filter((a) => a.status !== 'created').every((a) => a.status === 'duplicate')).toBe(true);
      }
      // The dashboard's rollup, kept by a trigger as batches of both instances commit, counts every lead once in every dimension.
      const { rows: rollupDrift } = await sql<{ dimension: string; key: string; event_hour: number; rollup: number; counted: number }>`
        with counted as (
          select l.event_hour, d.dimension, d.key, count(*)::int as n from leads l
          cross join lateral (values ('all', ''), ('country', l.country), ('user', l.scanned_by::text), ('type', coalesce(l.lead_type, '')),
            ('temperature', coalesce(l.temperature, '')), ('follow_up', coalesce(l.follow_up, '')), ('known', l.badge_known::text)) as d(dimension, key)
          where l.participation_id = ${participationId}
          group by 1, 2, 3
        ), rolled as (select event_hour, dimension, key, leads from lead_rollup where participation_id = ${participationId} and leads <> 0)
        select coalesce(c.dimension, r.dimension) as dimension, coalesce(c.key, r.key) as key, coalesce(c.event_hour, r.event_hour) as event_hour,
          coalesce(r.leads, 0) as rollup, coalesce(c.n, 0) as counted
        from counted c full join rolled r on r.event_hour = c.event_hour and r.dimension = c.dimension and r.key = c.key
        where coalesce(r.leads, 0) <> coalesce(c.n, 0)`.execute(opened.db);
      expect(rollupDrift).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
