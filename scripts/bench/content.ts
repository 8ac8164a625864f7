import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDatabase, startPostgres } from '../../tests/support/postgres';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { sql } from 'kysely';
import { searchRows } from '../../src/server/lib/content-search';
import { landedVersion, type Version } from './exhibitor';
import { DEMO_ACCOUNT } from './support';
import { databaseTime, machineLoad, perOperation, type DatabaseTime, percentile } from './work';

// CT3 benchmark: search p95 over 5,000 content items in four languages, on PostgreSQL and
// on the embedded database (budget 50 ms). The portal runs in this process; requests go through
// app.inject so the figure is the server's own time; each case prints the CPU ms per search of
// this process and, on PostgreSQL, the database's execution ms per search. BENCH_BEFORE=<commit>
// measures that commit's server beside this one, on its own copy of the same content.

const ITEMS = Number(process.env.BENCH_CONTENT_ITEMS ?? 5000);
const SEARCH_BUDGET_MS = 50;
const ROUNDS = 40;

const WORDS = {
  en: ['logistics', 'forklift', 'badge', 'hall', 'power', 'catering', 'insurance', 'freight', 'cleaning', 'security'],
  cn: ['物流', '叉车', '证件', '展馆', '电力', '餐饮', '保险', '货运', '清洁', '安保'],
  ja: ['物流', '搬入', 'バッジ', '会場', '電源', 'ケータリング', '保険', '輸送', '清掃', '警備'],
  vi: ['hậu cần', 'xe nâng', 'thẻ', 'hội trường', 'điện', 'ăn uống', 'bảo hiểm', 'vận chuyển', 'vệ sinh', 'an ninh'],
};

function itemText(index: number) {
  const pick = (language: keyof typeof WORDS, offset: number) => WORDS[language][(index + offset) % WORDS[language].length]!;
  const text = (language: keyof typeof WORDS) => `${pick(language, 0)} ${pick(language, 3)} ${index} — ${pick(language, 5)} ${pick(language, 7)} `.repeat(12);
  return {
    title: { en: `Guide ${index}: ${pick('en', 1)}`, cn: `指南 ${index}：${pick('cn', 1)}`, ja: `ガイド ${index}：${pick('ja', 1)}`, vi: `Hướng dẫn ${index}: ${pick('vi', 1)}` },
    body: { en: text('en'), cn: text('cn'), ja: text('ja'), vi: text('vi') },
  };
}

export async function fill(app: FastifyInstance) {
  const event = await app.db.selectFrom('events').select(['id', 'default_language']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
  const kinds = ['manual', 'announcement', 'faq'] as const;
  const screens = { manual: 'manuals', announcement: 'announcements', faq: 'faq' };
  for (let start = 0; start < ITEMS; start += 250) {
    const batch = Array.from({ length: Math.min(250, ITEMS - start) }, (_, i) => start + i);
    const rows = await app.db
      .insertInto('content')
      .values(
        batch.map((index) => {
          const kind = kinds[index % 3]!;
          const { title, body } = itemText(index);
          return { event_id: event.id, kind, screen_id: screens[kind], title: JSON.stringify(title), body: JSON.stringify(body), published_at: new Date(Date.now() - 86_400_000) };
        }),
      )
      .returning(['id', 'title', 'body', 'description', 'category'])
      .execute();
    // The search rows as the organiser's content routes write them (indexContent), 250 items a statement.
    await app.db
      .insertInto('content_search')
      .values(rows.flatMap((row) => searchRows(row, event.default_language)))
      .execute();
  }
  await sql`analyze`.execute(app.db);
}

interface Portal {
  label: string;
  app: FastifyInstance;
  token: string;
  dbTime: DatabaseTime | null;
  close(): Promise<void>;
}

const CASES: Array<[string, string]> = [
  ['en', 'forklift'],
  ['en', 'guide 42'],
  ['cn', '叉车'],
  ['cn', '展馆'],
  ['ja', '搬入'],
  ['ja', 'バッジ'],
  ['vi', 'xe nang'],
  ['vi', 'hội trường'],
  ['en', 'no such word anywhere'],
];

const search = (portal: Portal, language: string, keyword: string) =>
  portal.app.inject({ method: 'GET', url: `/oga/search?keyword=${encodeURIComponent(keyword)}`, headers: { authorization: `Bearer ${portal.token}`, language } });

async function measureCase(portal: Portal, language: string, keyword: string) {
  const times: number[] = [];
  let total = 0;
  await portal.dbTime?.reset();
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const answer = await search(portal, language, keyword);
    times.push(performance.now() - started);
    total = (answer.json() as { data: { total: number } }).data.total;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const dbMs = portal.dbTime ? await portal.dbTime.read() : null;
  return { total, median: percentile(times, 0.5), p95: percentile(times, 0.95), work: perOperation(ROUNDS, (cpu.user + cpu.system) / 1000, dbMs) };
}

async function measure(portals: Portal[], label: string) {
  console.log(`\n## Search over ${ITEMS} items × 4 languages, ${label} (p95 budget ${SEARCH_BUDGET_MS} ms, ${machineLoad()} at the start)`);
  for (const portal of portals) {
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await portal.app.inject({ method: 'GET', url: '/oga/system/project/exhibirotCode', headers: { authorization: `Bearer ${portal.token}` } });
      baseline.push(performance.now() - started);
    }
    console.log(
      `  ${portal.label}: side by side, account info (session + one row), median ${percentile(baseline, 0.5).toFixed(1)} ms, p95 ${percentile(baseline, 0.95).toFixed(1)} ms`,
    );
    // The first search of an event and language (and the first after any change to its content)
    // reads the event's search texts into memory; the rest test them there.
    for (const language of ['en', 'ja'] as const) {
      const started = performance.now();
      await search(portal, language, 'warm');
      console.log(`  ${portal.label}: first search in ${language} (reads ${ITEMS} items' texts): ${(performance.now() - started).toFixed(1)} ms`);
    }
  }
  for (const [index, [language, keyword]] of CASES.entries()) {
    console.log(`  ${language} "${keyword}"`);
    // Alternating order: neither version always meets the machine after the other.
    const order = index % 2 === 1 ? [...portals].reverse() : portals;
    const figures = new Map<Portal, Awaited<ReturnType<typeof measureCase>>>();
    for (const portal of order) figures.set(portal, await measureCase(portal, language, keyword));
    for (const portal of portals) {
      const f = figures.get(portal)!;
      console.log(
        `    ${portal.label.padEnd(18)} ${String(f.total).padStart(5)} results  median ${f.median.toFixed(1).padStart(6)} ms  p95 ${f.p95.toFixed(1).padStart(6)} ms  ${f.work}  ${machineLoad()} — ${f.p95 <= SEARCH_BUDGET_MS ? 'met' : 'NOT met'}`,
      );
    }
  }
}

async function openPortal(version: Version, label: string, databaseUrl: string | undefined): Promise<Portal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-content-'));
  const app = await version.buildApp(version.loadConfig({}, { dataDir, databaseUrl, webDir: join(dataDir, 'none'), logLevel: 'silent' }), { logger: false, mailWorker: false });
  const started = performance.now();
  await fill(app);
  console.log(`\n(${version.label}, ${label}: ${ITEMS} items written and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const login = await app.inject({ method: 'POST', url: '/oga/auth/login', payload: DEMO_ACCOUNT });
  const token = (login.json() as { data: { token: string } }).data.token;
  return {
    label: version.label,
    app,
    token,
    dbTime: databaseUrl ? await databaseTime(databaseUrl) : null,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function run(versions: Version[], databaseUrlOf: (index: number) => Promise<string | undefined>, label: string) {
  const portals: Portal[] = [];
  try {
    for (const [index, version] of versions.entries()) portals.push(await openPortal(version, label, await databaseUrlOf(index)));
    await measure(portals, label);
  } finally {
    for (const portal of portals) {
      await portal.dbTime?.close();
      await portal.close();
    }
  }
}

/** With BENCH_BEFORE=<commit>, that commit's server is measured beside this one (see exhibitor.ts). */
export async function contentBenchmarks() {
  const landed = await landedVersion();
  const versions: Version[] = [...(landed ? [landed] : []), { label: 'this branch', buildApp, loadConfig }];
  const postgres = await startPostgres({ statStatements: true });
  try {
    await run(versions, (index) => createDatabase(postgres.adminUrl, `bench_content_${index}`), 'PostgreSQL');
  } finally {
    await postgres.stop();
  }
  await run(versions, async () => undefined, 'embedded PGlite');
}
