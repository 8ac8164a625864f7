import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { loadFormRegistry } from '../../src/server/plugins/forms/form-set';
import { sendDueReminders } from '../../src/server/modules/organiser-reminders/due';
import { freePort } from '../support/ports';
import { setParticipationDeadline } from '../support/settings';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { addRivalOrganiser, createTestApp, ENGINES, eventually, get, HOUR, login, post, put, type TestApp } from './helpers';

// Reminders and the mail queue: reminders N days before each deadline to exhibitors with
// mandatory forms missing, never twice for one deadline and day, even from two instances on one
// PostgreSQL; "send now" to a selection; the queue retries a dead SMTP server and sends once.

const definitions = loadFormRegistry().definitions;
const KOPI_EMAIL = 'limited@kopi-nusantara.example';

async function addRival(t: TestApp): Promise<void> {
  await addRivalOrganiser(t.app);
}

const participationOf = async (t: TestApp, account: string) =>
  (await t.app.db.selectFrom('users').select('participation_id').where('login_key', '=', account).executeTakeFirstOrThrow()).participation_id!;

/** Kopi's badges deadline in 12 hours (the 1-day reminder is due), its booth deadline in 3 days (the 7-day one). */
async function deadlinesClose(t: TestApp, kopi: number) {
  await setParticipationDeadline(t.app.db, kopi, 'badges', new Date(Date.now() + 12 * HOUR));
  await setParticipationDeadline(t.app.db, kopi, 'booth', new Date(Date.now() + 72 * HOUR));
}

describe.each(ENGINES)('reminders on %s', (engine) => {
  let t: TestApp;
  let organiser: string;
  let rival: string;
  let limited: string;
  let kopi: number;
  let borneo: number;
  const context = () => ({ definitions, publicUrl: t.config.publicUrl });

  beforeAll(async () => {
    t = await createTestApp(engine, {}, {});
    await addRival(t);
    [organiser, rival, limited] = await Promise.all([login(t.app, 'organiser'), login(t.app, 'rival'), login(t.app, 'limited')]);
    [kopi, borneo] = await Promise.all([participationOf(t, 'limited'), participationOf(t, 'demo')]);
  });
  afterAll(async () => t?.close());

  it('the reminder endpoints refuse exhibitors and callers without a token; bad days are refused', async () => {
    for (const [method, url, body] of [
      ['GET', '/oga/organiser/reminders', undefined],
      ['PUT', '/oga/organiser/reminders', { days: [3] }],
      ['POST', '/oga/organiser/reminders/send', { participationIds: [kopi] }],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: body })).json().code).toBe(401);
      expect((await t.app.inject({ method, url, payload: body, headers: { authorization: `Bearer ${limited}` } })).json().code).toBe(403);
    }
    expect((await put(t.app, '/oga/organiser/reminders', { days: [-1] }, organiser)).code).not.toBe(200);
    expect((await put(t.app, '/oga/organiser/reminders', { days: [7, 7] }, organiser)).code).not.toBe(200);
  });

  it('the organiser picks the days; due reminders go out once per exhibitor, deadline and day, whatever the runs', async () => {
    expect((await put(t.app, '/oga/organiser/reminders', { days: [1, 7] }, organiser)).data).toEqual({ days: [7, 1] });
    // The rival organiser's change is its own event's.
    expect((await put(t.app, '/oga/organiser/reminders', { days: [2] }, rival)).code).toBe(200);
    expect((await get(t.app, '/oga/organiser/reminders', organiser)).data.days).toEqual([7, 1]);
    await deadlinesClose(t, kopi);
    expect(await sendDueReminders(t.app, context())).toBe(2);
    expect(await sendDueReminders(t.app, context())).toBe(0);
    const queued = await t.app.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'reminder').execute();
    expect(queued.map((m) => m.to_address)).toEqual([KOPI_EMAIL, KOPI_EMAIL]);
    expect(queued.some((m) => m.text_body.includes('S04'))).toBe(true);
    // The organiser moves the deadline: a new deadline, a new reminder.
    await setParticipationDeadline(t.app.db, kopi, 'badges', new Date(Date.now() + 20 * HOUR));
    expect(await sendDueReminders(t.app, context())).toBe(1);
    const recent = (await get(t.app, '/oga/organiser/reminders', organiser)).data.recent as Array<{ exhibitor: string; daysBefore: number }>;
    expect(recent.map((r) => `${r.exhibitor}:${r.daysBefore}`).sort()).toEqual(['Kopi Nusantara:1', 'Kopi Nusantara:1', 'Kopi Nusantara:7']);
    expect((await get(t.app, '/oga/organiser/reminders', rival)).data.recent).toEqual([]);
  });

  it('"send a reminder now" reaches the selected exhibitors of the event once a day; another organisation reaches none', async () => {
    expect((await post(t.app, '/oga/organiser/reminders/send', { participationIds: [kopi] }, rival)).data).toEqual({ sent: 0, skipped: 1 });
    expect((await post(t.app, '/oga/organiser/reminders/send', { participationIds: [kopi, borneo] }, organiser)).data).toEqual({ sent: 2, skipped: 0 });
    expect((await post(t.app, '/oga/organiser/reminders/send', { participationIds: [kopi, borneo] }, organiser)).data).toEqual({ sent: 0, skipped: 2 });
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'reminder.sent').where('actor_role', '=', 'organiser').execute();
    expect(audit.map((a) => a.participation_id).sort()).toEqual([kopi, borneo].sort());
  });

  it('the reminder e-mail names each missing form once ("S01 Promotion profile", not "S01 S01 Promotion profile")', async () => {
    const mail = await t.app.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('kind', '=', 'reminder')
      .where('to_address', '=', KOPI_EMAIL)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const lines = mail.text_body.split('\n').filter((line) => line.startsWith('- '));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const code = /^- (\S+)/.exec(line)![1]!;
      expect(line.split(code).length - 1, line).toBe(1);
    }
  });
});

describe('mail queue and reminders with two instances on one PostgreSQL', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let secondDir: string;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const mail = { maxAttempts: 5, retrySeconds: 0, pollSeconds: 1 };
    t = await createTestApp('postgres', { smtpUrl: sink.url, mail });
    secondDir = mkdtempSync(join(tmpdir(), 'portal-second-'));
    second = await buildApp(loadConfig({}, { ...t.config, dataDir: secondDir, smtpUrl: sink.url, mail }), { logger: false });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await sink?.close();
    rmSync(secondDir, { recursive: true, force: true });
  });

  it('both workers on: every queued message reaches the SMTP server once', async () => {
    for (let n = 0; n < 10; n++) await (n % 2 ? t.app : second).mailer.send({ to: `guest${n}@example.com`, subject: `Message ${n}`, text: 'Hello' });
    await eventually(
      () => t.app.db.selectFrom('mail_outbox').select('status').where('to_address', 'like', 'guest%').execute(),
      (rows) => rows.length === 10 && rows.every((r) => r.status === 'sent'),
      20_000,
    );
    const received = sink.messages.filter((m) => m.to.some((to) => to.startsWith('guest')));
    expect(received.map((m) => m.subject).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `Message ${n}`).sort());
  });

  it('reminders run on both instances at once: one e-mail per deadline and day', async () => {
    const kopi = await participationOf(t, 'limited');
    await deadlinesClose(t, kopi);
    const context = { definitions, publicUrl: t.config.publicUrl };
    const runs = await Promise.all([sendDueReminders(t.app, context), sendDueReminders(second, context), sendDueReminders(t.app, context), sendDueReminders(second, context)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(2);
    await eventually(
      () => t.app.db.selectFrom('mail_outbox').select('status').where('kind', '=', 'reminder').execute(),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'sent'),
      20_000,
    );
    expect(sink.messages.filter((m) => m.to.includes(KOPI_EMAIL))).toHaveLength(2);
    expect(await t.app.db.selectFrom('audit_log').select('id').where('action', '=', 'reminder.sent').execute()).toHaveLength(2);
  });
});

describe('the mail queue retries after a dead SMTP server', () => {
  it('a message queued while the server is down is sent once when it comes up', async () => {
    const port = await freePort();
    const t = await createTestApp('pglite', { smtpUrl: `smtp://127.0.0.1:${port}`, mail: { maxAttempts: 50, retrySeconds: 0, pollSeconds: 1 } });
    let sink: SmtpSink | undefined;
    try {
      await t.app.mailer.send({ to: 'later@example.com', subject: 'Eventually', text: 'Hello' });
      const failed = await eventually(
        () => t.app.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'later@example.com').executeTakeFirstOrThrow(),
        (row) => row.attempts >= 1 && row.last_error !== null,
      );
      expect(failed.status).not.toBe('sent');
      sink = await startSmtpSink(port);
      await eventually(
        () => t.app.db.selectFrom('mail_outbox').select('status').where('to_address', '=', 'later@example.com').executeTakeFirstOrThrow(),
        (row) => row.status === 'sent',
        20_000,
      );
      expect(sink.messages.filter((m) => m.to.includes('later@example.com'))).toHaveLength(1);
    } finally {
      await t.close();
      await sink?.close();
    }
  });
});
