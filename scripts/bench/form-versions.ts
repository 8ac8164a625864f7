import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { withDraft } from '../../src/server/modules/organiser-form-versions/form-content';
import { percentile } from './work';

// F11: the form set's versions. (1) The time from a publish on one instance to the changed form
// served by a second instance sharing only PostgreSQL (aim ≤ 2 s); (2) the impact view of a
// changed S04 for an event of 2,000 exhibitors with submissions and drafts (aim ≤ 1 s).

const EXHIBITORS = 2000;
const PUBLISHES = 5;

function copyOfForms(): { root: string; formsDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'portal-bench-versions-'));
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true });
  cpSync(join(ROOT, 'locales'), join(root, 'locales'), { recursive: true });
  return { root, formsDir: join(root, 'schemas') };
}

async function instance(databaseUrl: string, formsDir: string): Promise<{ app: FastifyInstance; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-versions-data-'));
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, formsDir, webDir: join(dataDir, 'none'), logLevel: 'silent' }), {
    logger: false,
    mailWorker: false,
    reminders: false,
  });
  await app.ready();
  return { app, dataDir };
}

async function call(app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: unknown) {
  const answer = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return answer.json() as { code: number; data: any };
}

/** 2,000 exhibitors of the demo event: every fifth with a draft of S04, the others submitted. */
async function fill(app: FastifyInstance, eventId: number, organisationId: number | null) {
  for (let start = 0; start < EXHIBITORS; start += 500) {
    const exhibitors = await app.db
      .insertInto('exhibitors')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          name: `Bench ${start + i}`,
          legal_name: `Bench ${start + i} Ltd`,
          logo_url: '',
          organisation_id: organisationId,
          code: `BENCH${start + i}`,
        })),
      )
      .returning('id')
      .execute();
    const participations = await app.db
      .insertInto('participations')
      .values(exhibitors.map((row, i) => ({ exhibitor_id: row.id, event_id: eventId, booth_num: `B${start + i}`, displayed_modules: '["Forms"]', flags: '{}' })))
      .returning('id')
      .execute();
    await app.db
      .insertInto('form_entries')
      .values(
        participations.map((row, i) => {
          const data = JSON.stringify({
            badges: Array.from({ length: 5 }, (_, b) => ({ firstName: `Name${b}`, lastName: 'Bench', email: `b${start + i}.${b}@example.com`, gender: 'female' })),
          });
          const draft = (start + i) % 5 === 0;
          return {
            participation_id: row.id,
            form_id: 's04',
            data,
            submitted_data: draft ? null : data,
            status: draft ? ('draft' as const) : ('submitted' as const),
            submitted_at: draft ? null : new Date(),
          };
        }),
      )
      .execute();
  }
}

export async function formVersionsBenchmarks() {
  const postgres = await startPostgres();
  const copies = [copyOfForms(), copyOfForms()];
  try {
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_form_versions');
    await admin.end();
    const url = new URL(postgres.adminUrl);
    url.pathname = '/bench_form_versions';
    const first = await instance(url.toString(), copies[0]!.formsDir);
    const second = await instance(url.toString(), copies[1]!.formsDir);
    try {
      const login = await first.app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
      const token = (login.json() as { data: { token: string } }).data.token;
      const event = await first.app.db.selectFrom('events').select(['id', 'organisation_id']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
      await fill(first.app, event.id, event.organisation_id);
      const editor = `/oga/organiser/form-editor/${event.id}/s04`;

      const times: number[] = [];
      for (let round = 0; round < PUBLISHES; round++) {
        const opened = (await call(first.app, 'GET', editor, token)).data;
        const limit = 50 + round;
        const patch = { schema: { properties: { badges: { items: { properties: { firstName: { maxLength: limit } } } } } } };
        await call(first.app, 'PUT', `${editor}/draft`, token, { basedOn: opened.version.number, patch, strings: opened.strings });
        if (round === 0) {
          // Where the impact view's time went: reading (checking) the whole changed set, which each
          // request did again, against the impact itself (entries read and validated).
          const source = withDraft(first.app.forms.currentVersion().set.source, 'AFHE2027', 's04', patch, opened.strings)!;
          const checkTimes: number[] = [];
          for (let i = 0; i < 3; i++) {
            const started = performance.now();
            first.app.forms.check(source);
            checkTimes.push(performance.now() - started);
          }
          const impactTimes: number[] = [];
          for (let i = 0; i < 5; i++) {
            const started = performance.now();
            const impact = await call(first.app, 'GET', `${editor}/impact`, token);
            impactTimes.push(performance.now() - started);
            if (i === 0)
              console.log(
                `\n## Form editor impact view, ${EXHIBITORS} exhibitors (S04, ${impact.data.submissions} submissions, ${impact.data.drafts} drafts), PostgreSQL, load ${loadavg()[0]!.toFixed(2)}`,
              );
          }
          console.log(
            `  median ${percentile(impactTimes, 0.5).toFixed(0)} ms  p95 ${percentile(impactTimes, 0.95).toFixed(0)} ms; aim 1,000 ms: ${percentile(impactTimes, 0.95) <= 1000 ? 'met' : 'NOT met'}`,
          );
          console.log(
            `  of which no longer spent per request: checking the whole changed set, median ${percentile(checkTimes, 0.5).toFixed(0)} ms (its verdict is kept from the draft's save)`,
          );
        }
        const started = performance.now();
        const published = await call(first.app, 'POST', `${editor}/publish`, token, { basedOn: opened.version.number, comment: 'bench', submissions: 'keep' });
        if (published.code !== 200) throw new Error(`publish refused: ${JSON.stringify(published)}`);
        while (second.app.forms.current().filesFor('s04', 'AFHE2027').schema.properties?.badges?.items?.properties?.firstName?.maxLength !== limit) {
          if (performance.now() - started > 30_000) throw new Error('the second instance did not serve the publish within 30 s');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        times.push(performance.now() - started);
      }
      console.log(`\n## Form publish → served by a second instance (${PUBLISHES} publishes, PostgreSQL NOTIFY + poll)`);
      console.log(
        `  median ${percentile(times, 0.5).toFixed(0)} ms  max ${Math.max(...times).toFixed(0)} ms (publish request included); aim 2,000 ms: ${Math.max(...times) <= 2000 ? 'met' : 'NOT met'}`,
      );
    } finally {
      await second.app.close();
      await first.app.close();
      rmSync(first.dataDir, { recursive: true, force: true });
      rmSync(second.dataDir, { recursive: true, force: true });
    }
  } finally {
    await postgres.stop();
    for (const copy of copies) rmSync(copy.root, { recursive: true, force: true });
  }
}
