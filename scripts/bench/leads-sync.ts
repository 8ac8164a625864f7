import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/connection';
import { insertLeads, insertVisitors, scanningPeople } from '../../src/server/db/demo-leads';
import { createDatabase, startPostgres } from '../../tests/support/postgres';
import { beforeRevision, buildAfter, buildBefore, type ServerBuild } from './big-show-data';
import { startServerProcess } from './leads';
import { DEMO_ACCOUNT, loginToken } from './support';
import { cpuMs, databaseTime, machineLoad, percentile } from './work';

// LD5: a CRM's first incremental sync of an exhibitor's 100,000 leads through the leads API: an
// API key, `GET /oga/leads?updatedSince=…` then `cursor=next` until `hasMore` is false, 1,000 a
// page, from this process over HTTP to the portal running in a process of its own (as a CRM
// would), on PostgreSQL. The landed revision (BENCH_BEFORE, by default the merge-base with main;
// `none` = this tree alone) and this tree run side by side, in alternating rounds, each on its own
// copy of one data set; per sync: total seconds, page p50/p95, the portal's CPU ms and
// PostgreSQL's execution ms per page (pg_stat_statements), and the machine's load.

const SYNC_LEADS = Number(process.env.BENCH_SYNC_LEADS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 2);
const BATCH = 1000;
const SYNC_BUDGET_SECONDS = 10;

interface SyncFigures {
  rows: number;
  pages: number;
  seconds: number;
  p50: number;
  p95: number;
  cpuPerPage: number;
  dbPerPage: number | null;
  load: string;
}

async function syncOnce(url: string, key: string, pid: number, dbTime: Awaited<ReturnType<typeof databaseTime>>): Promise<SyncFigures> {
  await dbTime?.reset();
  const cpuBefore = cpuMs(pid);
  let path = `/oga/leads?updatedSince=1970-01-01T00:00:00Z&batchSize=${BATCH}`;
  let rows = 0;
  const pageTimes: number[] = [];
  const seen = new Set<number>();
  const started = performance.now();
  for (;;) {
    const pageStarted = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { code: number; data: { items: Array<{ id: number }>; next: string; hasMore: boolean } };
    pageTimes.push(performance.now() - pageStarted);
    if (body.code !== 200) throw new Error(`sync refused: ${JSON.stringify(body).slice(0, 300)}`);
    for (const item of body.data.items) seen.add(item.id);
    rows += body.data.items.length;
    if (!body.data.hasMore) break;
    path = `/oga/leads?cursor=${encodeURIComponent(body.data.next)}&batchSize=${BATCH}`;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMs(pid) - cpuBefore;
  const dbMs = dbTime ? await dbTime.read() : null;
  if (seen.size !== rows) throw new Error(`sync answered ${rows} rows for ${seen.size} leads`);
  const pages = pageTimes.length;
  return {
    rows,
    pages,
    seconds,
    p50: percentile(pageTimes, 0.5),
    p95: percentile(pageTimes, 0.95),
    cpuPerPage: cpu / pages,
    dbPerPage: dbMs === null ? null : dbMs / pages,
    load: machineLoad(),
  };
}

function line(label: string, figures: SyncFigures, held: number) {
  const met = figures.seconds <= SYNC_BUDGET_SECONDS && figures.rows >= held;
  const db = figures.dbPerPage === null ? '' : `, PG ${figures.dbPerPage.toFixed(1)} ms/page`;
  return `  ${label.padEnd(6)} ${figures.rows.toLocaleString('en')} rows, ${figures.pages} pages: ${figures.seconds.toFixed(2)} s (${Math.round(figures.rows / figures.seconds).toLocaleString('en')} rows/s); page p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms; CPU ${figures.cpuPerPage.toFixed(1)} ms/page${db}; ${figures.load} — aim ${SYNC_BUDGET_SECONDS} s ${met ? 'met' : 'NOT met'}`;
}

/** BENCH_SYNC_STATEMENTS=1: the portal's statements of the last sync by PostgreSQL's time, with a plan of the page read. */
async function printStatements(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const top = await client.query<{ calls: string; mean: string; query: string }>(
      `select calls, round(mean_exec_time::numeric, 2) as mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'
        order by total_exec_time desc limit 4`,
    );
    for (const row of top.rows) console.log(`      ${row.calls} × ${row.mean} ms  ${row.query}`);
  } finally {
    await client.end();
  }
}

export async function leadsSyncBenchmarks() {
  const revision = beforeRevision();
  const builds: ServerBuild[] = [...(revision ? [buildBefore(revision)] : []), buildAfter()];
  const postgres = await startPostgres({ statStatements: true });
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-bench-sync-'));
    dataDirs.push(dir);
    return dir;
  };
  try {
    // The data set, on the oldest schema compared (later migrations run when each portal starts).
    const templateUrl = await createDatabase(postgres.adminUrl, 'bench_sync_template');
    const seeding = await startServerProcess({ DATA_DIR: dataDir(), DATABASE_URL: templateUrl, SEED_DEMO: 'true' }, builds[0]!.bundle, builds[0]!.cwd, 300);
    let key: string;
    try {
      const bearer = await loginToken(seeding.url);
      const created = await fetch(`${seeding.url}/oga/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'CRM bench', scopes: ['leads:read'] }),
      });
      key = ((await created.json()) as { data: { key: string } }).data.key;
    } finally {
      await seeding.stop();
    }
    const opened = await openDatabase({ databaseUrl: templateUrl });
    let held: number;
    try {
      const db = opened.db;
      const participation = await db
        .selectFrom('users')
        .innerJoin('participations', 'participations.id', 'users.participation_id')
        .innerJoin('events', 'events.id', 'participations.event_id')
        .select(['participations.id', 'participations.event_id', 'events.code', 'events.starts_at', 'events.ends_at', 'events.utc_offset_minutes'])
        .where('users.login_key', '=', DEMO_ACCOUNT.account)
        .executeTakeFirstOrThrow();
      const event = { id: participation.event_id, code: participation.code };
      await insertVisitors(db, event, 1, SYNC_LEADS);
      await insertLeads(db, {
        participationId: participation.id,
        eventId: event.id,
        eventCode: event.code,
        offsetMinutes: participation.utc_offset_minutes,
        start: new Date(participation.starts_at),
        end: new Date(participation.ends_at),
        first: 10_000_000 + 1,
        last: 10_000_000 + SYNC_LEADS,
        visitors: SYNC_LEADS,
        unknownEvery: 50,
        qualifiedShare: 0.5,
        scannedBy: (await scanningPeople(db, participation.id)).map((person) => person.id),
      });
      await sql`vacuum analyze leads`.execute(db);
      held = Number(
        (
          await db
            .selectFrom('leads')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('participation_id', '=', participation.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    } finally {
      await opened.close();
    }
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    const portals = [];
    try {
      for (const build of builds) {
        const name = `bench_sync_${build.label}`;
        await admin.query(`create database ${name} template bench_sync_template`);
        const url = new URL(postgres.adminUrl);
        url.pathname = `/${name}`;
        const server = await startServerProcess({ DATA_DIR: dataDir(), DATABASE_URL: url.toString() }, build.bundle, build.cwd, 300);
        portals.push({ build, server, dbUrl: url.toString(), dbTime: await databaseTime(url.toString()) });
      }
    } finally {
      await admin.end();
    }
    try {
      console.log(
        `\n## Leads API incremental sync: ${held.toLocaleString('en')} leads of one exhibitor, API key, ${BATCH.toLocaleString('en')} a page, over HTTP from another process, PostgreSQL; ${portals.map((p) => `${p.build.label} = ${p.build.revision.slice(0, 12)}`).join(', ')}`,
      );
      // A first sync warms each portal (JIT, plans, caches) and is not counted.
      for (const portal of portals) await syncOnce(portal.server.url, key, portal.server.pid, null);
      for (let round = 1; round <= ROUNDS; round++) {
        console.log(` round ${round}`);
        for (const portal of round % 2 === 1 ? portals : [...portals].reverse()) {
          console.log(line(portal.build.label, await syncOnce(portal.server.url, key, portal.server.pid, portal.dbTime), held));
          if (process.env.BENCH_SYNC_STATEMENTS) await printStatements(portal.dbUrl);
        }
      }
    } finally {
      for (const portal of portals) {
        await portal.dbTime?.close();
        await portal.server.stop();
      }
    }
  } finally {
    await postgres.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}
