import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createDatabase, startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { ROOT } from '../catalogue-source';
import { checkoutBefore } from './big-show-data';
import { DEMO_ACCOUNT } from './support';
import { databaseTime, machineLoad, perOperation, type DatabaseTime, percentile } from './work';

// The exhibitor's form paths on a big show: 5,000 exhibitors (500 on the embedded database), each
// with an entry in every form and S04 holding 10–200 badges; the demo exhibitor's S04 holds 200.
// p95 budgets: forms list 30 ms, form open 30 ms, S04 draft save with 200 badges 50 ms (its
// submit, validated with the custom keywords and audited, printed beside it). Requests go through
// app.inject, so the figures are the server's own; each case prints the CPU ms per request of this
// process (where the portal runs) and, on PostgreSQL, the database's execution ms per request.
//
// Side by side with the landed version: BENCH_BEFORE=<commit> (default: none) checks that commit
// out (the big show's checkout, kept in .tmp) and runs its server beside this one, on its own copy
// of the same data; the cases alternate between the two so both meet the same machine load.

const EXHIBITORS = Number(process.env.BENCH_EXHIBITORS ?? 5000);
const EMBEDDED_EXHIBITORS = Number(process.env.BENCH_EMBEDDED_EXHIBITORS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const DEMO_BADGES = 200;
const BUDGETS = { list: 30, open: 30, draft: 50 } as const;

type BuildApp = typeof buildApp;
type LoadConfig = typeof loadConfig;

export interface Version {
  label: string;
  buildApp: BuildApp;
  loadConfig: LoadConfig;
}

/** The landed version's server, from its own checkout (big-show-data.ts, node_modules shared), or null when none is asked for. */
export async function landedVersion(): Promise<Version | null> {
  const asked = process.env.BENCH_BEFORE;
  if (!asked || asked === 'none') return null;
  const revision = execFileSync('git', ['rev-parse', asked], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = checkoutBefore(revision);
  const app = (await import(join(dir, 'src/server/app.ts'))) as { buildApp: BuildApp };
  const config = (await import(join(dir, 'src/server/config.ts'))) as { loadConfig: LoadConfig };
  return { label: `landed ${revision.slice(0, 8)}`, buildApp: app.buildApp, loadConfig: config.loadConfig };
}

/** The big show, set-based: exhibitors, participations, an entry in every form (S04: 10–200 badges). */
export async function fill(app: FastifyInstance, exhibitors: number) {
  const event = await app.db.selectFrom('events').select(['id', 'organisation_id']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
  const demo = await app.db.selectFrom('users').select('participation_id').where('login', '=', DEMO_ACCOUNT.account).executeTakeFirstOrThrow();
  // A big show gives each exhibitor room for 200 badges.
  await app.db.updateTable('quotas').set({ value: DEMO_BADGES }).where('event_id', '=', event.id).where('name', '=', 'badges').execute();
  await sql`insert into exhibitors (name, legal_name, logo_url, organisation_id, code)
    select 'Big Show Exhibitor ' || g, 'Big Show Exhibitor ' || g || ' Sdn. Bhd.', '', ${event.organisation_id}, 'BIGSHOW' || g from generate_series(1, ${exhibitors}) g`.execute(
    app.db,
  );
  await sql`insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
    select id, ${event.id}, 'Hall 9 · ' || id, '["Forms"]'::jsonb, '{}'::jsonb from exhibitors where code like 'BIGSHOW%'`.execute(app.db);
  const badge = (i: string) =>
    sql`jsonb_build_object('firstName', (array['Nurul', 'Aisyah', 'Hafiz', 'Wei Ling', 'Lan', 'Sakura', 'Rajesh', 'Siti'])[1 + ${sql.raw(i)} % 8], 'middleName', '', 'lastName', 'Abdul Rahman', 'lastNameFirst', false,
      'companyOnBadge', 'Borneo Botanica Natural Products', 'gender', case when ${sql.raw(i)} % 2 = 0 then 'female' else 'male' end,
      'email', 'staff.' || ${sql.raw(i)} || '@borneo-botanica.example', 'extra', false)`;
  const forms = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 'vip'];
  // The demo exhibitor's own entries are replaced by the big show's (S04: 200 badges).
  await app.db.deleteFrom('form_entries').where('participation_id', '=', demo.participation_id!).where('form_id', '=', 's04').execute();
  for (const form of forms) {
    // Other forms hold what the demo exhibitor's entry holds (its promotion profile), else an empty object.
    const data =
      form === 's04'
        ? sql`jsonb_build_object('badges', (select jsonb_agg(${badge('b')} order by b) from generate_series(1, case when p.id = ${demo.participation_id} then ${DEMO_BADGES} else 10 + p.id % 191 end) b))`
        : sql`coalesce((select data from form_entries d where d.participation_id = ${demo.participation_id} and d.form_id = ${form}), '{}'::jsonb)`;
    await sql`insert into form_entries (participation_id, form_id, data, status, submitted_data, submitted_at)
      select p.id, ${form}, x.data, case when p.id % 3 = 0 then 'draft' else 'submitted' end,
        case when p.id % 3 = 0 then null else x.data end, case when p.id % 3 = 0 then null else now() end
      from participations p cross join lateral (select ${data} as data) x
      where p.event_id = ${event.id} and (p.id = ${demo.participation_id} or p.exhibitor_id in (select id from exhibitors where code like 'BIGSHOW%'))
      on conflict (participation_id, form_id) do nothing`.execute(app.db);
  }
  await sql`analyze`.execute(app.db);
}

interface Portal {
  label: string;
  app: FastifyInstance;
  token: string;
  dbTime: DatabaseTime | null;
  /** The demo exhibitor's S04 as stored, and its version. */
  badges: unknown[];
  version: number;
  close(): Promise<void>;
}

async function openPortal(version: Version, engine: 'PostgreSQL' | 'PGlite', databaseUrl: string | undefined, exhibitors: number): Promise<Portal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-exhibitor-'));
  const config = version.loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' });
  const app = await version.buildApp(config, { logger: false, mailWorker: false, reminders: false, watchForms: false });
  const started = performance.now();
  await fill(app, exhibitors);
  console.log(`  (${version.label}, ${engine}: ${exhibitors} exhibitors × 9 forms written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: DEMO_ACCOUNT });
  const token = (login.json() as { data: { token: string } }).data.token;
  const page = (await app.inject({ method: 'GET', url: '/oga/forms/s04', headers: { authorization: `Bearer ${token}` } })).json() as {
    data: { entry: { data: { badges: unknown[] }; version: number } };
  };
  return {
    label: version.label,
    app,
    token,
    dbTime: databaseUrl ? await databaseTime(databaseUrl) : null,
    badges: page.data.entry.data.badges,
    version: page.data.entry.version,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Case {
  name: string;
  budget: number | null;
  /** One request; answers the HTTP status and the envelope's code. */
  run(portal: Portal): Promise<{ code: number }>;
  /** The code a correct answer carries. */
  expect: number;
}

const request = async (portal: Portal, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => {
  const answer = await portal.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${portal.token}`, language: 'ja' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return answer.json() as { code: number; data: { version?: number } };
};

const CASES: Case[] = [
  { name: 'forms list GET /forms', budget: BUDGETS.list, expect: 200, run: (portal) => request(portal, 'GET', '/oga/forms') },
  { name: 'form open GET /forms/s04 (200 badges)', budget: BUDGETS.open, expect: 200, run: (portal) => request(portal, 'GET', '/oga/forms/s04') },
  { name: 'form open GET /forms/s01', budget: BUDGETS.open, expect: 200, run: (portal) => request(portal, 'GET', '/oga/forms/s01') },
  {
    name: 'S04 draft save, 200 badges',
    budget: BUDGETS.draft,
    expect: 200,
    run: async (portal) => {
      const answer = await request(portal, 'PUT', '/oga/forms/s04/draft', { data: { badges: portal.badges }, version: portal.version });
      if (answer.data?.version) portal.version = answer.data.version;
      return answer;
    },
  },
  {
    name: 'S04 submit, 200 badges (validated, audited)',
    budget: null,
    expect: 200,
    run: async (portal) => {
      const answer = await request(portal, 'POST', '/oga/forms/s04/submit', { data: { badges: portal.badges }, version: portal.version });
      if (answer.data?.version) portal.version = answer.data.version;
      return answer;
    },
  },
  {
    name: 'S04 submit refused, 200 badges, 20 wrong',
    budget: null,
    expect: 601,
    run: (portal) =>
      request(portal, 'POST', '/oga/forms/s04/submit', {
        data: { badges: portal.badges.map((badge, index) => (index % 10 === 3 ? { ...(badge as object), email: `not an address ${index}` } : badge)) },
        version: portal.version,
      }),
  },
];

async function measureCase(portal: Portal, item: Case) {
  const times: number[] = [];
  await portal.dbTime?.reset();
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const answer = await item.run(portal);
    times.push(performance.now() - started);
    if (answer.code !== item.expect) throw new Error(`${portal.label} ${item.name}: answered ${answer.code}, expected ${item.expect}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const dbMs = portal.dbTime ? await portal.dbTime.read() : null;
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), work: perOperation(ROUNDS, (cpu.user + cpu.system) / 1000, dbMs) };
}

async function section(engine: 'PostgreSQL' | 'PGlite', versions: Version[], databaseUrlOf: (index: number) => Promise<string | undefined>, exhibitors: number) {
  console.log(`\n## Exhibitor forms on a big show, ${engine}: ${exhibitors} exhibitors × 9 forms, ${ROUNDS} rounds (${machineLoad()} at the start)`);
  const portals: Portal[] = [];
  try {
    for (const [index, version] of versions.entries()) portals.push(await openPortal(version, engine, await databaseUrlOf(index), exhibitors));
    // Warm-up: the first request of each kind reads what later ones find in memory.
    for (const portal of portals) for (const item of CASES) await item.run(portal);
    for (const item of CASES) {
      const budget = item.budget === null ? '' : ` (p95 budget ${item.budget} ms)`;
      console.log(`  ${item.name}${budget}`);
      // Alternating order: neither version always meets the machine after the other.
      const order = portals.length > 1 && CASES.indexOf(item) % 2 === 1 ? [...portals].reverse() : portals;
      const figures = new Map<Portal, Awaited<ReturnType<typeof measureCase>>>();
      for (const portal of order) figures.set(portal, await measureCase(portal, item));
      for (const portal of portals) {
        const f = figures.get(portal)!;
        const verdict = item.budget === null ? '' : f.p95 <= item.budget ? ' — met' : ' — NOT met';
        console.log(`    ${portal.label.padEnd(18)} median ${f.median.toFixed(1).padStart(6)} ms  p95 ${f.p95.toFixed(1).padStart(6)} ms  ${f.work}  ${machineLoad()}${verdict}`);
      }
    }
  } finally {
    for (const portal of portals) {
      await portal.dbTime?.close();
      await portal.close();
    }
  }
}

export async function exhibitorBenchmarks() {
  const landed = await landedVersion();
  const versions: Version[] = [...(landed ? [landed] : []), { label: 'this branch', buildApp, loadConfig }];
  const postgres = await startPostgres({ statStatements: true });
  try {
    await section('PostgreSQL', versions, (index) => createDatabase(postgres.adminUrl, `bench_exhibitor_${index}`), EXHIBITORS);
  } finally {
    await postgres.stop();
  }
  await section('PGlite', versions, async () => undefined, EMBEDDED_EXHIBITORS);
}
