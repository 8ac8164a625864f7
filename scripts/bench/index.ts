import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawn } from 'node:child_process';
import Fastify from 'fastify';
import { startPostgres } from '../../tests/support/postgres';
import { ROOT } from '../catalogue-source';
import { contentBenchmarks } from './content';
import { formsBenchmarks } from './forms';
import { liveFormsBenchmarks } from './forms-live';
import { leadsBenchmarks } from './leads';
import { organiserImportBenchmarks } from './organiser-import';
import { organiserBenchmarks } from './organiser';
import { ensureBuilt, launchChromium, loginToken, startPortal } from './support';

// `npm run bench`: figures, not tests. Budgets are printed next to what was measured; machines
// are noisy, so nothing here fails a build.

const LOGIN_JS_BUDGET_KB = 160;
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;

async function loginPageJs(url: string) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const scripts: Array<{ url: string; gzip: number }> = [];
    page.on('response', async (response) => {
      if (!response.url().endsWith('.js')) return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      scripts.push({ url: response.url(), gzip: gzipSync(body, { level: 9 }).length });
    });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Account ID').waitFor();
    await page.waitForTimeout(300);
    return scripts;
  } finally {
    await browser.close();
  }
}

/** The load comes from a separate process (autocannon's CLI), so it does not share our event loop. */
async function load(url: string, headers: Record<string, string> = {}) {
  const args = ['--json', '-c', String(CONNECTIONS), '-d', String(LOAD_SECONDS)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const child = spawn(join(ROOT, 'node_modules/.bin/autocannon'), [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  const result = JSON.parse(output) as { requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function bareFastify() {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'Borneo Botanica' } }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/bare`, close: () => app.close() };
}

/** `npm run bench` runs every section; `npm run bench -- web`, `-- leads`, `-- content`, `-- organiser` or `-- forms-live` one of them. */
async function main() {
  const sections = process.argv.slice(2);
  const wants = (section: string) => sections.length === 0 || sections.includes(section);
  console.log(`\n# Exhibitor portal benchmarks (${new Date().toISOString()})`);
  if (wants('web')) await webBenchmarks();
  if (wants('leads')) await leadsBenchmarks();
  if (wants('content')) await contentBenchmarks();
  if (wants('import')) await organiserImportBenchmarks();
  if (wants('organiser')) await organiserBenchmarks();
  if (wants('forms-live')) await liveFormsBenchmarks();
}

async function webBenchmarks() {
  ensureBuilt();

  const portal = await startPortal();
  try {
    const scripts = await loginPageJs(portal.url);
    const totalKb = scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;
    console.log(`\n## JavaScript that /login loads (gzip -9)`);
    for (const script of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(script.gzip / 1024).toFixed(1).padStart(6)} kB  ${new URL(script.url).pathname}`);
    console.log(`  total ${totalKb.toFixed(1)} kB in ${scripts.length} files; budget ${LOGIN_JS_BUDGET_KB} kB: ${totalKb <= LOGIN_JS_BUDGET_KB ? 'met' : 'NOT met'}`);

    console.log(`\n## Requests/s, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, measured side by side`);
    const bare = await bareFastify();
    const rows: Array<[string, { rps: number; p99: number }]> = [];
    try {
      const token = await loginToken(portal.url);
      rows.push(['bare Fastify route', await load(bare.url)]);
      rows.push(['GET /oga/system/project/exhibirotCode (PGlite)', await load(`${portal.url}/oga/system/project/exhibirotCode`, { authorization: `Bearer ${token}` })]);
      let postgres;
      try {
        postgres = await startPostgres();
      } catch (error) {
        console.log(`  (PostgreSQL not available: ${(error as Error).message})`);
      }
      if (postgres) {
        const pgPortal = await startPortal(postgres.adminUrl);
        try {
          const pgToken = await loginToken(pgPortal.url);
          rows.push(['GET /oga/system/project/exhibirotCode (PostgreSQL)', await load(`${pgPortal.url}/oga/system/project/exhibirotCode`, { authorization: `Bearer ${pgToken}` })]);
        } finally {
          await pgPortal.close();
          await postgres.stop();
        }
      }
      const base = rows[0]![1].rps;
      for (const [name, figures] of rows) {
        console.log(`  ${name.padEnd(52)} ${figures.rps.toFixed(0).padStart(7)} req/s  p99 ${String(figures.p99).padStart(4)} ms  ratio to bare ${(figures.rps / base).toFixed(2)}`);
      }
    } finally {
      await bare.close();
    }

    await formsBenchmarks(portal.url);
  } finally {
    await portal.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
