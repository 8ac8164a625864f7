import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../../src/server/db/connection';
import type { Database } from '../../src/server/db/schema';
import { seedDemo } from '../../src/server/db/seed';
import { giveLeadsForeignNames, insertLeads, insertVisitors } from '../../src/server/db/demo-leads';
import { FOLLOW_UP_ACTIONS, LEAD_TEMPERATURES, LEAD_TYPES } from '../../src/engine/leads';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { DEMO_ACCOUNT, loginToken } from './support';
import { freePort } from '../../tests/support/ports';
import { databaseTime, machineLoad, perOperation, withCpu, type DatabaseTime } from './work';

// Lead capture at volume (LD1-LD4, LA1-LA4): the dashboard, a page of the lead list, scan ingestion and
// an XLSX export, on PostgreSQL with 1,000,000 leads in one event and on PGlite with 100,000.
// The portal runs as its own process (as in production), so its memory can be read from
// /proc and the load generator does not share its event loop.

const BUDGET = { dashboardP95Ms: 20, listP95Ms: 50, postgresScansPerSecond: 20_000, pgliteScansPerSecond: 5_000, burstP99Ms: 500, exportSeconds: 5, exportRssAboveRestMb: 150 };
/** The scanning devices of a busy booth syncing at once: this many connections, each sending BURST_ROUNDS batches. */
const BURST_CLIENTS = Number(process.env.BENCH_BURST_CLIENTS ?? 20);
const BURST_ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 4);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 5);
/** Devices sending at once in the throughput case (the budget's 20 devices). */
const INGEST_WORKERS = Number(process.env.BENCH_INGEST_WORKERS ?? 20);
const BATCH = 100;
/** The first team user scanned this many leads (at most half of the exhibitor's): exporting them is the 100,000-row export. */
const EXPORT_ROWS = 100_000;
/**
 * A big show: `BENCH_EXHIBITORS` exhibitors in the event share the leads, the measured one (the
 * demo exhibitor) holding `BENCH_LARGEST_LEADS` of them (e.g. BENCH_PG_LEADS=5000000
 * BENCH_EXHIBITORS=5000 BENCH_LARGEST_LEADS=50000). Unset: every lead is the demo exhibitor's.
 */
const EXHIBITORS = Number(process.env.BENCH_EXHIBITORS ?? 1);
const LARGEST_LEADS = Number(process.env.BENCH_LARGEST_LEADS ?? 0);
/** Visitors of a big show's event (the other exhibitors' leads scan them). */
const SHOW_VISITORS = 200_000;
const TEAM_USERS = 20;
const VISITORS = 50_000;
/** `BENCH_LEADS_CASES=list,scans,export` measures only those parts (all of them when unset). */
const CASES = new Set((process.env.BENCH_LEADS_CASES ?? 'dashboard,list,scans,export').split(',').map((c) => c.trim()));

export const LEADS_API = {
  dashboard: '/oga/analytics/dashboard',
  list: '/oga/leads',
  scans: '/oga/leads/scans',
  exports: '/oga/leads/exports',
};

/** Team users of the demo participation; the first one scans EXPORT_ROWS leads. */
async function createTeamUsers(db: Kysely<Database>, participationId: number, eventId: number): Promise<number[]> {
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: TEAM_USERS }, (_, i) => ({
        login: `bench-scanner-${i + 1}`,
        login_key: `bench-scanner-${i + 1}`,
        email: `scanner${i + 1}@bench.example`,
        display_name: `Scanner ${i + 1}`,
        password_hash: 'x',
        role: 'team_user' as const,
        participation_id: participationId,
        event_id: eventId,
        status: 'active' as const,
        lead_quota: null,
        created_by: null,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Loads `count` leads for the demo exhibitor with the leads module's generator (INSERT … SELECT
 * generate_series, statements of 100,000 so the rollup triggers aggregate once per statement),
 * spread over the event's days and 50,000 visitors; the first EXPORT_ROWS are all the first team
 * user's (the export's rows), the rest are shared by the other team users.
 */
export async function bulkLoadLeads(db: Kysely<Database>, count: number, log: (line: string) => void) {
  const participation = await db
    .selectFrom('participations')
    .innerJoin('users', 'users.participation_id', 'participations.id')
    .innerJoin('events', 'events.id', 'participations.event_id')
    .select(['participations.id', 'participations.event_id', 'events.code', 'events.starts_at', 'events.ends_at', 'events.utc_offset_minutes'])
    .where('users.login_key', '=', DEMO_ACCOUNT.account)
    .executeTakeFirstOrThrow();
  const users = await createTeamUsers(db, participation.id, participation.event_id);
  const event = { id: participation.event_id, code: participation.code };
  // One lead per visitor per exhibitor (LD1): as many visitors as leads, so every lead is one.
  const visitors = Math.max(VISITORS, count);
  await insertVisitors(db, event, 1, visitors);
  const started = Date.now();
  const chunk = 100_000;
  // Leads already there (the demo's) keep their numbers: continue after them.
  const offset = 10_000_000;
  for (let first = 1; first <= count; first += chunk) {
    const last = Math.min(count, first + chunk - 1);
    await insertLeads(db, {
      participationId: participation.id,
      eventId: event.id,
      eventCode: event.code,
      offsetMinutes: participation.utc_offset_minutes,
      start: new Date(participation.starts_at),
      end: new Date(participation.ends_at),
      first: offset + first,
      last: offset + last,
      visitors,
      unknownEvery: 50,
      qualifiedShare: 0.5,
      scannedBy: last <= Math.min(EXPORT_ROWS, count / 2) ? [users[0]!] : users.slice(1),
    });
    if (last % 500_000 === 0 || last === count) log(`    loaded ${last.toLocaleString('en')} leads (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  // Some visitors with Japanese, Chinese and Vietnamese names and companies: keywords in every language.
  await giveLeadsForeignNames(db, participation.id);
  await sql`analyze leads`.execute(db);
  await sql`analyze lead_rollup`.execute(db);
  return {
    users,
    participationId: participation.id,
    loadSeconds: (Date.now() - started) / 1000,
    event,
    visitors,
    startsAt: participation.starts_at,
    endsAt: participation.ends_at,
    offsetMinutes: participation.utc_offset_minutes,
  };
}

/**
 * A big show's other exhibitors: `exhibitors` participations in the demo's event sharing `count`
 * leads, generated in statements of 250,000 rows (INSERT … SELECT generate_series). Their keyword
 * text is folded in SQL (lower case: the generated names are ASCII), so the trigram index holds
 * every exhibitor's leads as it would at the show.
 */
async function loadOtherExhibitors(
  db: Kysely<Database>,
  loaded: { event: { id: number; code: string }; visitors: number; startsAt: Date; endsAt: Date; offsetMinutes: number; users: number[] },
  exhibitors: number,
  count: number,
  log: (line: string) => void,
) {
  if (exhibitors <= 0 || count <= 0) return;
  const started = Date.now();
  const made = await sql<{ id: number }>`
    with e as (
      insert into exhibitors (name, legal_name) select 'Bench exhibitor ' || g, 'Bench exhibitor ' || g || ' Ltd' from generate_series(1, ${exhibitors}) g returning id
    )
    insert into participations (exhibitor_id, event_id) select id, ${loaded.event.id} from e returning id`.execute(db);
  const ids = made.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  const firstId = ids[0]!;
  const visitors = Math.max(loaded.visitors, SHOW_VISITORS);
  await insertVisitors(db, loaded.event, 1, visitors);
  const spanSeconds = Math.max(1, Math.floor((new Date(loaded.endsAt).getTime() - new Date(loaded.startsAt).getTime()) / 1000));
  const startSeconds = Math.floor(new Date(loaded.startsAt).getTime() / 1000);
  const chunk = 250_000;
  for (let first = 1; first <= count; first += chunk) {
    const last = Math.min(count, first + chunk - 1);
    // Lead g is participation (g mod exhibitors)'s, of visitor (g div exhibitors): one lead per visitor per exhibitor.
    await sql`
      insert into leads (participation_id, client_scan_id, badge_code, visitor_id, badge_known, visitor_name, salutation, company,
        business_nature, job_title, country, mobile, email, phone, address, scanned_by, scanned_at, event_hour, lead_type, temperature, follow_up, search_folded)
      select ${firstId}::int + (s.g % ${exhibitors}), 'gen-' || s.g, v.badge_code, v.id, true, v.name, v.salutation, v.company, v.business_nature, v.job_title,
        v.country, v.mobile, v.email, v.phone, v.address, ${loaded.users[1] ?? loaded.users[0]!}::int, s.at,
        floor((extract(epoch from s.at) + ${loaded.offsetMinutes * 60}) / 3600)::int,
        case when s.g % 2 = 0 then (${LEAD_TYPES}::text[])[1 + s.g / 2 % ${LEAD_TYPES.length}] end,
        case when s.g % 2 = 0 then (${LEAD_TEMPERATURES}::text[])[1 + s.g / 3 % ${LEAD_TEMPERATURES.length}] end,
        case when s.g % 4 = 0 then (${FOLLOW_UP_ACTIONS}::text[])[1 + s.g / 5 % ${FOLLOW_UP_ACTIONS.length}] end,
        lower(v.name || ' ' || v.company || ' ' || v.email || ' ' || v.badge_code)
      from (
        select g, to_timestamp(${startSeconds}::bigint + (g::bigint * 7919) % ${spanSeconds}) as at,
          ${loaded.event.code} || '-V' || lpad((1 + (g / ${exhibitors}) % ${visitors})::text, 7, '0') as code
        from generate_series(${first}::int, ${last}::int) g
      ) s join visitors v on v.event_id = ${loaded.event.id} and v.badge_code = s.code
      on conflict do nothing`.execute(db);
    if (last % 1_000_000 === 0 || last === count)
      log(`    loaded ${last.toLocaleString('en')} leads of ${exhibitors.toLocaleString('en')} other exhibitors (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  await sql`analyze leads`.execute(db);
  await sql`analyze lead_rollup`.execute(db);
}

/** The show's leads: all the demo exhibitor's, or (BENCH_EXHIBITORS) LARGEST_LEADS of them its and the rest other exhibitors'. */
export async function loadShow(db: Kysely<Database>, count: number, log: (line: string) => void) {
  const largest = EXHIBITORS > 1 && LARGEST_LEADS > 0 ? Math.min(LARGEST_LEADS, count) : count;
  const started = Date.now();
  const loaded = await bulkLoadLeads(db, largest, log);
  await loadOtherExhibitors(db, loaded, EXHIBITORS - 1, count - largest, log);
  const seconds = (Date.now() - started) / 1000;
  return { ...loaded, largest, eventCode: loaded.event.code, loadSeconds: seconds };
}

/**
 * The portal as production runs it: its own Node process on the bundled server (`npm run build`);
 * `cwd` another checkout's (its bundle, schemas and locales), `startSeconds` how long its start
 * (migrations included) may take.
 */
/**
 * The node options the build's own `npm run serve` starts its server with (production's start, e.g.
 * the young generation's size), so each build is measured as it runs: the landed version's with its
 * own, this tree's with its own.
 */
export function serverNodeOptions(cwd: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const options = /^node((?:\s+--\S+)*)\s+dist\/server\/main\.js$/.exec((scripts.serve ?? '').trim())?.[1] ?? '';
  return options.split(/\s+/).filter(Boolean);
}

export async function startServerProcess(env: Record<string, string>, bundle = 'dist/server/main.js', cwd = ROOT, startSeconds = 60) {
  const port = await freePort();
  // BENCH_PROFILE_DIR=/some/dir writes a CPU profile of the portal process there (node --cpu-prof).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...serverNodeOptions(cwd), ...profile, bundle], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      const response = await fetch(`${url}/oga/openapi.json`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || tries > startSeconds * 10) throw new Error('the portal process did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Sequential requests (one user at a time): median and p95 in ms. */
async function latency(url: string, token: string, samples = SAMPLES) {
  const times: number[] = [];
  for (let i = 0; i < samples + 3; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { code: number };
    if (body.code !== 200) throw new Error(`${url}: answered ${JSON.stringify(body).slice(0, 200)}`);
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95) };
}

/** INGEST_WORKERS clients posting batches of BATCH new scans (new leads) for INGEST_SECONDS. */
async function ingestion(url: string, token: string, eventCode: string) {
  const deadline = Date.now() + INGEST_SECONDS * 1000;
  let scans = 0;
  const started = performance.now();
  const worker = async (w: number) => {
    for (let batch = 0; Date.now() < deadline; batch++) {
      const body = {
        scans: Array.from({ length: BATCH }, (_, i) => ({
          clientScanId: `bench-${w}-${batch}-${i}`,
          // New badges (one lead per visitor per exhibitor: the loaded visitors all are leads).
          badgeCode: `${eventCode}-B${w}-${batch}-${i}`,
          scannedAt: new Date().toISOString(),
        })),
      };
      const response = await fetch(`${url}${LEADS_API.scans}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { code: number };
      if (answer.code !== 200) throw new Error(`scan batch answered ${JSON.stringify(answer).slice(0, 200)}`);
      scans += BATCH;
    }
  };
  await Promise.all(Array.from({ length: INGEST_WORKERS }, (_, w) => worker(w)));
  return scans / ((performance.now() - started) / 1000);
}

/**
 * One HTTP POST of a JSON body on the given agent (node:http): the answer's envelope. The burst
 * uses it rather than fetch: fetch's one shared connection pool queues a burst's requests in the
 * client and opens their connections one at a time, so "fifty devices at once" became a queue
 * inside the benchmark (its p99 measured that queue, not the server).
 */
export function postJson(agent: Agent, url: string, token: string, body: string) {
  return new Promise<{ code: number }>((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        timeout: 30_000,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(text) as { code: number });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * BURST_CLIENTS clients each posting BURST_ROUNDS batches of BATCH new scans back to back, all at
 * once, each on a connection of its own (a device each): the latency of every batch, as the
 * scanning app waits for it.
 */
async function concurrentBatches(url: string, token: string, eventCode: string) {
  const times: number[] = [];
  let failed = 0;
  const client = async (c: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < BURST_ROUNDS; round++) {
        const body = JSON.stringify({
          scans: Array.from({ length: BATCH }, (_, i) => ({
            clientScanId: `burst-${c}-${round}-${i}`,
            badgeCode: `${eventCode}-C${c}-${round}-${i}`,
            scannedAt: new Date().toISOString(),
          })),
        });
        const started = performance.now();
        try {
          const answer = await postJson(agent, `${url}${LEADS_API.scans}`, token, body);
          if (answer.code !== 200) failed++;
        } catch {
          failed++;
        }
        times.push(performance.now() - started);
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: BURST_CLIENTS }, (_, c) => client(c)));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1]!, requests: times.length, failed };
}

/** One XLSX export of the first team user's EXPORT_ROWS leads, made and downloaded; RSS sampled every 20 ms. */
async function exportXlsx(server: { url: string; pid: number }, token: string, scannedBy: number) {
  const before = rssMb(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 20);
  const started = performance.now();
  try {
    const made = await fetch(`${server.url}${LEADS_API.exports}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'xlsx', filters: { scannedBy } }),
    }).then((r) => r.json() as Promise<{ code: number; data: { id: number; rows: number } }>);
    if (made.code !== 200) throw new Error(`export answered ${JSON.stringify(made).slice(0, 200)}`);
    const file = await fetch(`${server.url}${LEADS_API.exports}/${made.data.id}/file`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = (await file.arrayBuffer()).byteLength;
    if (!file.ok || bytes < 1000) throw new Error(`the export's file answered ${file.status} with ${bytes} bytes`);
    return { seconds: (performance.now() - started) / 1000, bytes, rssBefore: before, rssPeak: Math.max(peak, rssMb(server.pid)) };
  } finally {
    clearInterval(sampler);
  }
}

function ensureServerBuilt() {
  if (existsSync(join(ROOT, 'dist/server/main.js'))) return;
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('bundling the server failed');
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/**
 * Which indexes of the lead tables the portal's queries read during the run (PostgreSQL's
 * statistics, reset after the bulk load): every index costs each new lead an update, so one that
 * no case reads is a candidate to drop. Inserts and unique checks do not count as scans.
 */
async function indexUsage(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('select pg_stat_reset()');
  await client.end();
  return {
    print: async () => {
      const reader = new pg.Client({ connectionString: databaseUrl });
      await reader.connect();
      try {
        // The statistics collector reports with a delay of up to a second.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const result = await reader.query<{ table: string; index: string; scans: string; size: string }>(
          `select relname as table, indexrelname as index, idx_scan::text as scans, pg_size_pretty(pg_relation_size(indexrelid)) as size
             from pg_stat_user_indexes where relname in ('leads', 'lead_scans') order by relname, idx_scan desc, indexrelname`,
        );
        console.log(`  index reads during the cases above (${[...CASES].join(', ')}):`);
        for (const row of result.rows) console.log(`    ${`${row.table}.${row.index}`.padEnd(42)} ${row.scans.padStart(8)} scans  ${row.size}`);
      } finally {
        await reader.end();
      }
    },
  };
}

/** The same export in a process of its own (scripts/bench/export-alone.ts): the export's own memory. */
async function exportAlone(env: Record<string, string>, participationId: number, offsetMinutes: number, scannedBy: number) {
  // Bundled like the server, so the process carries no TypeScript loader.
  // Inside the project, so its packages resolve from node_modules.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, '.tmp', 'export-alone-'));
  await build({ entryPoints: [join(ROOT, 'scripts/bench/export-alone.ts')], outdir, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'warning' });
  const child = spawn(process.execPath, [join(outdir, 'export-alone.js'), String(participationId), String(offsetMinutes), String(scannedBy)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  rmSync(outdir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`export-alone exited with ${code}`);
  const result = JSON.parse(output.trim().split('\n').pop()!) as { rows: number; seconds: number; bytes: number; rssBeforeMb: number; rssPeakMb: number };
  console.log(
    // Not the budget's measure (that is the export in the portal, above the resting server): a
    // fresh process's heap, and the embedded database's memory, grow from nothing during its one export.
    `  the same export alone in a fresh process     ${result.seconds.toFixed(1).padStart(6)} s  ${result.rows.toLocaleString('en')} rows  RSS ${result.rssBeforeMb.toFixed(0)} → peak ${result.rssPeakMb.toFixed(0)} MB (its heaps grow from a fresh start; the budget is judged in the portal above)`,
  );
}

/** The server's CPU (and, on PostgreSQL, the database's execution time) over one case, per operation. */
async function work<T>(server: { pid: number }, dbTime: DatabaseTime | null, operations: (result: T) => number, run: () => Promise<T>) {
  await dbTime?.reset();
  const measured = await withCpu(server.pid, run);
  const dbMs = dbTime ? await dbTime.read() : null;
  return { result: measured.result, work: `${perOperation(operations(measured.result), measured.cpuMs, dbMs)}  ${measured.load}` };
}

type Loaded = { users: number[]; eventCode: string; largest: number; startsAt: Date; offsetMinutes: number };

/** The event day (YYYY-MM-DD, event time) `days` after the event's first. */
function eventDayOf(loaded: Loaded, days: number) {
  return new Date(new Date(loaded.startsAt).getTime() + loaded.offsetMinutes * 60_000 + days * 86_400_000).toISOString().slice(0, 10);
}

async function measure(engine: string, leads: number, server: { url: string; pid: number }, loaded: Loaded, dbTime: DatabaseTime | null) {
  const exportUser = loaded.users[0]!;
  const token = await loginToken(server.url);
  const shape = EXHIBITORS > 1 ? `${EXHIBITORS.toLocaleString('en')} exhibitors, the measured one holding ${loaded.largest.toLocaleString('en')}` : 'one exhibitor';
  console.log(`\n## Lead capture on ${engine}, ${leads.toLocaleString('en')} leads in one event (${shape}), ${machineLoad()}`);
  // Wall-clock figures queue behind the other work on a shared machine; "CPU" is the portal process's
  // own CPU time per request (and "DB" PostgreSQL's execution time per request): the work a budget costs.
  if (CASES.has('dashboard')) {
    const { result: dashboard, work: spent } = await work(
      server,
      dbTime,
      () => SAMPLES + 3,
      () => latency(`${server.url}${LEADS_API.dashboard}`, token),
    );
    console.log(
      `  dashboard, all widgets (one call)        median ${dashboard.median.toFixed(1).padStart(6)} ms  p95 ${dashboard.p95.toFixed(1).padStart(6)} ms  budget ${BUDGET.dashboardP95Ms} ms: ${verdict(dashboard.p95 <= BUDGET.dashboardP95Ms)}  ${spent}`,
    );
  }
  const listCases: Array<[string, string]> = [
    ['list, page 1 (20, newest first)', '?page=1&limit=20'],
    ['list, page 50', '?page=50&limit=20'],
    ['list, temperature hot', '?page=1&limit=20&temperature=hot'],
    ['list, country + lead type', '?page=1&limit=20&country=Japan&leadType=partner'],
    ['list, keyword (one visitor: badge code)', '?page=1&limit=20&keyword=V0004242'],
    ['list, keyword (5% of leads: "lotus")', '?page=1&limit=20&keyword=lotus'],
    ['list, follow-up "arrange a call"', '?page=1&limit=20&followUp=arrangeCall'],
    ['list, not qualified (type unset)', '?page=1&limit=20&leadType=none'],
    ['list, one team user', `?page=1&limit=20&scannedBy=${loaded.users[3] ?? loaded.users[0]}`],
    ['list, second show day', `?page=1&limit=20&from=${eventDayOf(loaded, 1)}&to=${eventDayOf(loaded, 1)}`],
    [
      'list, day + temperature + team user',
      `?page=1&limit=20&from=${eventDayOf(loaded, 1)}&to=${eventDayOf(loaded, 1)}&temperature=warm&scannedBy=${loaded.users[3] ?? loaded.users[0]}`,
    ],
    ['list, keyword + hot', '?page=1&limit=20&keyword=lotus&temperature=hot'],
    ['list, sorted by name, page 10', '?page=10&limit=20&sort=name&order=asc'],
    ['list, sorted by company', '?page=1&limit=20&sort=company&order=desc'],
    ['list, last page (deep offset)', `?page=${Math.max(1, Math.floor(loaded.largest / 50))}&limit=50`],
    ...keywordCases(),
  ];
  // Side by side: "before" counts every match (exactTotal=true, what every page did),
  // "after" is the page as the list asks for it (rollup estimate, keyword counted up to 1,000).
  if (CASES.has('list')) console.log(`  ${`lead list (p95 budget ${BUDGET.listP95Ms}${' ms)'.padEnd(42)}`} ${'before: exact total'.padEnd(30)} after: list as served`);
  for (const [name, query] of CASES.has('list') ? listCases : []) {
    const { result: before } = await work(
      server,
      dbTime,
      () => SAMPLES + 3,
      () => latency(`${server.url}${LEADS_API.list}${query}&exactTotal=true`, token),
    );
    const { result: after, work: spent } = await work(
      server,
      dbTime,
      () => SAMPLES + 3,
      () => latency(`${server.url}${LEADS_API.list}${query}`, token),
    );
    const kind = (await (await fetch(`${server.url}${LEADS_API.list}${query}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { total: number; totalKind?: string };
    };
    console.log(
      `  ${name.padEnd(42)} p95 ${before.p95.toFixed(1).padStart(6)} ms (median ${before.median.toFixed(1).padStart(5)})  p95 ${after.p95.toFixed(1).padStart(6)} ms (median ${after.median.toFixed(1).padStart(5)})  total ${kind.data.totalKind ?? 'exact'} ${kind.data.total.toLocaleString('en')}: ${verdict(after.p95 <= BUDGET.listP95Ms)}  after: ${spent}`,
    );
  }
  if (CASES.has('list')) await measureDeepPage(server, token, loaded, dbTime);
  if (CASES.has('scans')) await measureScans(server, token, loaded, dbTime, engine.startsWith('PostgreSQL'));
  if (CASES.has('export')) {
    const { result: exported, work: spent } = await work(
      server,
      dbTime,
      () => 1,
      () => exportXlsx(server, token, exportUser),
    );
    console.log(
      `  XLSX export of ${EXPORT_ROWS.toLocaleString('en')} leads, in the portal ${exported.seconds.toFixed(1).padStart(6)} s  ${(exported.bytes / 1048576).toFixed(1)} MB file  RSS ${exported.rssBefore.toFixed(0)} → peak ${exported.rssPeak.toFixed(0)} MB (+${(exported.rssPeak - exported.rssBefore).toFixed(0)})  budget ${BUDGET.exportSeconds} s / +${BUDGET.exportRssAboveRestMb} MB: ${verdict(exported.seconds <= BUDGET.exportSeconds && exported.rssPeak - exported.rssBefore <= BUDGET.exportRssAboveRestMb)}  ${spent}`,
    );
  }
}

/**
 * A keyword alone in each sort, by how many of the exhibitor's leads it matches (one badge, tens,
 * hundreds, over a thousand with its matches late in the name order, nearly all) and language
 * (a Japanese word of two characters and a Chinese one of one: no trigram; Vietnamese with
 * diacritics). BENCH_LEADS_KEYWORDS=a,b replaces the keywords.
 */
function keywordCases(): Array<[string, string]> {
  const keywords = process.env.BENCH_LEADS_KEYWORDS?.split(',') ?? [
    'V0004242',
    'yuki tanaka',
    'lotus foods',
    'tanaka',
    'yuki',
    'example',
    '東京',
    '茶',
    '京都',
    '蘭',
    'qx',
    'nguyễn',
    'đà nẵng',
  ];
  const sorts: Array<[string, string]> = [
    ['newest', 'sort=scannedAt&order=desc'],
    ['by name', 'sort=name&order=asc'],
    ['by company', 'sort=company&order=asc'],
  ];
  return keywords.flatMap((keyword) =>
    sorts.map(([label, sort]): [string, string] => [`list, keyword "${keyword}" ${label}`, `?page=1&limit=20&keyword=${encodeURIComponent(keyword)}&${sort}`]),
  );
}

/**
 * The exhibitor's last page of 50 both ways on the same data: by page number (an offset: every
 * lead before it is read and skipped) and by keyset (`after` = the previous page's `next`: one
 * range read from the index).
 */
async function measureDeepPage(server: { url: string; pid: number }, token: string, loaded: Loaded, dbTime: DatabaseTime | null) {
  const lastPage = Math.max(2, Math.floor(loaded.largest / 50));
  const previous = (await (await fetch(`${server.url}${LEADS_API.list}?page=${lastPage - 1}&limit=50`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    data: { next?: string | null };
  };
  if (!previous.data.next) {
    console.log('  last page by keyset: this build gives no `next` (no keyset paging)');
    return;
  }
  const { result: byOffset } = await work(
    server,
    dbTime,
    () => SAMPLES + 3,
    () => latency(`${server.url}${LEADS_API.list}?page=${lastPage}&limit=50`, token),
  );
  const { result: byKeyset, work: spent } = await work(
    server,
    dbTime,
    () => SAMPLES + 3,
    () => latency(`${server.url}${LEADS_API.list}?limit=50&after=${previous.data.next}`, token),
  );
  console.log(
    `  ${`list, page ${lastPage} of 50: offset → keyset`.padEnd(42)} p95 ${byOffset.p95.toFixed(1).padStart(6)} ms (median ${byOffset.median.toFixed(1).padStart(5)})  p95 ${byKeyset.p95.toFixed(1).padStart(6)} ms (median ${byKeyset.median.toFixed(1).padStart(5)})  keyset: ${verdict(byKeyset.p95 <= BUDGET.listP95Ms)}  keyset: ${spent}`,
  );
}

async function measureScans(server: { url: string; pid: number }, token: string, loaded: { eventCode: string }, dbTime: DatabaseTime | null, onPostgres: boolean) {
  const scansBudget = onPostgres ? BUDGET.postgresScansPerSecond : BUDGET.pgliteScansPerSecond;
  const { result: rate, work: ingestWork } = await work(
    server,
    dbTime,
    (scansPerSecond) => Math.max(1, Math.round((scansPerSecond * INGEST_SECONDS) / BATCH)),
    () => ingestion(server.url, token, loaded.eventCode),
  );
  console.log(
    `  ingestion, batches of ${BATCH}, ${INGEST_WORKERS} clients     ${rate.toFixed(0).padStart(7)} scans/s  budget ${scansBudget}: ${verdict(rate >= scansBudget)}  per batch: ${ingestWork}`,
  );
  const { result: burst, work: burstWork } = await work(
    server,
    dbTime,
    (result) => result.requests,
    () => concurrentBatches(server.url, token, loaded.eventCode),
  );
  console.log(
    `  ${BATCH}-scan batches from ${BURST_CLIENTS} connections at once  p50 ${burst.p50.toFixed(0).padStart(5)} ms  p99 ${burst.p99.toFixed(0).padStart(5)} ms  max ${burst.max.toFixed(0)} ms  (${burst.requests} batches, ${burst.failed} failed)  budget p99 ${BUDGET.burstP99Ms} ms: ${verdict(burst.p99 <= BUDGET.burstP99Ms && burst.failed === 0)}  per batch: ${burstWork}`,
  );
}

export async function leadsBenchmarks(options: { postgresLeads?: number; pgliteLeads?: number } = {}) {
  ensureServerBuilt();
  const postgresLeads = options.postgresLeads ?? Number(process.env.BENCH_PG_LEADS ?? 1_000_000);
  const pgliteLeads = options.pgliteLeads ?? Number(process.env.BENCH_PGLITE_LEADS ?? 100_000);
  const log = (line: string) => console.log(line);

  // PostgreSQL
  let postgres;
  try {
    // BENCH_PG_LEADS=0 skips PostgreSQL, BENCH_PGLITE_LEADS=0 the embedded database.
    if (postgresLeads > 0) postgres = await startPostgres({ statStatements: true });
  } catch (error) {
    console.log(`\n(PostgreSQL not available: ${(error as Error).message})`);
  }
  if (postgres) {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-leads-pg-'));
    try {
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      await admin.query('create database bench_leads');
      await admin.end();
      const databaseUrl = postgres.adminUrl.replace(/\/postgres$/, '/bench_leads');
      const opened = await openDatabase({ databaseUrl });
      await migrateToLatest(opened.db);
      await seedDemo(opened.db);
      log(`\n  loading ${postgresLeads.toLocaleString('en')} leads into PostgreSQL…`);
      const loaded = await loadShow(opened.db, postgresLeads, log);
      log(`    ${(postgresLeads / loaded.loadSeconds).toFixed(0)} rows/s with indexes and rollup triggers`);
      await opened.close();
      const indexUse = await indexUsage(databaseUrl);
      const server = await startServerProcess({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
      const dbTime = await databaseTime(databaseUrl);
      try {
        await measure('PostgreSQL', postgresLeads, server, loaded, dbTime);
      } finally {
        await dbTime?.close();
        await server.stop();
      }
      await indexUse.print();
      if (CASES.has('export')) await exportAlone({ DATABASE_URL: databaseUrl }, loaded.participationId, loaded.offsetMinutes, loaded.users[0]!);
    } finally {
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  // PGlite (embedded): loaded before the portal opens the same data directory.
  if (pgliteLeads === 0) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-leads-pglite-'));
  try {
    const opened = await openDatabase({ pgliteDir: defaultPgliteDir(dataDir) });
    await migrateToLatest(opened.db);
    await seedDemo(opened.db);
    log(`\n  loading ${pgliteLeads.toLocaleString('en')} leads into PGlite…`);
    const loaded = await loadShow(opened.db, pgliteLeads, log);
    await opened.close();
    const server = await startServerProcess({ DATA_DIR: dataDir });
    try {
      await measure('PGlite', pgliteLeads, server, loaded, null);
    } finally {
      await server.stop();
    }
    if (CASES.has('export')) await exportAlone({ DATA_DIR: dataDir }, loaded.participationId, loaded.offsetMinutes, loaded.users[0]!);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
