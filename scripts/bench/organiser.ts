import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';

// O2 benchmarks, on PostgreSQL: the organiser's progress matrix for 2,000 exhibitors × every
// form (p95 budget 100 ms) and the badges export of 20,000 badges (budget 5 s), with account
// info measured side by side. Requests go through app.inject: the figure is the server's own.

const EXHIBITORS = Number(process.env.BENCH_EXHIBITORS ?? 2000);
const BADGES_EACH = 10;
const ROUNDS = 40;
const PROGRESS_BUDGET_MS = 100;
const EXPORT_BUDGET_S = 5;

async function fill(app: FastifyInstance) {
  const event = await app.db.selectFrom('events').select(['id', 'organisation_id']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
  const forms = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 'vip'];
  await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
    select 'Bench Exhibitor ' || g, 'Bench Exhibitor ' || g || ' Sdn. Bhd.', '', ${event.organisation_id}, 'BENCH' || g from generate_series(1, ${EXHIBITORS}) g`.execute(app.db);
  await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
    select id, ${event.id}, 'Hall 9 · ' || id, '["Forms"]'::jsonb, '{}'::jsonb from exhibitors where code like 'BENCH%'`.execute(app.db);
  const badges = JSON.stringify({
    badges: Array.from({ length: BADGES_EACH }, (_, i) => ({
      firstName: `Name${i}`,
      middleName: '',
      lastName: 'Benchmark',
      lastNameFirst: false,
      companyOnBadge: 'Bench Co',
      gender: i % 2 ? 'male' : 'female',
      email: `b${i}@bench.example`,
    })),
  });
  // Every form has an entry for most exhibitors, in every state; S04 holds ten badges each.
  for (const [index, form] of forms.entries()) {
    await sql`insert into form_entries (participation_id, form_id, data, status, submitted_data, submitted_at, approval_status)
      select p.id, ${form}, ${form === 's04' ? badges : '{}'}::jsonb,
        case when p.id % 3 = 0 and ${form} <> 's04' then 'draft' else 'submitted' end,
        case when p.id % 3 = 0 and ${form} <> 's04' then null else ${form === 's04' ? badges : '{}'}::jsonb end,
        case when p.id % 3 = 0 and ${form} <> 's04' then null else now() end,
        case when p.id % 7 = ${index % 7} then 'pending' else null end
      from participations p join exhibitors e on e.id = p.exhibitor_id where e.code like 'BENCH%' and (${form} = 's04' or p.id % 10 <> ${index})`.execute(app.db);
  }
  await sql`analyze`.execute(app.db);
  const count = await app.db
    .selectFrom('form_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('form_id', '=', 's04')
    .executeTakeFirstOrThrow();
  return { forms: forms.length, badges: Number(count.n) * BADGES_EACH };
}

const percentile = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))]!;

async function timed(app: FastifyInstance, url: string, token: string) {
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const answer = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    times.push(performance.now() - started);
    bytes = answer.rawPayload.length;
  }
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), bytes };
}

async function run(databaseUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-organiser-'));
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false, reminders: false });
  try {
    const started = performance.now();
    const filled = await fill(app);
    console.log(`\n(PostgreSQL: ${EXHIBITORS} exhibitors × ${filled.forms} forms, ${filled.badges} badges written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: { account: 'organiser', password: 'Demo-pass-2026' } });
    const token = (login.json() as { data: { token: string } }).data.token;

    console.log(`\n## Progress matrix, ${EXHIBITORS} exhibitors × ${filled.forms} forms, PostgreSQL (p95 budget ${PROGRESS_BUDGET_MS} ms)`);
    const baseline = await timed(app, '/oga/system/project/exhibirotCode', token);
    if (process.env.BENCH_PROFILE) {
      const { progressMatrix } = await import('../../src/server/lib/progress-matrix');
      const { loadFormRegistry } = await import('../../src/server/plugins/forms/form-set');
      const event = await app.db.selectFrom('events').select('id').where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        await progressMatrix(app, event.id, loadFormRegistry().definitions);
        times.push(performance.now() - t0);
      }
      console.log(`  progressMatrix alone: median ${percentile(times, 0.5).toFixed(1)} ms`);
    }
    console.log(`  side by side: account info, median ${baseline.median.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms`);
    for (const [label, url] of [
      ['whole matrix', '/oga/organiser/progress'],
      ['mandatory forms missing', '/oga/organiser/progress?missing=true'],
    ] as const) {
      const figures = await timed(app, url, token);
      console.log(
        `  ${label}: median ${figures.median.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, ${(figures.bytes / 1024).toFixed(0)} kB — ${figures.p95 <= PROGRESS_BUDGET_MS ? 'met' : 'NOT met'}`,
      );
    }

    console.log(`\n## Badges export (S04), ${filled.badges} badges, PostgreSQL (budget ${EXPORT_BUDGET_S} s)`);
    const rss = process.memoryUsage().rss;
    const exportStarted = performance.now();
    const answer = await app.inject({ method: 'GET', url: '/oga/organiser/submissions/s04/export', headers: { authorization: `Bearer ${token}` } });
    const seconds = (performance.now() - exportStarted) / 1000;
    console.log(
      `  ${seconds.toFixed(2)} s, ${(answer.rawPayload.length / 1024 / 1024).toFixed(1)} MB XLSX (HTTP ${answer.statusCode}), rss +${((process.memoryUsage().rss - rss) / 1024 / 1024).toFixed(0)} MB — ${seconds <= EXPORT_BUDGET_S ? 'met' : 'NOT met'}`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function organiserBenchmarks() {
  const postgres = await startPostgres();
  try {
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_organiser');
    await admin.end();
    const url = new URL(postgres.adminUrl);
    url.pathname = '/bench_organiser';
    await run(url.toString());
  } finally {
    await postgres.stop();
  }
}
