import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, REPO_ROOT, startPortal, type Portal } from './support/portal';

// O2 end to end on an empty database without the demo: the first organiser is made with
// the admin command and sets its password from the e-mail; it creates an event and an exhibitor
// in the console; the exhibitor activates from its e-mail and holds only the modules set; an
// import with bad rows shows its report by row and column.

const run = promisify(execFile);
const linkIn = (mail: string) => mail.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)![0];
const ORGANISER_PASSWORD = 'Organiser-pass-2031';
const EXHIBITOR_PASSWORD = 'Exhibitor-pass-2031';

const session = useBrowser();
let portal: Portal;
let dataDir: string;
let commandSink: SmtpSink;
let commandOutput = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-first-'));
  commandSink = await startSmtpSink();
  // The real command, before the server starts (the embedded database is single-process).
  const { stdout } = await run(
    join(REPO_ROOT, 'node_modules/.bin/tsx'),
    ['scripts/admin.ts', 'create-organiser', '--email', 'mei@first-expo.example', '--name', 'Mei Tan', '--organisation', 'First Expo'],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, SMTP_URL: commandSink.url, PUBLIC_URL: 'http://127.0.0.1:1', SEED_DEMO: 'false' },
      timeout: 120_000,
    },
  );
  commandOutput = stdout;
  portal = await startPortal({ dataDir, seedDemo: false });
}, 180_000);

afterAll(async () => {
  await portal?.close();
  await commandSink?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('organiser console on a real show', () => {
  test('first organiser → event → exhibitor → the exhibitor activates and holds only its modules', async () => {
    const { page } = session;
    const mail = await commandSink.waitFor('mei@first-expo.example');
    expect(mail.subject).toBe(en('mail.organiserActivation.subject'));
    const printed = linkIn(commandOutput);
    expect(linkIn(mail.text)).toBe(printed);
    // The link names the PUBLIC_URL the command had; the token works on this portal.
    await page.goto(`${portal.url}/reset-password?${new URL(printed).searchParams}`);
    await field(page, en('auth.newPassword')).fill(ORGANISER_PASSWORD);
    await field(page, en('auth.confirmPassword')).fill(ORGANISER_PASSWORD);
    await page.getByRole('button', { name: en('auth.setPassword') }).click();
    await expectVisible(page.getByText(en('success.passwordReset')), 'the password set');

    await loginAndLand(page, portal.url, 'mei@first-expo.example', ORGANISER_PASSWORD, '/organiser');
    await expectVisible(page.getByText(en('organiser.home.none')), 'no event yet');
    await page.getByRole('link', { name: en('organiser.home.createFirst') }).click();
    await waitForPath(page, '/organiser/events/edit');
    await field(page, en('organiser.event.code')).fill('FIRST31');
    await field(page, en('organiser.event.nameIn', { language: 'English' })).fill('First Expo 2031');
    await page.getByLabel(en('organiser.event.date'), { exact: true }).fill('2031-05-13');
    // An impossible closing time is said beside the field, nothing is sent.
    await page.getByLabel(en('organiser.event.closes'), { exact: true }).fill('09:00');
    await page.getByRole('button', { name: en('organiser.event.save') }).click();
    await expectVisible(page.getByText(en('organiser.validation.closesBeforeOpens')), 'the closing-time message');
    await page.getByLabel(en('organiser.event.closes'), { exact: true }).fill('18:00');
    await page.getByRole('button', { name: en('organiser.event.save') }).click();
    await waitForPath(page, '/organiser/events');
    await expectVisible(page.getByRole('row', { name: /FIRST31/ }), 'the new event in the list');

    await page.goto(`${portal.url}/organiser/exhibitors/edit`);
    await field(page, en('organiser.import.columns.code')).fill('KOPI');
    await field(page, en('organiser.import.columns.name')).fill('Kopi Kita');
    await field(page, en('organiser.import.columns.boothNum')).fill('A-01');
    await field(page, en('organiser.import.columns.account')).fill('kopi.kita');
    await field(page, en('organiser.import.columns.email')).fill('owner@kopi-kita.example');
    // New exhibitors start with every module (the event's default): keep only Forms and Support.
    const modules = page.locator('form');
    for (const module of ['Manuals', 'Event Info', 'Leadgrab', 'Leadgrab Dashboard', 'EEC Dashboard', 'Custom Tag', 'Digital Showroom', 'Invite Your Clients']) {
      const box = modules.getByRole('checkbox', { name: module, exact: true });
      if (await box.count()) await box.first().uncheck();
    }
    await page.getByRole('button', { name: en('organiser.event.save') }).click();
    await waitForPath(page, '/organiser/exhibitors');
    await page.getByRole('button', { name: `${en('organiser.exhibitors.sendActivation')} Kopi Kita` }).click();
    const activation = await portal.sink.waitFor('owner@kopi-kita.example');
    expect(activation.text).toContain('kopi.kita');

    const exhibitorPage = await (await session.newContext()).newPage();
    await exhibitorPage.goto(linkIn(activation.text));
    await field(exhibitorPage, en('auth.newPassword')).fill(EXHIBITOR_PASSWORD);
    await field(exhibitorPage, en('auth.confirmPassword')).fill(EXHIBITOR_PASSWORD);
    await exhibitorPage.getByRole('button', { name: en('auth.setPassword') }).click();
    await expectVisible(exhibitorPage.getByText(en('success.passwordReset')), 'the exhibitor password set');
    await loginAndLand(exhibitorPage, portal.url, 'kopi.kita', EXHIBITOR_PASSWORD);
    const info = (await apiGet(portal.url, '/user/info', await apiLogin(portal.url, 'kopi.kita', EXHIBITOR_PASSWORD))).data as { displayedModule: string[] };
    expect(info.displayedModule.sort()).toEqual(['Forms', 'Support']);
    // A screen of a module it was not given is refused.
    await exhibitorPage.goto(`${portal.url}/dashboard`);
    await waitForPath(exhibitorPage, '/401');
  });

  test('an import with bad rows shows its report by row and column; the good rows are stored', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'mei@first-expo.example', ORGANISER_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/exhibitors/import`);
    const csv = [
      'Exhibitor code,Exhibitor name,Booth,E-mail,Modules',
      'TEH,Teh Tarik Co,B-01,teh@teh.example,Forms',
      'BAD1,,B-02,bad1@teh.example,Forms',
      'BAD2,Bad Module,B-03,bad2@teh.example,Jetpack',
      'BAD3,=SUM(1),B-04,bad3@teh.example,Forms',
    ].join('\n');
    await page.getByLabel(en('organiser.import.choose')).setInputFiles({ name: 'exhibitors.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: en('organiser.import.check') }).click();
    const problems = page.getByRole('table', { name: en('organiser.import.problems') });
    await expectVisible(problems.getByRole('row', { name: `3 ${en('organiser.import.columns.name')} ${en('organiser.validation.exhibitorNameRequired')}` }), 'row 3: missing name');
    await expectVisible(problems.getByRole('row', { name: `4 ${en('organiser.import.columns.modules')} ${en('organiser.validation.unknownModule')}` }), 'row 4: unknown module');
    await expectVisible(problems.getByRole('row', { name: `5 ${en('organiser.import.columns.name')} ${en('organiser.validation.formula')}` }), 'row 5: formula');
    await page.getByRole('button', { name: en('organiser.import.commit', { count: 1 }) }).click();
    await expectVisible(page.getByText(en('organiser.import.summaryDone', { rows: 4, good: 1, created: 1, updated: 0 })), 'the stored summary');
    await page.goto(`${portal.url}/organiser/exhibitors`);
    await expectVisible(page.getByRole('row', { name: /Teh Tarik Co/ }), 'the imported exhibitor');
    expect(await page.getByRole('row', { name: /Bad Module/ }).count()).toBe(0);
  });
});
