import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/server/db/connection';
import type { Database } from '../../src/server/db/schema';
import { seedDemo } from '../../src/server/db/seed';
import { ingestScans, type Scanner } from '../../src/server/modules/leads/scans';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { loadShow } from './leads';
import { DEMO_ACCOUNT } from './support';
import { cpuMs, machineLoad, postgresCpuMs } from './work';

// LD1: where PostgreSQL's CPU goes per scan (`npm run bench -- scan-cost`). The scan path
// (ingestScans, the statement prepared as the portal runs it) is driven from this process by
// SCAN_COST_DEVICES concurrent batches of 100 new scans, of known visitors (SCAN_COST_BADGES=known,
// the default: full profiles, so the keyword index gets a real lead's text) or of unknown badges
// (=unknown: what the leads and big-show benches send), and the whole PostgreSQL server's CPU
// (backends, WAL writer, autovacuum…) is read from /proc per scan, with the WAL written per scan.
// Variants switch one thing off on the same data (an index left out of inserts, the foreign keys'
// checks or the rollup trigger disabled, the keyword index's pending list), each measured between
// two baselines (SCAN_COST_VARIANTS=a,b picks them by name, "none" runs the baseline only;
// SCAN_COST_REPEAT=3 measures them three times in turn); the
// leads a case made are deleted and the table vacuumed before the next. SCAN_COST_PERF=1 samples
// the server's stacks with `perf` during the baseline and prints its CPU per part of the work.
// The cluster is kept in SCAN_COST_DIR (default .tmp/scan-cost; delete it when done) and filled
// once with SCAN_COST_LEADS leads (BENCH_EXHIBITORS / BENCH_LARGEST_LEADS shape them as in the
// leads bench); SCAN_COST_SETTINGS="-c fsync=on …" starts it with other settings (the tests' own
// cluster runs without fsync, full-page writes or synchronous commit).

const DIR = process.env.SCAN_COST_DIR ?? join(ROOT, '.tmp/scan-cost');
const LEADS = Number(process.env.SCAN_COST_LEADS ?? 1_000_000);
const DEVICES = Number(process.env.SCAN_COST_DEVICES ?? 20);
const BATCHES = Number(process.env.SCAN_COST_BATCHES ?? 300);
const BATCH = 100;
const MODE = process.env.SCAN_COST_BADGES ?? 'known';
/** Variants to run (comma-separated names; all when unset). */
const ONLY = process.env.SCAN_COST_VARIANTS?.split(',').map((name) => name.trim());
/** Server settings (e.g. "-c shared_buffers=1GB") for the cluster, besides the tests' own. */
const SERVER_SETTINGS = process.env.SCAN_COST_SETTINGS ?? '';
const PERF = Boolean(process.env.SCAN_COST_PERF);
/** Times each variant is measured (in turn, each between two baselines): noise shows as their spread. */
const REPEAT = Number(process.env.SCAN_COST_REPEAT ?? 1);

interface Variant {
  name: string;
  on?: string[];
  off?: string[];
}

const notReady = (index: string): Variant => ({
  name: `without ${index}`,
  on: [`update pg_index set indisready = false where indexrelid = '${index}'::regclass`],
  off: [`update pg_index set indisready = true where indexrelid = '${index}'::regclass`],
});

/** `npm run bench -- scan-cost`: where PostgreSQL's CPU per scan goes (not part of a full run: it keeps its own cluster). */
export async function scanCostBenchmarks() {
  mkdirSync(DIR, { recursive: true });
  const fresh = !existsSync(join(DIR, 'data', 'PG_VERSION'));
  const postgres = await startPostgres({ statStatements: true, keepDir: DIR, extraArgs: SERVER_SETTINGS.split(/\s+/).filter(Boolean) });
  try {
    const databaseUrl = postgres.adminUrl.replace(/\/postgres$/, '/bench_scans');
    if (fresh) {
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      await admin.query('create database bench_scans');
      await admin.end();
      const opened = await openDatabase({ databaseUrl });
      await migrateToLatest(opened.db);
      await seedDemo(opened.db);
      console.log(`loading ${LEADS.toLocaleString('en')} leads…`);
      await loadShow(opened.db, LEADS, (line) => console.log(line));
      await sql`vacuum analyze leads`.execute(opened.db);
      await opened.close();
    } else {
      const opened = await openDatabase({ databaseUrl });
      await migrateToLatest(opened.db);
      await opened.close();
    }
    const admin = new pg.Client({ connectionString: databaseUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.query('create extension if not exists pg_stat_statements');
    const settings = await admin.query<{ name: string; setting: string; unit: string | null }>(
      `select name, setting, unit from pg_settings where name in ('shared_buffers','wal_level','synchronous_commit','fsync','wal_compression','full_page_writes','max_wal_size','checkpoint_timeout','autovacuum','work_mem') order by name`,
    );
    console.log(`settings: ${settings.rows.map((row) => `${row.name}=${row.setting}${row.unit ?? ''}`).join(' ')}`);
    const indexes = await admin.query<{ name: string; mb: string }>(
      `select c.relname as name, (pg_relation_size(c.oid) / 1048576.0)::numeric(10,1)::text as mb from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'leads'::regclass order by 1`,
    );
    const leadCount = (await admin.query<{ n: string }>('select count(*)::text as n from leads')).rows[0]!.n;
    console.log(
      `leads: ${Number(leadCount).toLocaleString('en')} rows, ${(await admin.query<{ mb: string }>(`select (pg_relation_size('leads') / 1048576)::text as mb`)).rows[0]!.mb} MB; indexes (MB): ${indexes.rows.map((row) => `${row.name} ${row.mb}`).join(', ')}`,
    );

    const opened = await openDatabase({ databaseUrl, poolSize: DEVICES });
    const db = opened.db;
    const scanner = await scannerOf(db);
    const serverCpu = postgresCpuMs(Number((await admin.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid));
    // Known visitors the demo exhibitor has no lead of yet (leads are deleted after each variant, so they are used again).
    const badges =
      MODE === 'known'
        ? (
            await admin.query<{ badge_code: string }>(
              `select v.badge_code from visitors v where v.event_id = $1 and not exists (select 1 from leads l where l.participation_id = $2 and l.badge_code = v.badge_code) order by v.id limit $3`,
              [scanner.eventId, scanner.participationId, DEVICES * BATCHES * BATCH],
            )
          ).rows.map((row) => row.badge_code)
        : [];
    if (MODE === 'known' && badges.length < BATCHES * BATCH) throw new Error(`only ${badges.length} visitors without a lead`);

    let round = 0;
    const run = async (label: string) => {
      round++;
      const prefix = `cost-${round}-`;
      await admin.query('select pg_stat_statements_reset()');
      const walBefore = (
        await admin.query<{ bytes: string; fpi: string; records: string }>('select wal_bytes::text as bytes, wal_fpi::text as fpi, wal_records::text as records from pg_stat_wal')
      ).rows[0]!;
      const profile = PERF && label === 'baseline' && round === 2 ? startPerf() : null;
      const pgBefore = serverCpu();
      const nodeBefore = cpuMs();
      const started = performance.now();
      let next = 0;
      const device = async (d: number) => {
        for (;;) {
          const batch = next++;
          if (batch >= BATCHES) return;
          const at = new Date().toISOString();
          const scans = Array.from({ length: BATCH }, (_, i) => ({
            clientScanId: `${prefix}${batch}-${i}`,
            badgeCode: MODE === 'known' ? badges[batch * BATCH + i]! : `UNKNOWN-${prefix}${batch}-${i}`,
            scannedAt: at,
          }));
          const outcome = await ingestScans(db, { ...scanner, userId: scanner.userId }, scans, Date.now());
          if (outcome.created !== BATCH) throw new Error(`batch ${batch} (device ${d}) created ${outcome.created}`);
        }
      };
      await Promise.all(Array.from({ length: DEVICES }, (_, d) => device(d)));
      const seconds = (performance.now() - started) / 1000;
      const pgMs = serverCpu() - pgBefore;
      const parts = profile ? await profile.stop() : null;
      const nodeMs = cpuMs() - nodeBefore;
      const walAfter = (
        await admin.query<{ bytes: string; fpi: string; records: string }>('select wal_bytes::text as bytes, wal_fpi::text as fpi, wal_records::text as records from pg_stat_wal')
      ).rows[0]!;
      const statements = await admin.query<{ calls: string; total: string; query: string; wal: string }>(
        `select calls::text, total_exec_time::text as total, wal_bytes::text as wal, query from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat%' order by total_exec_time desc limit 4`,
      );
      const scans = BATCHES * BATCH;
      const exec = statements.rows.reduce((sum, row) => sum + Number(row.total), 0);
      const perScan = (ms: number) => ((ms * 1000) / scans).toFixed(1).padStart(6);
      console.log(
        `${label.padEnd(44)} PG CPU ${perScan(pgMs)} µs/scan  exec ${perScan(exec)}  Node ${perScan(nodeMs)}  ${(scans / seconds).toFixed(0).padStart(6)} scans/s  WAL ${((Number(walAfter.bytes) - Number(walBefore.bytes)) / scans).toFixed(0)} B/scan (${((Number(walAfter.records) - Number(walBefore.records)) / scans).toFixed(1)} records, ${((Number(walAfter.fpi) - Number(walBefore.fpi)) / scans).toFixed(2)} FPI)  ${machineLoad()}`,
      );
      if (process.env.SCAN_COST_STATEMENTS)
        for (const row of statements.rows)
          console.log(
            `    ${row.calls.padStart(6)} calls  ${perScan(Number(row.total))} µs/scan  WAL ${(Number(row.wal) / scans).toFixed(0)} B/scan  ${row.query.replace(/\s+/g, ' ').slice(0, 90)}`,
          );
      if (parts) {
        const total = [...parts.values()].reduce((sum, n) => sum + n, 0);
        console.log(`  PostgreSQL's CPU by part of the work (perf, ${total} samples of its processes):`);
        for (const [part, n] of parts)
          console.log(`    ${part.padEnd(56)} ${((100 * n) / total).toFixed(1).padStart(5)} %  ${(((pgMs * 1000) / scans) * (n / total)).toFixed(1).padStart(6)} µs/scan`);
      }
      // Back to the same data: the variant's leads deleted (the rollup trigger subtracts them), the table vacuumed.
      await admin.query(`delete from leads where participation_id = $1 and client_scan_id like $2`, [scanner.participationId, `${prefix}%`]);
      await admin.query('vacuum leads');
      return Number(pgMs);
    };

    const fkTriggers = (
      await admin.query<{ name: string }>(`select tgname as name from pg_trigger where tgrelid = 'leads'::regclass and tgisinternal and tgfoid = '"RI_FKey_check_ins"'::regproc`)
    ).rows.map((row) => row.name);
    const variants: Variant[] = [
      ...[
        'leads_keyword_by_participation',
        'leads_search_folded',
        'leads_keyword',
        'leads_by_name',
        'leads_by_company',
        'leads_list',
        'leads_by_user',
        'leads_by_country',
        'leads_by_type',
        'leads_by_temperature',
        'leads_changed',
      ]
        .filter((name) => indexes.rows.some((row) => row.name === name))
        .map(notReady),
      {
        // The foreign keys' checks on insert (one SELECT … FOR KEY SHARE per lead and key).
        name: 'without the foreign key checks',
        on: fkTriggers.map((name) => `alter table leads disable trigger "${name}"`),
        off: fkTriggers.map((name) => `alter table leads enable trigger "${name}"`),
      },
      {
        name: 'without leads_by_name and leads_by_company',
        on: ['leads_by_name', 'leads_by_company'].map((name) => notReady(name).on![0]!),
        off: ['leads_by_name', 'leads_by_company'].map((name) => notReady(name).off![0]!),
      },
      {
        name: 'without the rollup trigger',
        on: ['alter table leads disable trigger leads_rollup_insert'],
        off: ['alter table leads enable trigger leads_rollup_insert'],
      },
    ];
    // The keyword index's pending list: GIN adds new entries to an unsorted list and merges it into
    // the index when it exceeds gin_pending_list_limit (kB); off, each entry goes into the index at once.
    const keywordIndex = 'leads_keyword_by_participation';
    const pendingLimit = (await admin.query<{ options: string[] | null }>(`select reloptions as options from pg_class where relname = $1`, [keywordIndex])).rows[0]?.options ?? [];
    const restore = [
      `alter index ${keywordIndex} reset (fastupdate, gin_pending_list_limit)`,
      ...pendingLimit.map((option) => `alter index ${keywordIndex} set (${option})`),
      `select gin_clean_pending_list('${keywordIndex}')`,
    ];
    const ginVariants: Variant[] = [
      { name: 'keyword index fastupdate off', on: [`select gin_clean_pending_list('${keywordIndex}')`, `alter index ${keywordIndex} set (fastupdate = off)`], off: restore },
      ...[1024, 4096, 16384].map((kb) => ({ name: `keyword index pending list ${kb} kB`, on: [`alter index ${keywordIndex} set (gin_pending_list_limit = ${kb})`], off: restore })),
    ];
    // The last: every non-unique index of leads left out at once.
    const secondary = indexes.rows.map((row) => row.name).filter((name) => !/pkey|participation_badge|participation_scan/.test(name));
    variants.push({
      name: 'without every non-unique index',
      on: secondary.map((name) => notReady(name).on![0]!),
      off: secondary.map((name) => notReady(name).off![0]!),
    });

    variants.splice(variants.length - 1, 0, ...ginVariants);
    if (ONLY?.includes('none')) variants.length = 0;
    console.log(`\n${MODE} badges, ${DEVICES} devices, ${BATCHES} batches of ${BATCH} per case`);
    await run('warm-up');
    await run('baseline');
    for (const variant of Array.from({ length: REPEAT }, () => variants).flat()) {
      if (ONLY && !ONLY.some((name) => variant.name.includes(name))) continue;
      for (const statement of variant.on ?? []) await admin.query(statement);
      try {
        await run(variant.name);
      } finally {
        for (const statement of variant.off ?? []) await admin.query(statement);
      }
      await run('baseline');
    }
    await opened.close();
    await admin.end();
  } finally {
    await postgres.stop();
  }
}

/**
 * Each sampled stack of a PostgreSQL process counted under the first part whose test it meets
 * (outermost first: an index lookup inside a foreign key's check counts as the check).
 */
const PARTS: Array<[string, (frames: Set<string>, all: string[]) => boolean]> = [
  ['autovacuum, checkpointer, background writer', (f) => ['AutoVacWorkerMain', 'CheckpointerMain', 'BackgroundWriterMain'].some((n) => f.has(n))],
  ['WAL writer and flushes', (f) => ['WalWriterMain', 'XLogFlush', 'XLogBackgroundFlush', 'XLogWrite'].some((n) => f.has(n))],
  ['rollup trigger (lead_rollup upsert)', (f) => f.has('plpgsql_exec_trigger')],
  ['foreign key checks (one SELECT … FOR KEY SHARE per lead and key)', (f, all) => f.has('SPI_execute_snapshot') || all.some((n) => n.startsWith('RI_FKey'))],
  ['keyword index (GIN): merging its pending list', (f) => f.has('ginInsertCleanup')],
  ['keyword index (GIN): trigrams and pending list', (f) => f.has('gininsert')],
  ['btree inserts (leads: pkey, 2 unique, 7 others)', (f) => f.has('btinsert')],
  ['ON CONFLICT checks of the unique indexes', (f) => f.has('ExecCheckIndexConstraints')],
  ['heap inserts and updates', (f) => ['heap_insert', 'heap_update'].some((n) => f.has(n))],
  ['the JSON of the scans (jsonb_in, jsonb_to_recordset)', (f) => ['jsonb_in', 'pg_parse_json', 'jsonb_to_recordset'].some((n) => f.has(n))],
  ['parsing the EXECUTE', (f) => ['raw_parser', 'pg_parse_query'].some((n) => f.has(n))],
  ['executor start and end', (f) => ['standard_ExecutorStart', 'standard_ExecutorEnd', 'GetCachedPlan'].some((n) => f.has(n))],
  ['index lookups (resends, known badges, visitors)', (f) => ['index_getnext_slot', 'index_getnext_tid', 'index_fetch_heap'].some((n) => f.has(n))],
  ["the statement's joins, sorts, windows and CTEs", (_f, all) => all.some((n) => n.startsWith('Exec') || n.startsWith('tuplesort') || n.startsWith('AfterTrigger'))],
  ['commit, protocol and the rest', () => true],
];

/** `perf record` of the whole machine until stop(), then the postgres processes' samples counted by PARTS. */
function startPerf() {
  const file = join(DIR, 'perf.data');
  const child = spawn('perf', ['record', '-a', '-F', '499', '--call-graph', 'dwarf,16384', '-o', file], { stdio: 'ignore' });
  return {
    stop: async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      const script = spawnSync('perf', ['script', '-i', file, '--comm', 'postgres', '-F', 'comm,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30 });
      rmSync(file, { force: true });
      const counts = new Map<string, number>(PARTS.map(([name]) => [name, 0]));
      for (const sample of script.stdout.split(/\n(?=postgres)/)) {
        const frames = sample
          .split('\n')
          .slice(1)
          .map((line) => line.trim().split(/\s+/)[1] ?? '')
          .filter(Boolean);
        if (frames.length === 0) continue;
        const set = new Set(frames);
        const part = PARTS.find(([, test]) => test(set, frames))![0];
        counts.set(part, counts.get(part)! + 1);
      }
      return counts;
    },
  };
}

async function scannerOf(db: Kysely<Database>): Promise<Scanner> {
  const row = await db
    .selectFrom('users')
    .innerJoin('participations', 'participations.id', 'users.participation_id')
    .innerJoin('events', 'events.id', 'participations.event_id')
    .select(['users.id as userId', 'users.role', 'participations.id as participationId', 'events.id as eventId', 'events.utc_offset_minutes as offsetMinutes'])
    .where('users.login_key', '=', DEMO_ACCOUNT.account)
    .executeTakeFirstOrThrow();
  return { ...row, leadQuota: null };
}
