import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from '../../tests/support/ports';
import { STORAGE_KEYS } from '../../src/engine/constants';
import { badges } from './first-validation';
import { launchChromium, loginToken } from './support';

// The Lighthouse benchmark and /login's weight, against a running portal.
// Lighthouse (npm `lighthouse`, 12.x: 13.x declares Node >= 22.19) drives Debian's Chromium
// through its debugging port; signed-in pages get the demo account's token in localStorage
// before Lighthouse opens them (disableStorageReset keeps it).

export const LOGIN_WIRE_BUDGET_KB = 150;
const LIGHTHOUSE_BUDGET = { performance: 95, accessibility: 100, cls: 0.05 };
/** First paint of a big form (S04 with BENCH_LIGHTHOUSE_BADGES badges), Lighthouse's desktop profile. */
const FIRST_PAINT_BUDGET_MS = 1000;
const BADGE_COUNT = Number(process.env.BENCH_LIGHTHOUSE_BADGES ?? 200);

/** Every response /login loads (document, scripts, styles, fonts, API answers), and its size raw, gzip -9 and brotli 11. */
export async function loginPageWeight(url: string) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const bodies: Array<Promise<{ path: string; raw: number; gzip: number; brotli: number }>> = [];
    page.on('response', (response) => {
      bodies.push(
        response.body().then(
          (body) => ({
            path: new URL(response.url()).pathname,
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
            brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
          }),
          () => ({ path: new URL(response.url()).pathname, raw: 0, gzip: 0, brotli: 0 }),
        ),
      );
    });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Account ID').waitFor();
    await page.waitForTimeout(300);
    return await Promise.all(bodies);
  } finally {
    await browser.close();
  }
}

export async function printLoginWeight(url: string) {
  const files = (await loginPageWeight(url)).sort((a, b) => b.brotli - a.brotli);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);
  console.log(`\n## What /login loads (every response; sizes as served raw, and compressed here with gzip -9 and brotli 11)`);
  console.log(`  ${'raw kB'.padStart(7)} ${'gzip'.padStart(7)} ${'brotli'.padStart(7)}`);
  for (const file of files) console.log(`  ${kb(file.raw)} ${kb(file.gzip)} ${kb(file.brotli)}  ${file.path}`);
  const total = (key: 'raw' | 'gzip' | 'brotli') => files.reduce((sum, file) => sum + file[key], 0);
  console.log(`  ${kb(total('raw'))} ${kb(total('gzip'))} ${kb(total('brotli'))}  total, ${files.length} responses`);
  const met = (bytes: number) => (bytes / 1024 <= LOGIN_WIRE_BUDGET_KB ? 'met' : 'NOT met');
  console.log(`  budget ${LOGIN_WIRE_BUDGET_KB} kB on the wire: raw ${met(total('raw'))}, gzip ${met(total('gzip'))}, brotli ${met(total('brotli'))}`);
}

interface Figures {
  performance: number;
  accessibility: number;
  /** First contentful paint, ms. */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  /** The longest main-thread task Lighthouse saw (its long-tasks audit), ms. */
  longestTask: number;
}

/** The middle value (the mean of the middle two for an even count): single Lighthouse runs swing ±15 points. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Target {
  name: string;
  path: string;
  formFactor: 'mobile' | 'desktop';
  signedIn: boolean;
  /** A form's draft saved (through the API) before the page is audited: a big form is measured with its data. */
  draft?: { formId: string; data: Record<string, unknown> };
  /** The first paint (FCP) this page must make within, ms. */
  firstPaintBudget?: number;
}

const TARGETS: Target[] = [
  { name: '/login (mobile)', path: '/login', formFactor: 'mobile', signedIn: false },
  { name: '/home (desktop)', path: '/home', formFactor: 'desktop', signedIn: true },
  { name: '/orderForms (desktop)', path: '/orderForms', formFactor: 'desktop', signedIn: true },
  {
    name: `S04, ${BADGE_COUNT} badges (desktop)`,
    path: '/myParticipation/exhibitorBadges',
    formFactor: 'desktop',
    signedIn: true,
    draft: { formId: 's04', data: badges(BADGE_COUNT) },
    firstPaintBudget: FIRST_PAINT_BUDGET_MS,
  },
  { name: '/dashboard (desktop)', path: '/dashboard', formFactor: 'desktop', signedIn: true },
];

/** One Lighthouse run on a cold cache; a busy machine sometimes loses the trace (NO_NAVSTART): one more try then. */
/** Saves `data` as the demo exhibitor's draft of `formId` (drafts are saved without validation). */
async function saveDraft(url: string, token: string, formId: string, data: Record<string, unknown>) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/oga${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { code: number; msg: string; data: unknown };
    if (answer.code !== 200) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg}`);
    return answer.data;
  };
  const current = (await call('GET', `/forms/${formId}`)) as { entry: { version: number } | null };
  await call('PUT', `/forms/${formId}/draft`, { data, version: current.entry?.version ?? 0 });
}

async function audit(
  port: number,
  url: string,
  formFactor: Target['formFactor'],
  clearCache: () => Promise<unknown>,
): Promise<{ lhr: Result; trace: unknown } | { failed: string }> {
  let message = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    await clearCache();
    const result = await lighthouse(
      url,
      { port, logLevel: 'error', output: 'json', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return { lhr, trace: result.artifacts.Trace };
    message = lhr?.runtimeError?.message ?? 'no result';
  }
  return { failed: message };
}

/**
 * Lighthouse on every target, for each build given (`builds`: label and the portal serving it),
 * the builds taking turns page by page so that a change of the machine's load touches them alike.
 * LIGHTHOUSE_RUNS (default 3) runs per page and build give medians. With BENCH_LIGHTHOUSE_REPORTS=<dir>,
 * each run's full report (JSON) and its performance trace (.trace.json) are written there.
 */
export async function lighthouseBenchmarks(builds: Array<{ label: string; url: string }>) {
  const reportsDir = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (reportsDir) mkdirSync(reportsDir, { recursive: true });
  const url = builds[0]!.url;
  const port = await freePort();
  // A persistent context is the browser's default one: the tabs Lighthouse opens share its localStorage.
  const profile = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--remote-debugging-port=${port}`,
    ],
  });
  const flagged = new Map<string, Set<string>>();
  try {
    const page = await context.newPage();
    await page.goto(`${url}/login`);
    // Lighthouse keeps the cache along with the storage (disableStorageReset): each page loads cold.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    console.log(
      `\n## Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} on Debian's Chromium (simulated throttling; budgets performance ≥ ${LIGHTHOUSE_BUDGET.performance}, accessibility ${LIGHTHOUSE_BUDGET.accessibility}, CLS ≤ ${LIGHTHOUSE_BUDGET.cls})`,
    );
    const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
    console.log(
      `  ${runs} run(s) per page and build, builds taking turns run by run; medians, the score's min–max beside it; FCP = first contentful paint (S04's budget: ≤ ${FIRST_PAINT_BUDGET_MS} ms); task ms = the longest main-thread task; load = uptime's 1-minute load average when the runs began`,
    );
    console.log(
      `  ${'page'.padEnd(44)} ${'perf'.padStart(4)} ${'min–max'.padStart(7)} ${'a11y'.padStart(4)} ${'FCP ms'.padStart(7)} ${'LCP ms'.padStart(7)} ${'TBT ms'.padStart(7)} ${'CLS'.padStart(6)} ${'kB'.padStart(7)} ${'task ms'.padStart(7)} ${'load'.padStart(5)}  budgets`,
    );
    // BENCH_LIGHTHOUSE_PAGES=orderForms,S04 measures only the pages whose name contains one of these.
    const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
    for (const target of TARGETS.filter((t) => !only || only.some((name) => t.name.includes(name)))) {
      const results = new Map<string, { figures: Figures[]; failures: string[]; load: number[] }>(builds.map((build) => [build.label, { figures: [], failures: [], load: [] }]));
      for (let run = 0; run < runs; run++) {
        for (const build of builds) {
          const name = builds.length > 1 ? `${target.name} ${build.label}` : target.name;
          const result = results.get(build.label)!;
          result.load.push(loadavg()[0]!);
          // Each build is its own origin (its own localStorage): the token goes where the page opens.
          await page.goto(`${build.url}/login`);
          const token = target.signedIn ? await loginToken(build.url) : null;
          if (target.draft && token && run === 0) await saveDraft(build.url, token, target.draft.formId, target.draft.data);
          await page.evaluate(([key, value]) => (value ? localStorage.setItem(key!, value) : localStorage.removeItem(key!)), [STORAGE_KEYS.token, token] as const);
          const audited = await audit(port, `${build.url}${target.path}`, target.formFactor, () => cdp.send('Network.clearBrowserCache'));
          if ('failed' in audited) {
            result.failures.push(audited.failed);
            continue;
          }
          const { lhr } = audited;
          if (reportsDir) {
            const file = join(reportsDir, `${name.replace(/[^\w]+/g, '-')}-${run + 1}`);
            writeFileSync(`${file}.json`, JSON.stringify(lhr));
            // The run's performance trace (opens in Chromium's DevTools, Performance panel): which task blocked.
            writeFileSync(`${file}.trace.json`, JSON.stringify(audited.trace));
          }
          const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
          const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
          result.figures.push({
            performance: score('performance'),
            accessibility: score('accessibility'),
            fcp: value('first-contentful-paint'),
            lcp: value('largest-contentful-paint'),
            tbt: value('total-blocking-time'),
            cls: value('cumulative-layout-shift'),
            bytes: value('total-byte-weight'),
            longestTask: Math.max(0, ...((lhr.audits['long-tasks']?.details as { items?: Array<{ duration: number }> } | undefined)?.items ?? []).map((task) => task.duration)),
          });
          // What Lighthouse flags for accessibility (each finding is a fix to make).
          for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
              if (!flagged.has(audit.id)) flagged.set(audit.id, new Set());
              flagged.get(audit.id)!.add(name);
            }
          }
        }
      }
      for (const build of builds) {
        const name = builds.length > 1 ? `${target.name} ${build.label}` : target.name;
        const { figures: all, failures, load } = results.get(build.label)!;
        if (all.length === 0) {
          console.log(`  ${name.padEnd(44)} Lighthouse failed every run: ${failures.join('; ')}`);
          continue;
        }
        const of = (key: keyof Figures) => median(all.map((figures) => figures[key]));
        const figures: Figures = {
          performance: of('performance'),
          accessibility: of('accessibility'),
          fcp: of('fcp'),
          lcp: of('lcp'),
          tbt: of('tbt'),
          cls: of('cls'),
          bytes: of('bytes'),
          longestTask: of('longestTask'),
        };
        const scores = all.map((f) => f.performance);
        const misses = [
          figures.performance < LIGHTHOUSE_BUDGET.performance && 'performance',
          figures.accessibility < LIGHTHOUSE_BUDGET.accessibility && 'accessibility',
          figures.cls > LIGHTHOUSE_BUDGET.cls && 'CLS',
          target.firstPaintBudget !== undefined && figures.fcp > target.firstPaintBudget && 'first paint',
        ].filter(Boolean);
        console.log(
          `  ${name.padEnd(44)} ${figures.performance.toFixed(0).padStart(4)} ${`${Math.min(...scores)}–${Math.max(...scores)}`.padStart(7)} ${figures.accessibility.toFixed(0).padStart(4)} ${figures.fcp.toFixed(0).padStart(7)} ${figures.lcp.toFixed(0).padStart(7)} ${figures.tbt.toFixed(0).padStart(7)} ${figures.cls.toFixed(3).padStart(6)} ${(figures.bytes / 1024).toFixed(0).padStart(7)} ${figures.longestTask.toFixed(0).padStart(7)} ${median(load).toFixed(1).padStart(5)}  ${misses.length === 0 ? 'met' : `NOT met: ${misses.join(', ')}`}${failures.length > 0 ? ` (${failures.length} run(s) failed)` : ''}`,
        );
      }
    }
    if (flagged.size > 0) {
      console.log('  accessibility audits that failed:');
      for (const [id, pages] of flagged) console.log(`    ${id}: ${[...pages].join(', ')}`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
