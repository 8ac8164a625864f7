import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { LEAD_TEMPERATURES, LEAD_TYPES } from '../../src/engine/leads';
import { ALL_MODULES } from '../../src/server/db/seed';
import { loadFormRegistry } from '../../src/server/plugins/forms/form-set';
import { EMBEDDED_SHOW, FULL_SHOW, formPlans, SHOW_KEYWORDS, SHOW_PASSWORD, showSize, type GeneratedShow } from '../generate-show';
import { beforeRevision, buildAfter, buildBefore, CACHE_DIR, migrateCopy, pgliteShow, postgresShow, type ServerBuild } from './big-show-data';
import { percentile, postJson, rssMb, startServerProcess } from './leads';
import { cpuMs, databaseTime, machineLoad, type DatabaseTime } from './work';

// `npm run bench -- big-show`: every organiser and exhibitor server path of a big show measured on
// its data set (scripts/generate-show.ts: 5,000 exhibitors, 200,000 visitors, 5,000,000 leads on
// PostgreSQL; 500 / 500,000 on the embedded database), side by side with the landed version: both
// portals run as processes of their own on copies of the same data, and each case is measured on
// both in alternating rounds. Each line: p95 before | after | budget, with each side's CPU ms and
// (PostgreSQL) database execution ms per operation, and the machine's load.
//
// BENCH_BEFORE=<git rev> (default the merge-base with main; `none` = this build alone),
// BENCH_SHOW_EXHIBITORS / BENCH_SHOW_LEADS (PostgreSQL's size; 0 leaves PostgreSQL out),
// BENCH_SHOW_PGLITE_EXHIBITORS / BENCH_SHOW_PGLITE_LEADS (the embedded slice; 0 leaves it out),
// BENCH_SHOW_SAMPLES (per case and portal, default 30), BENCH_SHOW_CASES (a comma list of case
// groups: organiser, exhibitor, leads, scans, export, import), BENCH_SHOW_PG_SETTINGS (PostgreSQL's
// server settings, e.g. "-c shared_buffers=4GB"), BENCH_SHOW_AFTER_WITHOUT_INDEXES (an experiment: see
// dropIndexesForExperiment), BENCH_SHOW_SCAN_BADGES (`visitors`,
// the default: the show's registered visitors, as at a real booth; `unknown`: badges the visitor
// directory lacks, whose leads carry only the badge code and so cost the keyword index less).

const SAMPLES = Number(process.env.BENCH_SHOW_SAMPLES ?? 30);
const SCAN_SECONDS = Number(process.env.BENCH_SHOW_SCAN_SECONDS ?? 8);
const DEVICES = 20;
/** The import's size (the issue's: 5,000 exhibitors), new codes in the event. */
const IMPORT_EXHIBITORS = Number(process.env.BENCH_SHOW_IMPORT ?? 5000);
const BATCH = 100;
const SCAN_BADGES = process.env.BENCH_SHOW_SCAN_BADGES === 'unknown' ? 'unknown' : 'visitors';
const GROUPS = new Set((process.env.BENCH_SHOW_CASES ?? 'organiser,exhibitor,leads,scans,export,import').split(',').map((group) => group.trim()));

/** The issue's budgets (p95 ms unless said otherwise). */
const BUDGET = {
  exhibitorsList: 50,
  progress: 100,
  audit: 50,
  exportSeconds: 30,
  exportRssMb: 150,
  importDrySeconds: 5,
  importCommitSeconds: 10,
  reimportSeconds: 5,
  formsList: 30,
  formOpen: 30,
  draftSave: 50,
  search: 50,
  leadList: 50,
  dashboard: 20,
  scansPerSecond: { postgres: 20_000, pglite: 5_000 },
  scanP99: 500,
};

interface Portal {
  build: ServerBuild;
  url: string;
  pid: number;
  stop(): Promise<void>;
  dbTime: DatabaseTime | null;
  organiser: string;
  exhibitor: string;
}

interface Figures {
  times: number[];
  cpuMs: number;
  dbMs: number | null;
  extra?: string;
}

async function login(url: string, account: string): Promise<string> {
  const response = await fetch(`${url}/oga/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: SHOW_PASSWORD }),
  });
  const body = (await response.json()) as { code: number; data: { token: string } };
  if (body.code !== 200) throw new Error(`signing in as ${account}: ${JSON.stringify(body).slice(0, 200)}`);
  return body.data.token;
}

/** One API call; refuses anything but the envelope's code 200. */
async function call<T = unknown>(url: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; data: T };
  if (answer.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.data;
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(1)} ms`).padStart(9);

function describe(figures: Figures, operations: number) {
  const db = figures.dbMs === null ? '' : ` DB ${(figures.dbMs / operations).toFixed(2)}`;
  return `CPU ${(figures.cpuMs / operations).toFixed(2)}${db}`;
}

/**
 * A case measured on every portal in alternating rounds (before, after, after, before, …), each
 * sample one operation; p95 (nearest rank) per portal against the budget.
 */
async function measure(name: string, budgetMs: number, portals: Portal[], operation: (portal: Portal, round: number) => Promise<unknown>, samples = SAMPLES, warmup = 2) {
  for (const portal of portals) for (let i = 0; i < warmup; i++) await operation(portal, -1 - i);
  await portals[0]?.dbTime?.reset();
  const figures = new Map<Portal, Figures>(portals.map((portal) => [portal, { times: [], cpuMs: 0, dbMs: null }]));
  for (let round = 0; round < samples; round++) {
    const order = round % 2 === 0 ? portals : [...portals].reverse();
    for (const portal of order) {
      const own = figures.get(portal)!;
      const cpu = cpuMs(portal.pid);
      const started = performance.now();
      const extra = await operation(portal, round);
      own.times.push(performance.now() - started);
      own.cpuMs += cpuMs(portal.pid) - cpu;
      if (typeof extra === 'string') own.extra = extra;
    }
  }
  for (const portal of portals) figures.get(portal)!.dbMs = portal.dbTime ? await portal.dbTime.read() : null;
  print(name, portals, figures, budgetMs, samples);
}

function print(name: string, portals: Portal[], figures: Map<Portal, Figures>, budgetMs: number, operations: number, p = 95) {
  const columns = portals.map((portal) => {
    const own = figures.get(portal)!;
    const sorted = [...own.times].sort((a, b) => a - b);
    const value = percentile(sorted, p);
    return { portal, value, text: `${fmt(value)} (${describe(own, operations)}${own.extra ? `; ${own.extra}` : ''})` };
  });
  const after = columns.at(-1)!;
  console.log(
    `  ${name.padEnd(46)} ${columns.map((column) => column.text.padEnd(40)).join(' | ')} | ${fmt(budgetMs)} ${after.value <= budgetMs ? 'met' : 'NOT met'}  ${machineLoad()}`,
  );
}

function header(title: string, portals: Portal[]) {
  console.log(`\n### ${title} (p95; ${portals.map((portal) => `${portal.build.label} ${portal.build.revision.slice(0, 12)}`).join(' | ')} | budget; CPU and DB ms per operation)`);
}

// ---- cases ----

async function organiserCases(portals: Portal[], show: GeneratedShow, quotaForm: string, firstForm: string) {
  header('Organiser', portals);
  const get = (path: string) => (portal: Portal) => call(portal.url, portal.organiser, 'GET', path).then(() => undefined);
  const lists: Array<[string, string]> = [
    ['exhibitors, page 1', ''],
    ['exhibitors, page 100', '&page=100'],
    ['exhibitors, keyword "golden"', '&keyword=golden'],
    ['exhibitors, keyword (one code)', `&keyword=${show.exhibitorCodePrefix}01234`],
    // Deep pages of a keyword: one in twelve exhibitors is a "Golden Harvest"; every code has the prefix.
    ['exhibitors, keyword "golden", page 10', '&keyword=golden&page=10'],
    ['exhibitors, keyword (every code), page 200', `&keyword=${show.exhibitorCodePrefix}&page=200`],
    [`exhibitors, module ${ALL_MODULES[0]}`, `&module=${ALL_MODULES[0]}`],
    ['exhibitors, flag s01SubmitOnceOnly', '&flag=s01SubmitOnceOnly'],
    [`exhibitors, ${quotaForm} submitted`, `&form=${quotaForm}&formStatus=submitted`],
    [`exhibitors, ${firstForm} draft`, `&form=${firstForm}&formStatus=draft`],
    [`exhibitors, ${quotaForm} not started`, `&form=${quotaForm}&formStatus=notStarted`],
    ['exhibitors, disabled', '&status=disabled'],
  ];
  for (const [name, query] of lists) await measure(name, BUDGET.exhibitorsList, portals, get(`/oga/organiser/exhibitors?limit=20${query}`));
  await measure('progress matrix', BUDGET.progress, portals, get('/oga/organiser/progress'));
  await measure('progress matrix, mandatory missing', BUDGET.progress, portals, get('/oga/organiser/progress?missing=true'));
  await measure('progress matrix, page 40 of 50', BUDGET.progress, portals, get('/oga/organiser/progress?limit=50&page=40'));
  await measure('progress matrix, search "golden"', BUDGET.progress, portals, get('/oga/organiser/progress?keyword=golden'));
  await measure(`progress matrix, ${quotaForm} submitted`, BUDGET.progress, portals, get(`/oga/organiser/progress?form=${quotaForm}&formStatus=submitted`));
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const audits: Array<[string, string]> = [
    ['audit log, page 1', ''],
    ['audit log, action form.', '&action=form.'],
    ['audit log, who "Tan"', '&who=Tan'],
    ['audit log, one week', `&from=${day(-14)}&to=${day(-8)}`],
    ['audit log, action + who + week', `&action=form.submit&who=Tan&from=${day(-14)}&to=${day(-8)}`],
  ];
  for (const [name, query] of audits) await measure(name, BUDGET.audit, portals, get(`/oga/organiser/audit?limit=20${query}`));
}

async function exhibitorCases(portals: Portal[], quotaForm: string, firstForm: string) {
  header('Exhibitor (the largest exhibitor)', portals);
  const get =
    (path: string, headers: Record<string, string> = {}) =>
    (portal: Portal) =>
      call(portal.url, portal.exhibitor, 'GET', path, undefined, headers).then(() => undefined);
  await measure('forms list', BUDGET.formsList, portals, get('/oga/forms'));
  await measure(`GET /forms/${quotaForm}`, BUDGET.formOpen, portals, get(`/oga/forms/${quotaForm}`));
  await measure(`GET /forms/${firstForm}`, BUDGET.formOpen, portals, get(`/oga/forms/${firstForm}`));
  // The draft as the browser saves it: the whole list (200 items), one name changed each time.
  const drafts = new Map<Portal, { version: number; data: Record<string, unknown> }>();
  for (const portal of portals) {
    const page = await call<{ entry: { version: number; data: Record<string, unknown> } | null }>(portal.url, portal.exhibitor, 'GET', `/oga/forms/${quotaForm}`);
    drafts.set(portal, { version: page.entry?.version ?? 0, data: page.entry?.data ?? {} });
  }
  const list = Object.entries(drafts.get(portals[0]!)!.data).find(([, value]) => Array.isArray(value));
  await measure(`${quotaForm} draft save, ${Array.isArray(list?.[1]) ? list[1].length : 0} items`, BUDGET.draftSave, portals, async (portal, round) => {
    const draft = drafts.get(portal)!;
    const items = (draft.data[list![0]] as Array<Record<string, unknown>>).map((item, i) => (i === 0 ? { ...item, middleName: `R${round + 10}` } : item));
    const saved = await call<{ version: number }>(portal.url, portal.exhibitor, 'PUT', `/oga/forms/${quotaForm}/draft`, {
      version: draft.version,
      data: { ...draft.data, [list![0]]: items },
    });
    draft.version = saved.version;
  });
  for (const [language, keyword] of SHOW_KEYWORDS)
    await measure(`search "${keyword}" (${language})`, BUDGET.search, portals, get(`/oga/search?keyword=${encodeURIComponent(keyword)}`, { language }));
  await measure('search, no match (en)', BUDGET.search, portals, get(`/oga/search?keyword=${encodeURIComponent('no such word anywhere')}`, { language: 'en' }));
}

async function leadCases(portals: Portal[], show: ShowFacts, scannerId: number) {
  header(`Leads of the largest exhibitor (${show.size.largestLeads.toLocaleString('en')} of ${show.size.leads.toLocaleString('en')})`, portals);
  const get = (path: string) => (portal: Portal) => call(portal.url, portal.exhibitor, 'GET', path).then(() => undefined);
  await measure('dashboard', BUDGET.dashboard, portals, get('/oga/analytics/dashboard'));
  const cases: Array<[string, string]> = [
    ['list, page 1', ''],
    ['list, page 50', '&page=50'],
    [`list, temperature ${LEAD_TEMPERATURES.at(-1)}`, `&temperature=${LEAD_TEMPERATURES.at(-1)}`],
    [`list, country JP + ${LEAD_TYPES[3]}`, `&country=JP&leadType=${LEAD_TYPES[3]}`],
    [`list, lead type ${LEAD_TYPES[0]}`, `&leadType=${LEAD_TYPES[0]}`],
    // A value no lead has: the filter's worst case (every lead of the exhibitor is looked at).
    ['list, country no lead has (IS)', '&country=IS'],
    [`list, ${LEAD_TEMPERATURES[0]} + ${LEAD_TYPES[1]} + JP`, `&temperature=${LEAD_TEMPERATURES[0]}&leadType=${LEAD_TYPES[1]}&country=JP`],
    ['list, scanned by one device', `&scannedBy=${scannerId}`],
    ['list, second show day', `&from=${show.showDays[1]}&to=${show.showDays[1]}`],
    ['list, keyword (a badge code)', `&keyword=${encodeURIComponent(show.sampleBadge)}`],
    ['list, keyword "lotus"', '&keyword=lotus'],
    ['list, sorted by company', '&sort=company&order=asc'],
    // Keywords without a trigram: one or two CJK characters with many matches or none, a rare two-letter one.
    ['list, keyword "東京" (many)', `&keyword=${encodeURIComponent('東京')}`],
    ['list, keyword "茶" (many)', `&keyword=${encodeURIComponent('茶')}`],
    ['list, keyword "茶" by name', `&keyword=${encodeURIComponent('茶')}&sort=name&order=asc`],
    ['list, keyword "蘭" (none)', `&keyword=${encodeURIComponent('蘭')}`],
    ['list, keyword "蘭花" (none)', `&keyword=${encodeURIComponent('蘭花')}`],
    ['list, keyword "qx" (rare, two letters)', '&keyword=qx'],
  ];
  for (const [name, query] of cases) await measure(name, BUDGET.leadList, portals, get(`/oga/leads?limit=20${query}`));
}

/** DEVICES devices (the largest exhibitor's team users) each posting batches of BATCH new scans back to back for SCAN_SECONDS. */
async function scanRun(portal: Portal, tokens: string[], run: number, eventCode: string, nextVisitor: () => number) {
  const deadline = Date.now() + SCAN_SECONDS * 1000;
  const times: number[] = [];
  let failed = 0;
  let created = 0;
  let duplicates = 0;
  const badgeCode = (device: number, batch: number, i: number) =>
    SCAN_BADGES === 'visitors' ? `${eventCode}-V${String(nextVisitor()).padStart(7, '0')}` : `${eventCode}-S${run}${portal.build.label[0]}${device}-${batch}-${i}`;
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token, device) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let batch = 0; Date.now() < deadline; batch++) {
          const body = JSON.stringify({
            scans: Array.from({ length: BATCH }, (_, i) => ({
              clientScanId: `show-${portal.build.label}-${run}-${device}-${batch}-${i}`,
              badgeCode: badgeCode(device, batch, i),
              scannedAt: new Date().toISOString(),
            })),
          });
          const at = performance.now();
          try {
            const answer = (await postJson(agent, `${portal.url}/oga/leads/scans`, token, body)) as { code: number; data?: { created: number; duplicates: number } };
            if (answer.code !== 200) failed++;
            created += answer.data?.created ?? 0;
            duplicates += answer.data?.duplicates ?? 0;
          } catch {
            failed++;
          }
          times.push(performance.now() - at);
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { batches: times.length, failed, seconds, times, created, duplicates };
}

/**
 * BENCH_SHOW_AFTER_WITHOUT_INDEXES=a,b: an experiment, not a build: those indexes are dropped from
 * the after copy, so the two portals' scans differ by what maintaining them costs (the after
 * portal's queries that read them get slower: run it with BENCH_SHOW_CASES=scans).
 */
async function dropIndexesForExperiment(databaseUrl: string) {
  const names =
    process.env.BENCH_SHOW_AFTER_WITHOUT_INDEXES?.split(',')
      .map((name) => name.trim())
      .filter(Boolean) ?? [];
  if (names.length === 0) return;
  const client = new (await import('pg')).default.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const name of names) await client.query(`drop index if exists "${name.replace(/"/g, '')}"`);
    console.log(`  after copy without the indexes ${names.join(', ')} (an experiment: BENCH_SHOW_AFTER_WITHOUT_INDEXES)`);
  } finally {
    await client.end();
  }
}

async function scanCases(portals: Portal[], show: GeneratedShow, engine: 'postgres' | 'pglite') {
  header(
    `Scan ingestion: batches of ${BATCH} from ${DEVICES} devices, ${SCAN_SECONDS} s per run, two runs each, badges of ${SCAN_BADGES === 'visitors' ? 'registered visitors' : 'unknown visitors'}`,
    portals,
  );
  const tokens = new Map<Portal, string[]>();
  for (const portal of portals) {
    const devices: string[] = [];
    for (let device = 1; device <= Math.min(DEVICES, show.size.largestTeam); device++) devices.push(await login(portal.url, `${show.largestLogin}/scanner${device}`));
    while (devices.length < DEVICES) devices.push(devices[devices.length % Math.max(1, show.size.largestTeam)]!);
    tokens.set(portal, devices);
  }
  type Totals = {
    batches: number;
    failed: number;
    created: number;
    duplicates: number;
    seconds: number;
    times: number[];
    cpuMs: number;
    clientCpuMs: number;
    serverCpuMs: number | null;
    dbMs: number | null;
  };
  const totals = new Map<Portal, Totals>(
    portals.map((portal) => [portal, { batches: 0, failed: 0, created: 0, duplicates: 0, seconds: 0, times: [], cpuMs: 0, clientCpuMs: 0, serverCpuMs: null, dbMs: null }]),
  );
  // Each portal scans the registered visitors in the same order (a stride prime to their number
  // visits each once before any again): the visitors the exhibitor already has come back as
  // duplicates, as when a booth meets a visitor again.
  const visitors = show.size.visitors;
  const stride = visitors % 7919 === 0 ? 1 : 7919;
  const visitorSequence = new Map<Portal, () => number>(
    portals.map((portal) => {
      let scanned = 0;
      return [portal, () => 1 + ((scanned++ * stride) % visitors)];
    }),
  );
  const statements = new Map<Portal, Array<{ calls: number; totalMs: number; meanMs: number; text: string }>>();
  for (let run = 0; run < 2; run++) {
    for (const portal of run % 2 === 0 ? portals : [...portals].reverse()) {
      const total = totals.get(portal)!;
      // Each portal's database time is its own runs' (reset before each of them, summed after).
      await portal.dbTime?.reset();
      const cpu = cpuMs(portal.pid);
      const client = cpuMs();
      const server = portal.dbTime?.serverCpuMs() ?? null;
      const result = await scanRun(portal, tokens.get(portal)!, run, show.eventCode, visitorSequence.get(portal)!);
      total.cpuMs += cpuMs(portal.pid) - cpu;
      total.clientCpuMs += cpuMs() - client;
      if (server !== null) total.serverCpuMs = (total.serverCpuMs ?? 0) + portal.dbTime!.serverCpuMs() - server;
      if (portal.dbTime) total.dbMs = (total.dbMs ?? 0) + (await portal.dbTime.read());
      if (portal.dbTime && run === 1) statements.set(portal, await portal.dbTime.statements(6));
      total.batches += result.batches;
      total.failed += result.failed;
      total.created += result.created;
      total.duplicates += result.duplicates;
      total.seconds += result.seconds;
      total.times.push(...result.times);
    }
  }
  const lines: string[] = [];
  for (const portal of portals) {
    const total = totals.get(portal)!;
    const rate = (total.batches * BATCH) / total.seconds;
    const p99 = percentile(
      [...total.times].sort((a, b) => a - b),
      99,
    );
    lines.push(
      `${rate.toFixed(0).padStart(7)} scans/s p99 ${p99.toFixed(0)} ms (${total.created} new leads, ${total.duplicates} duplicates, ${total.failed} failed; per batch ${describe({ times: [], cpuMs: total.cpuMs, dbMs: total.dbMs }, Math.max(1, total.batches))})`,
    );
    if (portal === portals.at(-1)) {
      const budget = BUDGET.scansPerSecond[engine];
      lines.push(`≥ ${budget} scans/s, p99 ≤ ${BUDGET.scanP99} ms: ${rate >= budget && p99 <= BUDGET.scanP99 && total.failed === 0 ? 'met' : 'NOT met'}`);
    }
  }
  console.log(`  ${'scans'.padEnd(46)} ${lines.join(' | ')}  ${machineLoad()}`);
  // Where a scan's time goes: core µs per scan of the load generator (this process), the portal
  // (Node) and the whole PostgreSQL server (its processes' CPU, lock waits left out), next to
  // PostgreSQL's execution time (which includes waits). The cores' sum bounds the rate on this
  // machine: at 100 % of its cores, scans/s ≤ cores × 1,000,000 / (µs per scan of all three).
  const cores = availableParallelism();
  for (const portal of portals) {
    const total = totals.get(portal)!;
    const scans = Math.max(1, total.batches * BATCH);
    const perScan = (ms: number | null) => (ms === null ? null : (ms * 1000) / scans);
    const client = perScan(total.clientCpuMs)!;
    const node = perScan(total.cpuMs)!;
    const database = perScan(total.serverCpuMs);
    const all = client + node + (database ?? 0);
    const used = (all * scans) / 1000 / (total.seconds * 1000);
    const ceiling =
      database === null
        ? // The embedded database runs in the portal's one thread: one core at most, whatever the machine has.
          `→ at most ${(1_000_000 / node).toFixed(0)} scans/s (the embedded database runs in the portal's one thread: one core)`
        : `→ at most ${((cores * 1_000_000) / all).toFixed(0)} scans/s on ${cores} free cores (${((cores * 1_000_000) / (database + node)).toFixed(0)} without the load generator, ${((cores * 1_000_000) / database).toFixed(0)} for PostgreSQL alone)`;
    console.log(
      `    ${portal.build.label.padEnd(6)} µs per scan: load generator ${client.toFixed(0)}, Node ${node.toFixed(0)}${database === null ? ' (the embedded database included)' : `, PostgreSQL CPU ${database.toFixed(0)} (execution ${perScan(total.dbMs)?.toFixed(0) ?? '—'}, waits included)`}; ` +
        `sum ${all.toFixed(0)} µs ${ceiling}; they used ${used.toFixed(2)} of ${cores} cores`,
    );
    for (const statement of statements.get(portal) ?? [])
      console.log(
        `      ${String(statement.calls).padStart(6)} × ${statement.meanMs.toFixed(2).padStart(7)} ms = ${statement.totalMs.toFixed(0).padStart(6)} ms  ${statement.text}`,
      );
  }
}

async function exportCases(portals: Portal[], quotaForm: string, badges: number, rows: number) {
  header(
    `Submissions export of ${quotaForm} (the data set's quota lists hold ${badges.toLocaleString('en')} items in all, ${rows.toLocaleString('en')} in current submissions: the export's rows), streamed; RSS above the resting server`,
    portals,
  );
  // The budget holds the memory too: the largest growth above rest of each portal over its rounds.
  const growth = new Map<Portal, number>();
  // The highest RSS seen too: growth above a rest that already holds an earlier request's young generation says less.
  const highest = new Map<Portal, number>();
  await measure(
    `${quotaForm} export (budget ${BUDGET.exportSeconds} s, +${BUDGET.exportRssMb} MB)`,
    BUDGET.exportSeconds * 1000,
    portals,
    async (portal) => {
      const rest = rssMb(portal.pid);
      let peak = rest;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(portal.pid))), 20);
      try {
        const started = performance.now();
        const response = await fetch(`${portal.url}/oga/organiser/submissions/${quotaForm}/export`, { headers: { authorization: `Bearer ${portal.organiser}` } });
        const bytes = (await response.arrayBuffer()).byteLength;
        if (!response.ok) throw new Error(`export answered ${response.status}`);
        const rate = rows / ((performance.now() - started) / 1000);
        const grown = Math.max(peak, rssMb(portal.pid)) - rest;
        growth.set(portal, Math.max(growth.get(portal) ?? 0, grown));
        highest.set(portal, Math.max(highest.get(portal) ?? 0, rest + grown));
        return `${(bytes / 1048576).toFixed(1)} MB, ${rate.toFixed(0)} rows/s, RSS ${rest.toFixed(0)} MB at rest +${grown.toFixed(0)} MB`;
      } finally {
        clearInterval(sampler);
      }
    },
    Number(process.env.BENCH_SHOW_EXPORT_ROUNDS ?? 2),
    0,
  );
  const after = growth.get(portals.at(-1)!) ?? 0;
  console.log(
    `  ${'export memory, RSS above rest'.padEnd(46)} ${portals.map((portal) => `+${(growth.get(portal) ?? 0).toFixed(0)} MB (highest RSS ${(highest.get(portal) ?? 0).toFixed(0)} MB)`.padEnd(40)).join(' | ')} | +${BUDGET.exportRssMb} MB ${after <= BUDGET.exportRssMb ? 'met' : 'NOT met'}`,
  );
}

async function importWorkbook(count: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Exhibitors');
  sheet.addRow(['Exhibitor code', 'Exhibitor name', 'Legal name', 'Booth', 'E-mail', 'Contact name', 'Modules', 'Quota: Exhibitor badges']);
  for (let i = 1; i <= count; i++) {
    const code = `BX${String(i).padStart(5, '0')}`;
    sheet.addRow([
      code,
      `Imported Exhibitor ${i}`,
      `Imported Exhibitor ${i} Sdn Bhd`,
      `Hall 10 · ${code}`,
      `${code.toLowerCase()}@import.example`,
      `Contact ${i}`,
      'Forms;Support;Manuals',
      5,
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function importOnce(portal: Portal, bytes: Buffer, commit: boolean) {
  const boundary = `----bench-${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="exhibitors.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await fetch(`${portal.url}/oga/organiser/exhibitors/import${commit ? '?commit=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${portal.organiser}` },
    body: payload,
  });
  const body = (await response.json()) as { code: number; data: { good: number; created: number; updated: number } };
  if (body.code !== 200) throw new Error(`import answered ${JSON.stringify(body).slice(0, 300)}`);
  return `${body.data.created} new, ${body.data.updated} updated`;
}

async function importCases(portals: Portal[], count: number) {
  header(`Exhibitor import of ${count.toLocaleString('en')} exhibitors (XLSX)`, portals);
  const bytes = await importWorkbook(count);
  await measure(`dry run (budget ${BUDGET.importDrySeconds} s)`, BUDGET.importDrySeconds * 1000, portals, (portal) => importOnce(portal, bytes, false), 2, 0);
  await measure(`commit (budget ${BUDGET.importCommitSeconds} s)`, BUDGET.importCommitSeconds * 1000, portals, (portal) => importOnce(portal, bytes, true), 1, 0);
  await measure(`re-import unchanged (budget ${BUDGET.reimportSeconds} s)`, BUDGET.reimportSeconds * 1000, portals, (portal) => importOnce(portal, bytes, true), 2, 0);
}

// ---- the run ----

interface ShowFacts extends GeneratedShow {
  showDays: string[];
  sampleBadge: string;
  /** The submissions export's rows: the quota list's items in the current submissions of the event's active exhibitors. */
  exportRows: number;
}

async function runCases(engine: 'postgres' | 'pglite', portals: Portal[], show: ShowFacts, scannerId: number) {
  const plans = formPlans(loadFormRegistry(), show.eventCode);
  const quotaForm = plans.find((plan) => plan.quotaList)?.id ?? plans[0]!.id;
  const firstForm = plans[0]!.id;
  if (GROUPS.has('organiser')) await organiserCases(portals, show, quotaForm, firstForm);
  if (GROUPS.has('exhibitor')) await exhibitorCases(portals, quotaForm, firstForm);
  if (GROUPS.has('leads')) await leadCases(portals, show, scannerId);
  if (GROUPS.has('export')) await exportCases(portals, quotaForm, show.badges, show.exportRows);
  if (GROUPS.has('scans')) await scanCases(portals, show, engine);
  // Last: the commit adds the imported exhibitors to each portal's copy.
  if (GROUPS.has('import')) await importCases(portals, IMPORT_EXHIBITORS);
}

async function startPortals(
  builds: ServerBuild[],
  show: GeneratedShow,
  env: (build: ServerBuild) => Promise<Record<string, string>>,
  databaseUrl: (build: ServerBuild) => string | null,
) {
  const portals: Portal[] = [];
  try {
    for (const build of builds) {
      const started = performance.now();
      const server = await startServerProcess(await env(build), build.bundle, build.cwd, 1800);
      const url = databaseUrl(build);
      portals.push({ build, url: server.url, pid: server.pid, stop: server.stop, dbTime: null, organiser: '', exhibitor: '' });
      const portal = portals.at(-1)!;
      portal.dbTime = url ? await databaseTime(url) : null;
      portal.organiser = await login(server.url, 'organiser');
      portal.exhibitor = await login(server.url, show.largestLogin);
      console.log(`  ${build.label} portal up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    // A portal that did not start leaves none running (nor a client the database's stop would break).
    for (const portal of portals) {
      await portal.dbTime?.close();
      await portal.stop();
    }
    throw error;
  }
  return portals;
}

async function facts(show: GeneratedShow, read: (query: string) => Promise<Array<Record<string, unknown>>>): Promise<{ facts: ShowFacts; scannerId: number }> {
  const days = await read(`select show_days::text as days from events where id = ${show.eventId}`);
  const badge = await read(`select badge_code from leads where participation_id = ${show.largestParticipationId} and badge_known order by id limit 1 offset 1234`);
  const scanner = await read(`select id from users where participation_id = ${show.largestParticipationId} and role = 'team_user' order by id limit 1`);
  const quota = formPlans(loadFormRegistry(), show.eventCode).find((plan) => plan.quotaList);
  const exported = quota?.quotaList
    ? await read(`select coalesce(sum(jsonb_array_length(e.submitted_data -> '${quota.quotaList.name}')), 0)::text as n
        from form_entries e join participations p on p.id = e.participation_id
        where p.event_id = ${show.eventId} and p.status = 'active' and e.form_id = '${quota.id}' and e.submitted_data is not null`)
    : [{ n: '0' }];
  return {
    facts: {
      ...show,
      showDays: (JSON.parse(String(days[0]!.days)) as Array<{ date: string }>).map((day) => day.date),
      sampleBadge: String(badge[0]?.badge_code ?? ''),
      exportRows: Number(exported[0]!.n),
    },
    scannerId: Number(scanner[0]!.id),
  };
}

/**
 * The data set's uploads are rows only (generate-show.ts). A portal's file store gets a small file
 * for each: its housekeeping removes the rows of files that are gone, an hour after they were made,
 * and that sweep (5,001 deletes) ran alongside the cases and took a core.
 */
function storeUploadFiles(dataDir: string, uploadIds: string[]) {
  const dir = join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true });
  const placeholder = Buffer.alloc(1000);
  for (const id of uploadIds) {
    const path = join(dir, id);
    if (!existsSync(path)) writeFileSync(path, placeholder);
  }
}

export async function bigShowBenchmarks() {
  const log = (line: string) => console.log(line);
  const revision = beforeRevision();
  console.log(`\n## Big show: every organiser and exhibitor path on a big show's data, before (${revision?.slice(0, 12) ?? 'none'}) and after (this tree), ${machineLoad()}`);
  const before = revision ? buildBefore(revision) : null;
  const after = buildAfter();
  const builds = [...(before ? [before] : []), after];

  const pgExhibitors = Number(process.env.BENCH_SHOW_EXHIBITORS ?? FULL_SHOW.exhibitors);
  const pgLeads = Number(process.env.BENCH_SHOW_LEADS ?? FULL_SHOW.leads);
  if (pgExhibitors > 0 && pgLeads > 0) {
    const size = showSize(pgExhibitors, pgLeads, FULL_SHOW);
    const data = await postgresShow(size, before, log);
    const portals: Portal[] = [];
    try {
      console.log(
        `\n## PostgreSQL: ${size.exhibitors.toLocaleString('en')} exhibitors, ${size.visitors.toLocaleString('en')} visitors, ${size.leads.toLocaleString('en')} leads, ${data.show.badges.toLocaleString('en')} badges; data set ${data.cached ? 'cached' : 'built'} (built in ${data.buildSeconds.toFixed(0)} s)`,
      );
      // Read from the data set itself (closed before it is copied).
      const pgClient = new (await import('pg')).default.Client({ connectionString: data.templateUrl });
      await pgClient.connect();
      const { facts: show, scannerId } = await facts(data.show, async (query) => (await pgClient.query(query)).rows as Array<Record<string, unknown>>);
      const uploadIds = (await pgClient.query<{ id: string }>('select id from uploads')).rows.map((row) => row.id);
      await pgClient.end();
      const urls = new Map<ServerBuild, string>();
      portals.push(
        ...(await startPortals(
          builds,
          show,
          async (build) => {
            const url = await data.copy(`run_${build.label}`);
            urls.set(build, url);
            if (build.label === 'after') {
              await migrateCopy({ databaseUrl: url });
              await dropIndexesForExperiment(url);
            }
            const files = join(CACHE_DIR, `run-${build.label}-pg-files`);
            storeUploadFiles(files, uploadIds);
            return { DATABASE_URL: url, DATA_DIR: files };
          },
          (build) => urls.get(build) ?? null,
        )),
      );
      await runCases('postgres', portals, show, scannerId);
    } finally {
      for (const portal of portals) {
        await portal.dbTime?.close();
        await portal.stop();
      }
      for (const build of builds) await data.drop(`run_${build.label}`).catch(() => undefined);
      await data.postgres.stop();
    }
  }

  const liteExhibitors = Number(process.env.BENCH_SHOW_PGLITE_EXHIBITORS ?? EMBEDDED_SHOW.exhibitors);
  const liteLeads = Number(process.env.BENCH_SHOW_PGLITE_LEADS ?? EMBEDDED_SHOW.leads);
  if (liteExhibitors > 0 && liteLeads > 0) {
    const size = showSize(liteExhibitors, liteLeads, EMBEDDED_SHOW);
    const data = await pgliteShow(size, before, log);
    console.log(
      `\n## PGlite (embedded): ${size.exhibitors.toLocaleString('en')} exhibitors, ${size.visitors.toLocaleString('en')} visitors, ${size.leads.toLocaleString('en')} leads, ${data.show.badges.toLocaleString('en')} badges; data set ${data.cached ? 'cached' : 'built'} (built in ${data.buildSeconds.toFixed(0)} s)`,
    );
    const { openDatabase, defaultPgliteDir } = await import('../../src/server/db/connection');
    const { sql } = await import('kysely');
    const factsDir = data.copy('facts');
    const opened = await openDatabase({ pgliteDir: defaultPgliteDir(factsDir) });
    const { facts: show, scannerId } = await facts(data.show, async (query) => (await sql.raw<Record<string, unknown>>(query).execute(opened.db)).rows);
    const uploadIds = (await sql<{ id: string }>`select id from uploads`.execute(opened.db)).rows.map((row) => row.id);
    await opened.close();
    rmSync(factsDir, { recursive: true, force: true });
    const dirs: string[] = [];
    const portals = await startPortals(
      builds,
      show,
      async (build) => {
        const dir = data.copy(`${build.label}-pglite`);
        dirs.push(dir);
        if (build.label === 'after') await migrateCopy({ pgliteDir: defaultPgliteDir(dir) });
        storeUploadFiles(dir, uploadIds);
        return { DATA_DIR: dir };
      },
      () => null,
    );
    try {
      await runCases('pglite', portals, show, scannerId);
    } finally {
      for (const portal of portals) await portal.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
}
