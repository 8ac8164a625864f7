import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/server/db/connection';
import type { Database } from '../../src/server/db/schema';
import { seedDemo } from '../../src/server/db/seed';
import { startNginx } from '../../tests/support/nginx';
import { freePort } from '../../tests/support/ports';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { jpegJfif } from '../../tests/support/fixtures';
import { multipart } from '../../tests/support/multipart';
import type { Plan, Results } from './load/mix';
import { serverNodeOptions } from './leads';
import { cpuMs, databaseTime, machineLoad, percentile } from './work';

// Several instances under load (README "Several instances"): one, two and four portal processes
// (the bundled server, as production runs it) on one PostgreSQL with FILE_STORE=database, behind
// Debian's nginx balancing them round-robin. A separate load process (scripts/bench/load/mix.ts)
// plays two mixes through nginx:
//  - deadline week: exhibitors (each its own login) saving S04 drafts, submitting, uploading logos;
//    organisers on the progress matrix and the S04 submissions export;
//  - show opening: scanning devices (team users' device tokens), each on its own connection,
//    sending batches of new scans (some resent, some of a visitor another device of the stand scanned).
// Per instance count: throughput, p99, errors, each instance's share of the requests (nginx's
// X-Upstream), the instances' CPU per request and PostgreSQL's execution time per request, and
// afterwards a check that nothing acknowledged was lost or doubled.

const SECONDS = Number(process.env.BENCH_MULTI_SECONDS ?? 15);
/** Seconds of load before the measured ones: each new instance compiles and fills its caches first. */
const WARM_SECONDS = Number(process.env.BENCH_MULTI_WARM_SECONDS ?? 4);
/**
 * Instance counts, each optionally with its pool size (DATABASE_POOL_SIZE): "1,2,4,4:3" also runs
 * four instances of three connections each (12 in all, about what one instance of 10 holds).
 */
const INSTANCE_RUNS = (process.env.BENCH_MULTI_INSTANCES ?? '1,2,4,4:3').split(',').map((run) => {
  const [count, pool] = run.split(':').map(Number);
  return { count: count!, pool: pool ?? 10 };
});
const EXHIBITORS = Number(process.env.BENCH_MULTI_EXHIBITORS ?? 1000);
/** Virtual users of the deadline-week mix playing the exhibitors (each exhibitor one at a time). */
const EXHIBITOR_USERS = Number(process.env.BENCH_MULTI_EXHIBITOR_USERS ?? 60);
const ORGANISERS = 4;
const DEVICES = Number(process.env.BENCH_MULTI_DEVICES ?? 500);
/** Scanning devices per stand: the first DEVICES / DEVICES_PER_STAND exhibitors have them. */
const DEVICES_PER_STAND = 5;
const SCANS_PER_BATCH = Number(process.env.BENCH_MULTI_BATCH ?? 20);
const DATABASE = 'portal_multi_bench';
const FORM = 's04';

interface Instance {
  child: ChildProcess;
  port: number;
  exited: Promise<unknown>;
}

function ensureServerBuilt() {
  if (existsSync(join(ROOT, 'dist/server/main.js'))) return;
  const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('bundling the server failed');
}

async function startInstance(databaseUrl: string, dataDir: string, poolSize: number): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeOptions(ROOT), 'dist/server/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(poolSize),
      FILE_STORE: 'database',
      // Each its own DATA_DIR: nothing may depend on a shared disk.
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-app'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://portal.bench',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      HOUSEKEEPING_SECONDS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let tries = 0; ; tries++) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || tries > 600) throw new Error('a portal instance did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, port, exited };
}

/** Sessions made in one statement (a random token each, only its hash stored, as the portal does): user id → bearer token. */
async function sessionsFor(db: Kysely<Database>, userIds: number[], deviceName: string | null): Promise<Map<number, string>> {
  const rows = await sql<{ user_id: number; token: string }>`
    with made as materialized (
      select u.id as user_id, md5(random()::text || clock_timestamp()::text || u.id) || md5(random()::text || u.id::text) as token
      from users u where u.id = any(${userIds}::int[])
    ), stored as (
      insert into sessions (token_hash, user_id, created_at, last_seen_at, ip, device_name)
      select encode(sha256(convert_to(token, 'UTF8')), 'hex'), user_id, now(), now(), '127.0.0.1', ${deviceName} from made
    )
    select user_id, token from made`.execute(db);
  return new Map(rows.rows.map((row) => [row.user_id, row.token]));
}

/**
 * EXHIBITORS exhibitors in the demo event, each with its own exhibitor login (a copy of the demo
 * exhibitor's participation: modules, flags, deadlines, quotas), and DEVICES team users with
 * device tokens on the first stands, all set-based.
 */
async function population(db: Kysely<Database>) {
  const demo = await db
    .selectFrom('users')
    .innerJoin('participations', 'participations.id', 'users.participation_id')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .innerJoin('events', 'events.id', 'participations.event_id')
    .select(['participations.id', 'participations.event_id', 'exhibitors.organisation_id', 'users.password_hash', 'events.code'])
    .where('users.login_key', '=', 'demo')
    .executeTakeFirstOrThrow();
  const participations = await sql<{ id: number }>`
    with made as (
      insert into exhibitors (name, legal_name, logo_url, organisation_id)
      select 'Multi Exhibitor ' || g, 'Multi Exhibitor ' || g || ' Sdn. Bhd.', '', ${demo.organisation_id}::int from generate_series(1, ${EXHIBITORS}::int) g
      returning id
    )
    insert into participations (exhibitor_id, event_id, booth_num, displayed_modules, flags)
    select made.id, p.event_id, 'M' || made.id, p.displayed_modules, p.flags from made, participations p where p.id = ${demo.id}::int
    returning id`.execute(db);
  const ids = participations.rows.map((row) => row.id);
  await sql`insert into deadlines (event_id, participation_id, name, due_at)
    select d.event_id, x.id, d.name, d.due_at from deadlines d, unnest(${ids}::int[]) x(id) where d.participation_id = ${demo.id}::int`.execute(db);
  await sql`insert into quotas (event_id, participation_id, name, value)
    select q.event_id, x.id, q.name, q.value from quotas q, unnest(${ids}::int[]) x(id) where q.participation_id = ${demo.id}::int`.execute(db);
  const exhibitorUsers = await sql<{ id: number; participation_id: number }>`
    insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, status)
    select 'multi-ex-' || x.id, 'multi-ex-' || x.id, 'ex' || x.id || '@multi.example', 'Exhibitor ' || x.id, ${demo.password_hash}, 'exhibitor', x.id, ${demo.event_id}::int, 'active'
    from unnest(${ids}::int[]) x(id)
    returning id, participation_id`.execute(db);
  const stands = ids.slice(0, Math.ceil(DEVICES / DEVICES_PER_STAND));
  const teamUsers = await sql<{ id: number; participation_id: number }>`
    insert into users (login, login_key, email, display_name, password_hash, role, participation_id, event_id, status)
    select 'multi-dev-' || g, 'multi-dev-' || g, 'dev' || g || '@multi.example', 'Device ' || g, ${demo.password_hash}, 'team_user',
      (${stands}::int[])[1 + (g - 1) / ${DEVICES_PER_STAND}::int], ${demo.event_id}::int, 'active'
    from generate_series(1, ${DEVICES}::int) g
    returning id, participation_id`.execute(db);
  const organisers = await db.selectFrom('users').select('id').where('role', '=', 'organiser').where('login_key', '=', 'organiser').execute();
  const exhibitorTokens = await sessionsFor(
    db,
    exhibitorUsers.rows.map((u) => u.id),
    null,
  );
  const deviceTokens = await sessionsFor(
    db,
    teamUsers.rows.map((u) => u.id),
    'Bench scanner',
  );
  const organiserTokens: string[] = [];
  for (let n = 0; n < ORGANISERS; n++) organiserTokens.push(...(await sessionsFor(db, [organisers[0]!.id], null)).values());
  await sql`analyze`.execute(db);
  return {
    eventCode: demo.code,
    eventId: demo.event_id,
    participationIds: ids,
    exhibitors: exhibitorUsers.rows.map((u) => ({ token: exhibitorTokens.get(u.id)!, participationId: u.participation_id })),
    devices: teamUsers.rows.map((u) => ({ token: deviceTokens.get(u.id)!, participationId: u.participation_id })),
    organisers: organiserTokens,
  };
}

/** CPU ms of a process and its children (nginx's master and its worker). */
function cpuOfTree(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return cpuMs(pid) + children.reduce((sum, child) => sum + cpuOfTree(child), 0);
}

/** The load process (a separate Node process): plan in, results out; `measuring` is called when the warm-up ends. */
async function runLoad(plan: Plan, measuring: () => Promise<void>): Promise<Results> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-multi-load-'));
  try {
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load/mix.ts', join(dir, 'plan.json'), join(dir, 'results.json')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let started: Promise<void> = Promise.resolve();
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('measuring')) started = measuring();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    await started;
    if (code !== 0) throw new Error(`the load process exited with ${String(code)}`);
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What PostgreSQL's busy connections of the database are doing, sampled every 100 ms: on CPU (no
 * wait event) or waiting (a lock, I/O, the client). Lock waits that grow with the instance count
 * are contention in the database, not in the instances.
 */
function waitSampler(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts = new Map<string, number>();
  let samples = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  let deadlocksBefore = 0;
  const deadlocks = async () => Number((await client.query<{ n: string }>('select deadlocks::text as n from pg_stat_database where datname = current_database()')).rows[0]?.n ?? 0);
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      const result = await client.query<{ wait: string; n: number }>(
        `select coalesce(wait_event_type || '/' || wait_event, 'on CPU') as wait, count(*)::int as n from pg_stat_activity
          where datname = current_database() and state = 'active' and pid <> pg_backend_pid() group by 1`,
      );
      samples += 1;
      for (const row of result.rows) counts.set(row.wait, (counts.get(row.wait) ?? 0) + row.n);
    } finally {
      busy = false;
    }
  };
  return {
    start: async () => {
      await client.connect();
      deadlocksBefore = await deadlocks();
      timer = setInterval(() => void sample().catch(() => undefined), 100);
    },
    stop: async () => {
      clearInterval(timer);
      const deadlocked = (await deadlocks()) - deadlocksBefore;
      await client.end();
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const top = [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([wait, n]) => `${wait} ${((n / Math.max(1, total)) * 100).toFixed(0)}%`)
        .join(', ');
      return `PostgreSQL busy connections ${(total / Math.max(1, samples)).toFixed(1)} on average: ${top || 'none'}; deadlocks ${deadlocked}`;
    },
  };
}

/** The statements that took most of PostgreSQL's execution time since the last reset (pg_stat_statements), with their share. */
async function topStatements(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ query: string; calls: string; total: number; mean: number; share: number }>(
      `select regexp_replace(left(query, 70), '\\s+', ' ', 'g') as query, calls::text, total_exec_time as total, mean_exec_time as mean,
              total_exec_time / nullif(sum(total_exec_time) over (), 0) * 100 as share
         from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat%'
        order by total_exec_time desc limit 3`,
    );
    return result.rows.map((row) => `${row.share.toFixed(0).padStart(3)}%  ${row.calls.padStart(6)} calls  mean ${row.mean.toFixed(1).padStart(6)} ms  ${row.query}`);
  } catch {
    return [];
  } finally {
    await client.end();
  }
}

interface Verdict {
  checked: string[];
  problems: string[];
}

/** Deadline week: every acknowledged save is the stored entry, each acknowledged submit one audit row, every upload stored. */
async function verifyDeadline(db: Kysely<Database>, results: Results, since: Date, submittedEver: Set<number>, participationIds: number[]): Promise<Verdict> {
  const problems: string[] = [];
  const uncertain = new Set(results.uncertain);
  const saved = Object.entries(results.drafts).filter(([id]) => !uncertain.has(Number(id)));
  const stored = new Map(
    (
      await db
        .selectFrom('form_entries')
        .select(['participation_id', 'version', 'data'])
        .where('form_id', '=', FORM)
        .where(
          'participation_id',
          'in',
          saved.map(([id]) => Number(id)),
        )
        .execute()
    ).map((row) => [row.participation_id, row]),
  );
  let draftsMatching = 0;
  for (const [id, last] of saved) {
    const row = stored.get(Number(id));
    if (row && row.version === last.version && isDeepStrictEqual(row.data, last.data)) draftsMatching += 1;
    else
      problems.push(
        `exhibitor ${id}: stored ${row ? `version ${row.version}` : 'nothing'}, acknowledged version ${last.version}${row && row.version === last.version ? ' with other data' : ''}`,
      );
  }
  // Submissions: one audit row per acknowledged submit of this run; the organiser's count once per exhibitor.
  const acknowledgedSubmits = Object.entries(results.submits).filter(([id]) => !uncertain.has(Number(id)));
  for (const [id] of acknowledgedSubmits) submittedEver.add(Number(id));
  const audited = await db
    .selectFrom('audit_log')
    .select(['participation_id', sql<number>`count(*)::int`.as('n')])
    .where('action', '=', 'form.submit')
    .where('at', '>=', since)
    .where('participation_id', 'in', acknowledgedSubmits.length > 0 ? acknowledgedSubmits.map(([id]) => Number(id)) : [-1])
    .groupBy('participation_id')
    .execute();
  const auditedOf = new Map(audited.map((row) => [row.participation_id, row.n]));
  let submitsMatching = 0;
  for (const [id, count] of acknowledgedSubmits) {
    if (auditedOf.get(Number(id)) === count) submitsMatching += 1;
    else problems.push(`exhibitor ${id}: ${count} submits acknowledged, ${auditedOf.get(Number(id)) ?? 0} audit rows`);
  }
  const counted = await db
    .selectFrom('form_entries')
    .innerJoin('participations', 'participations.id', 'form_entries.participation_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('form_entries.form_id', '=', FORM)
    .where('form_entries.status', '=', 'submitted')
    .where('participations.id', 'in', participationIds)
    .executeTakeFirstOrThrow();
  if (counted.n !== submittedEver.size) problems.push(`${counted.n} submitted S04 entries of the bench's exhibitors, ${submittedEver.size} exhibitors ever acknowledged a submit`);
  // Uploads: a row and the whole file in the shared store for each.
  const ids = results.uploads.map((u) => u.id);
  const uploaded = ids.length
    ? await db
        .selectFrom('uploads')
        .innerJoin('stored_files', (join) => join.on(sql<boolean>`stored_files.key = 'uploads/' || uploads.id`))
        .select(['uploads.id', 'uploads.participation_id', 'uploads.size', 'stored_files.size as stored', 'stored_files.complete'])
        .where('uploads.id', 'in', ids)
        .execute()
    : [];
  const uploadOf = new Map(uploaded.map((row) => [row.id, row]));
  let uploadsPresent = 0;
  for (const upload of results.uploads) {
    const row = uploadOf.get(upload.id);
    if (row && row.participation_id === upload.participationId && Number(row.size) === upload.size && Number(row.stored) === upload.size && row.complete) uploadsPresent += 1;
    else problems.push(`upload ${upload.id}: ${row ? 'stored differently' : 'missing'}`);
  }
  return {
    checked: [
      `drafts ${draftsMatching}/${saved.length} as acknowledged (${uncertain.size} exhibitors left out: last write unacknowledged)`,
      `submits ${submitsMatching}/${acknowledgedSubmits.length} exhibitors with one audit row each`,
      `submitted S04 ${counted.n} = ${submittedEver.size} exhibitors`,
      `uploads ${uploadsPresent}/${results.uploads.length} in the shared store`,
    ],
    problems,
  };
}

/** Show opening: each acknowledged new scan is one lead, each repeat points at the one lead of its badge; no badge is a lead twice. */
async function verifyOpening(db: Kysely<Database>, results: Results, runId: string): Promise<Verdict> {
  const problems: string[] = [];
  const leads = await db.selectFrom('leads').select(['id', 'participation_id', 'client_scan_id', 'badge_code']).where('badge_code', 'like', `%-M${runId}-%`).execute();
  const leadOf = new Map(leads.map((lead) => [lead.id, lead]));
  const keys = new Set<string>();
  let doubled = 0;
  for (const lead of leads) {
    const key = `${lead.participation_id}/${lead.badge_code}`;
    if (keys.has(key)) doubled += 1;
    keys.add(key);
  }
  if (doubled > 0) problems.push(`${doubled} badges are a lead of the same exhibitor twice`);
  const acknowledged = new Set<string>();
  let created = 0;
  let repeats = 0;
  for (const scan of results.scans) {
    acknowledged.add(`${scan.participationId}/${scan.badgeCode}`);
    const lead = scan.leadId === null ? undefined : leadOf.get(scan.leadId);
    if (scan.status === 'created') {
      created += 1;
      if (!lead || lead.client_scan_id !== scan.clientScanId || lead.participation_id !== scan.participationId)
        problems.push(`scan ${scan.clientScanId}: acknowledged created, lead ${scan.leadId} ${lead ? 'differs' : 'missing'}`);
    } else if (scan.status === 'duplicate') {
      repeats += 1;
      if (!lead || lead.badge_code !== scan.badgeCode || lead.participation_id !== scan.participationId)
        problems.push(`scan ${scan.clientScanId}: acknowledged ${scan.reason}, lead ${scan.leadId} ${lead ? 'differs' : 'missing'}`);
    } else problems.push(`scan ${scan.clientScanId}: ${scan.status}`);
  }
  // Leads nobody was told of: a stored scan whose batch was not acknowledged (a timeout) may make one.
  const unacknowledged = leads.filter((lead) => !acknowledged.has(`${lead.participation_id}/${lead.badge_code}`)).length;
  const failedBatches = Object.values(results.operations['scan batch']?.failures ?? {}).reduce((sum, n) => sum + n, 0);
  if (unacknowledged > 0 && failedBatches === 0) problems.push(`${unacknowledged} leads of scans never acknowledged`);
  return {
    checked: [
      `scans acknowledged ${results.scans.length} (${created} new, ${repeats} repeats/resends); leads ${leads.length} = ${acknowledged.size} distinct badges per exhibitor acknowledged${unacknowledged ? ` + ${unacknowledged} from unacknowledged batches` : ''}; doubled ${doubled}`,
    ],
    problems,
  };
}

/**
 * Each instance serves each kind of request once before the load (directly, not through nginx):
 * a new instance compiles the forms' validators, the export's and the matrix's code on first use,
 * which on a busy machine otherwise stalls the first seconds of every instance count. A dedicated
 * exhibitor and device do it (they are left out of the checks).
 */
async function warmUp(db: Kysely<Database>, ports: number[], warm: { token: string; participationId: number }, device: { token: string }, organiser: string, eventCode: string) {
  const call = async (port: number, path: string, token: string, init: RequestInit = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`warming up ${path} answered ${response.status}`);
  };
  const json = (body: unknown): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const version = async () =>
    (await db.selectFrom('form_entries').select('version').where('participation_id', '=', warm.participationId).where('form_id', '=', FORM).executeTakeFirst())?.version ?? 0;
  const data = { badges: [{ firstName: 'Warm', lastName: 'Up', email: 'warm.up@multi.example', extra: false }] };
  const { payload, contentType } = multipart([
    { name: 'purpose', value: 'logo' },
    { name: 'file', filename: 'warm.jpg', bytes: jpegJfif(300) },
  ]);
  for (const port of ports) {
    await call(port, '/oga/organiser/progress', organiser);
    await call(port, `/oga/organiser/submissions/${FORM}/export`, organiser);
    await call(port, `/oga/forms/${FORM}/draft`, warm.token, { method: 'PUT', ...json({ data, version: await version() }) });
    await call(port, `/oga/forms/${FORM}/submit`, warm.token, { method: 'POST', ...json({ data, version: await version() }) });
    await call(port, '/oga/uploads', warm.token, { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(payload) });
    const scannedAt = new Date().toISOString();
    await call(port, '/oga/leads/scans', device.token, {
      method: 'POST',
      ...json({ scans: [{ clientScanId: `warm-${port}-${Date.now()}`, badgeCode: `${eventCode}-WARM-${port}`, scannedAt }] }),
    });
  }
}

interface Row {
  instances: number;
  mix: string;
  requests: number;
  rps: number;
  p99: number;
  errors: number;
  shares: string;
  cpuPerRequest: number;
  nginxCpuPerRequest: number;
  dbPerRequest: number | null;
  perOperation: string[];
  verdict: Verdict;
  load: string;
  waits: string;
  label: string;
  scansPerSecond?: number;
}

export async function multiInstanceBenchmarks() {
  ensureServerBuilt();
  const postgres = await startPostgres({ statStatements: true });
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const url = new URL(postgres.adminUrl);
  url.pathname = `/${DATABASE}`;
  const databaseUrl = url.toString();
  const opened = await openDatabase({ databaseUrl });
  const rows: Row[] = [];
  const dirs: string[] = [];
  try {
    await migrateToLatest(opened.db);
    await seedDemo(opened.db);
    const made = Date.now();
    const people = await population(opened.db);
    console.log(
      `\n## Several instances behind nginx on one PostgreSQL (${cpus().length} cores, ${machineLoad()} at the start; ${EXHIBITORS.toLocaleString('en')} exhibitors with their own logins and ${DEVICES} scanning devices made set-based in ${((Date.now() - made) / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  deadline week: ${EXHIBITOR_USERS} exhibitors at once (S04 draft saves 70 %, submits 15 %, logo uploads 15 %) + ${ORGANISERS} organisers (progress matrix, S04 submissions export); show opening: ${DEVICES} devices, batches of ${SCANS_PER_BATCH} scans, every tenth batch resent; ${SECONDS} s each`,
    );
    // One exhibitor and one device warm each instance up; the checks leave them out.
    const warmExhibitor = people.exhibitors.pop()!;
    const warmDevice = people.devices.pop()!;
    const checkedParticipations = people.participationIds.filter((id) => id !== warmExhibitor.participationId);
    const dbTime = await databaseTime(databaseUrl);
    const versions = new Map<number, number>();
    const submittedEver = new Set<number>();
    for (const { count, pool } of INSTANCE_RUNS) {
      const label = `${count} instance${count > 1 ? 's' : ' '}${pool !== 10 ? ` (pool ${pool})` : ''}`;
      const instances: Instance[] = [];
      for (let n = 0; n < count; n++) {
        const dir = mkdtempSync(join(tmpdir(), `portal-multi-${n}-`));
        dirs.push(dir);
        instances.push(await startInstance(databaseUrl, dir, pool));
      }
      // Two connections per client connection (client side and instance side), and idle connections to the instances kept.
      const nginx = await startNginx(
        instances.map((i) => i.port),
        { workerConnections: 4 * (DEVICES + EXHIBITOR_USERS + ORGANISERS), upstreamKeepalive: 64 },
      );
      const proxy = `http://127.0.0.1:${nginx.port}`;
      try {
        await warmUp(
          opened.db,
          instances.map((i) => i.port),
          warmExhibitor,
          warmDevice,
          people.organisers[0]!,
          people.eventCode,
        );
        // What the instances do on their own (timers, polls), before any load.
        const idleBefore = instances.map((i) => cpuMs(i.child.pid));
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const idle = instances.reduce((sum, i, n) => sum + cpuMs(i.child.pid) - idleBefore[n]!, 0) / instances.length / 2;
        console.log(`\n  ${label}: idle ${idle.toFixed(1)} ms CPU per second per instance (timers and polls)`);
        for (const mix of ['deadline', 'opening'] as const) {
          const runId = `${count}${mix[0]}${Date.now().toString(36)}`;
          const plan: Plan = {
            url: proxy,
            seconds: SECONDS,
            warmSeconds: WARM_SECONDS,
            mix,
            runId,
            eventCode: people.eventCode,
            exhibitors: people.exhibitors.map((e) => ({ ...e, version: versions.get(e.participationId) ?? 0 })),
            exhibitorUsers: EXHIBITOR_USERS,
            organisers: people.organisers,
            devices: people.devices,
            scansPerBatch: SCANS_PER_BATCH,
            badgesPerParticipation: 20_000,
          };
          const since = new Date();
          let before: number[] = [];
          let nginxBefore = 0;
          const waits = waitSampler(databaseUrl);
          const results = await runLoad(plan, async () => {
            before = instances.map((i) => cpuMs(i.child.pid));
            nginxBefore = cpuOfTree(nginx.pid);
            await dbTime?.reset();
            await waits.start();
          });
          const waited = await waits.stop();
          const cpu = instances.reduce((sum, i, n) => sum + cpuMs(i.child.pid) - before[n]!, 0);
          const nginxCpu = cpuOfTree(nginx.pid) - nginxBefore;
          const dbMs = dbTime ? await dbTime.read() : null;
          const statements = dbTime ? await topStatements(databaseUrl) : [];
          const load = machineLoad();
          for (const [id, last] of Object.entries(results.drafts)) versions.set(Number(id), last.version);
          const operations = Object.entries(results.operations);
          const requests = operations.reduce((sum, [, o]) => sum + o.count, 0);
          const errors = operations.reduce((sum, [, o]) => sum + Object.values(o.failures).reduce((a, b) => a + b, 0), 0);
          const all = operations.flatMap(([, o]) => o.latencies);
          // Of the requests nginx answered since the warm-up ended (a request under way then counts here only).
          const proxied = Object.values(results.upstreams).reduce((sum, n) => sum + n, 0);
          const shares = instances.map((i) => `${(((results.upstreams[`127.0.0.1:${i.port}`] ?? 0) / Math.max(1, proxied)) * 100).toFixed(0)}%`).join('/');
          const verdict =
            mix === 'deadline' ? await verifyDeadline(opened.db, results, since, submittedEver, checkedParticipations) : await verifyOpening(opened.db, results, runId);
          rows.push({
            instances: count,
            mix,
            requests,
            rps: requests / results.elapsedSeconds,
            p99: percentile(all, 0.99),
            errors,
            shares,
            cpuPerRequest: cpu / Math.max(1, requests),
            nginxCpuPerRequest: nginxCpu / Math.max(1, requests),
            dbPerRequest: dbMs === null ? null : dbMs / Math.max(1, requests),
            perOperation: operations.map(
              ([name, o]) =>
                `${name.padEnd(36)} ${String(o.count).padStart(6)} requests  p50 ${percentile(o.latencies, 0.5).toFixed(0).padStart(5)} ms  p99 ${percentile(o.latencies, 0.99).toFixed(0).padStart(5)} ms${Object.keys(o.failures).length ? `  failures: ${JSON.stringify(o.failures)}, e.g. ${Object.values(o.examples ?? {})[0] ?? ''}` : ''}`,
            ),
            verdict,
            load,
            waits: waited,
            label,
            scansPerSecond: mix === 'opening' ? results.scans.length / results.elapsedSeconds : undefined,
          });
          const row = rows.at(-1)!;
          console.log(
            `  ${label} ${mix === 'deadline' ? 'deadline week' : 'show opening '}  ${row.rps.toFixed(0).padStart(6)} req/s${row.scansPerSecond !== undefined ? ` (${row.scansPerSecond.toFixed(0)} scans/s)` : ''}  p99 ${row.p99.toFixed(0).padStart(5)} ms  errors ${errors}  share ${shares}  instances' CPU ${row.cpuPerRequest.toFixed(2)} ms/req, nginx ${row.nginxCpuPerRequest.toFixed(2)}, DB ${row.dbPerRequest?.toFixed(2) ?? '–'} ms/req  ${load}`,
          );
          for (const line of row.perOperation) console.log(`      ${line}`);
          console.log(`      ${waited}`);
          for (const statement of statements) console.log(`        ${statement}`);
          console.log(`      nothing lost or doubled: ${verdict.problems.length === 0 ? 'yes' : `NO (${verdict.problems.length} problems)`} — ${verdict.checked.join('; ')}`);
          for (const problem of verdict.problems.slice(0, 10)) console.log(`        ${problem}`);
        }
      } finally {
        await nginx.close();
        for (const instance of instances) {
          instance.child.kill('SIGTERM');
          await instance.exited;
        }
      }
    }
    await dbTime?.close();
    console.log(
      `\n  scaling (throughput with N instances / with 1; ${cpus().length} cores: the instances, nginx, PostgreSQL and the load process share them, so 4 instances cannot scale linearly here):`,
    );
    for (const mix of ['deadline', 'opening']) {
      const one = rows.find((r) => r.mix === mix && r.instances === 1);
      console.log(`    ${mix === 'deadline' ? 'deadline week' : 'show opening'}`);
      for (const r of rows.filter((r) => r.mix === mix))
        console.log(
          `      ${r.label.trim().padEnd(22)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${r.p99.toFixed(0).padStart(5)} ms  ×${one ? (r.rps / one.rps).toFixed(2) : '–'} of 1 instance  CPU ${r.cpuPerRequest.toFixed(2)} ms/req  DB ${r.dbPerRequest?.toFixed(2) ?? '–'} ms/req  ${r.load}`,
        );
    }
  } finally {
    await opened.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
}
