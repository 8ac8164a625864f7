import { join } from 'node:path';
import { spawn } from 'node:child_process';
import Fastify from 'fastify';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { bigShowBenchmarks } from './big-show';
import { contentBenchmarks } from './content';
import { exhibitorBenchmarks } from './exhibitor';
import { formsBenchmarks, keystrokeBenchmarks } from './forms';
import { liveFormsBenchmarks } from './forms-live';
import { formVersionsBenchmarks } from './form-versions';
import { formEditorSection } from './form-editor-browser';
import { leadsBenchmarks } from './leads';
import { multiInstanceBenchmarks } from './multi-instance';
import { scannerQueueBenchmarks } from './scanner-queue';
import { listImportBenchmarks } from './list-import';
import { organiserImportBenchmarks } from './organiser-import';
import { organiserBenchmarks } from './organiser';
import { scanCostBenchmarks } from './scan-cost';
import { scannerBenchmarks } from './scanner';
import { webhooksBenchmarks } from './webhooks';
import { leadsSyncBenchmarks } from './leads-sync';
import { lighthouseBenchmarks, printLoginWeight } from './lighthouse';
import { ensureBuilt, loginToken, startPortal } from './support';
import { databaseTime, machineLoad, perOperation, withCpu, type DatabaseTime } from './work';

// `npm run bench`: figures, not tests. Budgets are printed next to what was measured; machines
// are noisy, so nothing here fails a build.

const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
/** Budget: account info on PostgreSQL at least this share of a bare Fastify route's requests/s. */
const ACCOUNT_INFO_RATIO_BUDGET = 0.25;

interface LoadFigures {
  rps: number;
  p99: number;
  /** What the server did per request: its CPU (this process's, where the portals run) and PostgreSQL's execution time. */
  work: string;
  cpuMsPerRequest: number;
}

/**
 * The load comes from a separate process (autocannon's CLI), so it does not share our event loop;
 * the servers run in this process, so this process's CPU time over the run is theirs.
 */
async function load(url: string, headers: Record<string, string> = {}, dbTime: DatabaseTime | null = null): Promise<LoadFigures> {
  await dbTime?.reset();
  const measured = await withCpu(undefined, () => autocannon(url, headers));
  const dbMs = dbTime ? await dbTime.read() : null;
  return {
    rps: measured.result.rps,
    p99: measured.result.p99,
    work: `${perOperation(measured.result.requests, measured.cpuMs, dbMs)}  ${measured.load}`,
    cpuMsPerRequest: measured.cpuMs / measured.result.requests,
  };
}

async function autocannon(url: string, headers: Record<string, string>) {
  const args = ['--json', '-c', String(CONNECTIONS), '-d', String(LOAD_SECONDS)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const child = spawn(join(ROOT, 'node_modules/.bin/autocannon'), [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  const result = JSON.parse(output) as { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, requests: Math.max(1, result.requests.total) };
}

async function bareFastify() {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'Borneo Botanica' } }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/bare`, close: () => app.close() };
}

/**
 * `npm run bench` runs every section; `npm run bench -- web`, `-- lighthouse`, `-- leads`, `-- content`, `-- exhibitor`, `-- organiser`,
 * `-- forms` (keystroke-to-paint alone), `-- forms-live`, `-- form-versions`, `-- form-editor` (keystroke to the editor's preview; before/after with BENCH_EDITOR_BEFORE), `-- list-import`, `-- scanner`, `-- webhooks` (with `-- sync`, the leads API sync alone), `-- multi`
 * or `-- big-show` one of them; `-- scan-cost` (where PostgreSQL's CPU per scan goes) runs only when named.
 */
async function main() {
  const sections = process.argv.slice(2);
  const wants = (section: string) => sections.length === 0 || sections.includes(section);
  console.log(`\n# Exhibitor portal benchmarks (${new Date().toISOString()})`);
  if (wants('web')) await webBenchmarks();
  if (wants('lighthouse')) await lighthouseSection();
  if (wants('leads')) await leadsBenchmarks();
  if (wants('scanner')) await scannerQueueBenchmarks();
  if (wants('content')) await contentBenchmarks();
  if (wants('exhibitor')) await exhibitorBenchmarks();
  if (wants('import')) await organiserImportBenchmarks();
  if (wants('organiser')) await organiserBenchmarks();
  if (sections.includes('forms')) {
    ensureBuilt();
    await keystrokeBenchmarks();
  }
  if (wants('forms-live')) await liveFormsBenchmarks();
  if (wants('form-versions')) await formVersionsBenchmarks();
  if (wants('form-editor')) {
    ensureBuilt();
    await formEditorSection();
  }
  if (wants('list-import')) await listImportBenchmarks();
  if (wants('scanner')) await scannerBenchmarks();
  if (wants('webhooks')) await webhooksBenchmarks();
  else if (sections.includes('sync')) await leadsSyncBenchmarks();
  if (wants('multi')) await multiInstanceBenchmarks();
  if (wants('big-show')) await bigShowBenchmarks();
  if (sections.includes('scan-cost')) await scanCostBenchmarks();
}

async function webBenchmarks() {
  ensureBuilt();

  const portal = await startPortal();
  try {
    await printLoginWeight(portal.url);

    console.log(`\n## Requests/s, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, measured side by side (${machineLoad()} at the start)`);
    // CPU ms/op: the server's own CPU per request (the servers run in this process); DB: PostgreSQL's
    // execution time per request. On a busy machine these say more than requests/s.
    const bare = await bareFastify();
    const rows: Array<[string, LoadFigures]> = [];
    try {
      const token = await loginToken(portal.url);
      rows.push(['bare Fastify route', await load(bare.url)]);
      rows.push(['GET /oga/system/project/exhibirotCode (PGlite)', await load(`${portal.url}/oga/system/project/exhibirotCode`, { authorization: `Bearer ${token}` })]);
      let postgres;
      try {
        postgres = await startPostgres({ statStatements: true });
      } catch (error) {
        console.log(`  (PostgreSQL not available: ${(error as Error).message})`);
      }
      if (postgres) {
        const pgPortal = await startPortal(postgres.adminUrl);
        // The same with the request log production writes (level info, two lines per request).
        const loggingPortal = await startPortal(postgres.adminUrl, undefined, { requestLog: true });
        const dbTime = await databaseTime(postgres.adminUrl);
        try {
          const pgToken = await loginToken(pgPortal.url);
          rows.push([
            'GET /oga/system/project/exhibirotCode (PostgreSQL)',
            await load(`${pgPortal.url}/oga/system/project/exhibirotCode`, { authorization: `Bearer ${pgToken}` }, dbTime),
          ]);
          const loggingToken = await loginToken(loggingPortal.url);
          rows.push([
            '  the same, request log on (PostgreSQL)',
            await load(`${loggingPortal.url}/oga/system/project/exhibirotCode`, { authorization: `Bearer ${loggingToken}` }, dbTime),
          ]);
        } finally {
          await dbTime?.close();
          await pgPortal.close();
          await loggingPortal.close();
          await postgres.stop();
        }
      }
      // The bare route again at the end: the machine's load moves during a run.
      rows.push(['bare Fastify route (again)', await load(bare.url)]);
      const base = (rows[0]![1].rps + rows.at(-1)![1].rps) / 2;
      const baseCpu = (rows[0]![1].cpuMsPerRequest + rows.at(-1)![1].cpuMsPerRequest) / 2;
      for (const [name, figures] of rows) {
        const ratio = figures.rps / base;
        // The same budget judged from work done: the bare route's CPU per request over this one's.
        const cpuRatio = baseCpu / figures.cpuMsPerRequest;
        const verdict = name.includes('PostgreSQL')
          ? `  budget ${ACCOUNT_INFO_RATIO_BUDGET}×: ${ratio >= ACCOUNT_INFO_RATIO_BUDGET ? 'met' : 'NOT met'} (by CPU per request ${cpuRatio.toFixed(2)}×: ${cpuRatio >= ACCOUNT_INFO_RATIO_BUDGET ? 'met' : 'NOT met'})`
          : '';
        console.log(
          `  ${name.padEnd(52)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(4)} ms  ratio to bare (mean of both) ${ratio.toFixed(2)}${verdict}  ${figures.work}`,
        );
      }
    } finally {
      await bare.close();
    }

    await formsBenchmarks(portal.url);
  } finally {
    await portal.close();
  }
}

/**
 * Lighthouse on the built app; with BENCH_LIGHTHOUSE_BEFORE=<an earlier build's dist/web>, that
 * build too, side by side in the same run (both served by this server code).
 */
async function lighthouseSection() {
  ensureBuilt();
  const before = process.env.BENCH_LIGHTHOUSE_BEFORE;
  const portals = [...(before ? [{ label: 'before', portal: await startPortal(undefined, before) }] : []), { label: before ? 'after' : '', portal: await startPortal() }];
  try {
    await lighthouseBenchmarks(portals.map(({ label, portal }) => ({ label, url: portal.url })));
  } finally {
    for (const { portal } of portals) await portal.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
