import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../../src/server/app';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, startPortal, type Portal } from './support/portal';

// LD1: the server stops in the middle of a sync (the batch stored, its answer never sent) and
// starts again on the same database a little later: the scanner resends until it has an answer,
// and every scan is exactly one lead.

const session = useBrowser({ viewport: { width: 390, height: 844 } });
const dataDir = mkdtempSync(join(tmpdir(), 'scanner-restart-'));
let portal: Portal;
let restarted: FastifyInstance | undefined;

beforeAll(async () => {
  portal = await startPortal({ dataDir });
}, 120_000);
afterAll(async () => {
  await restarted?.close().catch(() => undefined);
  await portal?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('LD1: the server killed during a sync and started again: nothing lost, nothing doubled', { timeout: 180_000 }, async () => {
  const { page, context } = session;
  const participation = await portal.app.db.selectFrom('users').select(['participation_id', 'event_id']).where('login', '=', 'demo').executeTakeFirstOrThrow();
  const codes = (
    await portal.app.db
      .selectFrom('visitors')
      .select('badge_code')
      .where('event_id', '=', participation.event_id!)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participation.participation_id!),
          ),
        ),
      )
      .orderBy('id', 'desc')
      .limit(20)
      .execute()
  ).map((row) => row.badge_code);
  expect(codes).toHaveLength(20);

  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}/digital-tools/scanner`);
  const [before] = en('leads.scanner.device').split('{{name}}');
  await expectVisible(page.getByText(before!.trim(), { exact: false }), 'the device registration');
  await context.setOffline(true);
  for (const code of codes) {
    await field(page, en('leads.scanner.badgeCode')).fill(code);
    await page.getByRole('button', { name: en('leads.scanner.add'), exact: true }).click();
  }

  let restart: Promise<void> | undefined;
  await context.route(`${portal.url}/oga/leads/scans`, async (route) => {
    if (restart) return route.continue();
    // The batch reaches the server and is stored; the server then goes down before answering.
    await route.fetch();
    const port = new URL(portal.url).port;
    await portal.app.close();
    restart = (async () => {
      restarted = await buildApp(portal.config, { logger: false });
      await restarted.listen({ port: Number(port), host: portal.config.host });
    })();
    await route.abort('connectionreset');
  });
  await context.setOffline(false);

  const sent = () =>
    page
      .getByRole('list', { name: en('leads.scanner.recent') })
      .getByText(en('leads.scanner.state.sent'), { exact: true })
      .count();
  const until = Date.now() + 150_000;
  while ((await sent()) < 20) {
    if (Date.now() > until) throw new Error('the 20 scans were not all sent after the restart');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await restart;
  const row = await restarted!.db
    .selectFrom('leads')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('participation_id', '=', participation.participation_id!)
    .where('badge_code', 'in', codes)
    .executeTakeFirstOrThrow();
  expect(Number(row.n)).toBe(20);
});
