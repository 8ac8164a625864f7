import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ROOT } from '../catalogue-source';
import { badges, FORMS, measure, prepare, products, type BenchForm, type PreparedForm, type Sample, type Variant } from './first-validation';
import { firstValidationInBrowser } from './first-validation-browser';
import { launchChromium, loginToken, startPortal } from './support';
import { machineLoad } from './work';

// The forms benchmarks: what the first validation of a big form costs with the
// validators the server compiles and serves against compiling at run time (Node), and how long a keystroke takes
// to reach the screen in a big form (Chromium): S04 with BENCH_FORMS_BADGES badges (200) and S02 with
// BENCH_FORMS_PRODUCTS products (100), beside a plain input on /login measured in the same run.
// BENCH_FORMS_BEFORE=<an earlier build's dist/web> measures that build too, side by side (builds
// taking turns; BENCH_FORMS_ROUNDS rounds, default 1). Figures, not tests.

const SAME_PROCESS_SAMPLES = 40;
const FRESH_PROCESS_SAMPLES = 8;
const KEYSTROKES = 'Nurul Aisyah binti A'; // 20 characters, a valid name
const KEYSTROKE_BUDGET_MS = 16;
const BADGE_COUNT = Number(process.env.BENCH_FORMS_BADGES ?? 200);
const PRODUCT_COUNT = Number(process.env.BENCH_FORMS_PRODUCTS ?? 100);

/** Nearest-rank percentile (p in 0–100) of numbers. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;

function checkValid(form: BenchForm, variant: Variant, sample: Sample) {
  if (sample.errors > 0) throw new Error(`${form.id} ${variant}: the benchmark document is invalid (${sample.errors} errors)`);
}

/** Same process: both variants one after the other (order alternating), many times. */
async function sameProcess(form: PreparedForm) {
  const times: Record<Variant, Sample[]> = { runtime: [], served: [] };
  for (let i = 0; i < SAME_PROCESS_SAMPLES; i++) {
    for (const variant of (i % 2 === 0 ? ['runtime', 'served'] : ['served', 'runtime']) as Variant[]) {
      const sample = await measure(form, variant, String(i));
      checkValid(form, variant, sample);
      times[variant].push(sample);
    }
  }
  return times;
}

/** Fresh process per sample: the very first validation a new server process does. */
function freshProcess(form: BenchForm) {
  const times: Record<Variant, Sample[]> = { runtime: [], served: [] };
  for (let i = 0; i < FRESH_PROCESS_SAMPLES; i++) {
    for (const variant of (i % 2 === 0 ? ['runtime', 'served'] : ['served', 'runtime']) as Variant[]) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench/first-validation.ts'), form.id, variant], { cwd: ROOT, encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`first-validation.ts ${form.id} ${variant} failed: ${child.stderr}`);
      const sample = JSON.parse(child.stdout) as Sample;
      checkValid(form, variant, sample);
      times[variant].push(sample);
    }
  }
  return times;
}

function printComparison(label: string, how: string, samples: Record<Variant, Sample[]>) {
  const median = (variant: Variant, part: keyof Sample) =>
    percentile(
      samples[variant].map((sample) => sample[part]),
      50,
    );
  const runtime = median('runtime', 'ms');
  const served = median('served', 'ms');
  const validate = (variant: Variant) => `(validate ${median(variant, 'validateMs').toFixed(1)})`.padEnd(15);
  console.log(
    `  ${label.padEnd(18)} ${how.padEnd(24)} runtime ${ms(runtime)} ${validate('runtime')} served ${ms(served)} ${validate('served')} runtime/served ${(runtime / served).toFixed(1)}×`,
  );
}

async function firstValidation() {
  console.log(`\n## First validation: served (server-compiled) vs runtime-compiled (Node ${process.version}, medians)`);
  console.log('  runtime = createFormAjv().compile(schema) + runValidator on the document');
  console.log('  served  = import() of the module the server serves at /oga/forms/validators/<hash>.js (a URL not imported');
  console.log('            before; rules and ajv runtime already loaded) + instantiate + runValidator');
  console.log('  (validate …) = median of the first runValidator call alone, the rest being compile or import');
  console.log('  "same process": alternating, both warm after the first samples (ajv\'s compiler, tsx\'s loader already JIT-compiled);');
  console.log('  "fresh process": one sample per new Node process after loading what the server has loaded (the true first one).');
  for (const form of FORMS) {
    const prepared = prepare(form);
    printComparison(form.label, `same process, n=${SAME_PROCESS_SAMPLES}`, await sameProcess(prepared));
    printComparison(form.label, `fresh process, n=${FRESH_PROCESS_SAMPLES}`, freshProcess(form));
  }
}

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/oga${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: unknown };
  if (answer.code !== 200) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

interface KeystrokeFigures {
  /** Per keystroke, keydown's timeStamp to a task queued from the next animation frame (after that frame's paint). */
  raf: number[];
  /** Per keystroke, the Event Timing `duration` of its keydown; null = under the 16 ms threshold, so not reported. */
  eventTiming: Array<number | null> | null;
  /** From each keydown to the next (the typing's pace: a form that works in the pauses between keys depends on it). */
  gaps: number[];
}

/** In the page: records each keydown (capture phase, before React) and when the next frame was painted. */
function instrument() {
  const w = window as unknown as { __keys: Array<{ start: number; painted: number | null }>; __events: Array<{ start: number; duration: number }>; __eventTiming: boolean };
  w.__keys = [];
  w.__events = [];
  window.addEventListener(
    'keydown',
    (event) => {
      const record = { start: event.timeStamp, painted: null as number | null };
      w.__keys.push(record);
      requestAnimationFrame(() => setTimeout(() => (record.painted = performance.now()), 0));
    },
    { capture: true },
  );
  w.__eventTiming = PerformanceObserver.supportedEntryTypes.includes('event');
  if (w.__eventTiming) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === 'keydown') w.__events.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  }
}

async function typeAndMeasure(page: Page, selector: string): Promise<KeystrokeFigures> {
  const input = page.locator(selector);
  await input.scrollIntoViewIfNeeded();
  await input.focus();
  await page.keyboard.press('End');
  await page.waitForTimeout(300);
  await page.evaluate(instrument);
  const before = await input.inputValue();
  for (let i = 0; i < KEYSTROKES.length; i++) {
    await page.keyboard.type(KEYSTROKES[i]!);
    await page.waitForFunction((n) => (window as unknown as { __keys: Array<{ painted: number | null }> }).__keys[n]?.painted != null, i, { polling: 20 });
    await page.waitForTimeout(50);
  }
  await page.waitForTimeout(200); // Event Timing entries arrive after the paint
  if ((await input.inputValue()) !== before + KEYSTROKES) throw new Error(`${selector}: typing did not reach the field (${await input.inputValue()})`);
  const { keys, events, eventTiming } = await page.evaluate(() => {
    const w = window as unknown as { __keys: Array<{ start: number; painted: number }>; __events: Array<{ start: number; duration: number }>; __eventTiming: boolean };
    return { keys: w.__keys, events: w.__events, eventTiming: w.__eventTiming };
  });
  if (keys.length !== KEYSTROKES.length) throw new Error(`${keys.length} keydowns recorded for ${KEYSTROKES.length} keystrokes`);
  return {
    raf: keys.map((key) => key.painted - key.start),
    gaps: keys.slice(1).map((key, i) => key.start - keys[i]!.start),
    eventTiming: eventTiming ? keys.map((key) => events.find((entry) => Math.abs(entry.start - key.start) < 1)?.duration ?? null) : null,
  };
}

/** A percentile where null stands for "under the threshold" (lower than any reported value). */
function thresholdPercentile(values: Array<number | null>, p: number): number | null {
  const sorted = [...values].sort((a, b) => (a ?? -1) - (b ?? -1));
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

interface KeystrokeCase {
  form: BenchForm;
  path: string;
  items: string;
  /** How many items the draft holds; the keystrokes go into the last one. */
  count: number;
  input: string;
  field: string;
}

const KEYSTROKE_CASES = (): KeystrokeCase[] => [
  {
    form: { id: 's04', label: `S04, ${BADGE_COUNT} badges`, document: badges(BADGE_COUNT) },
    path: '/myParticipation/exhibitorBadges',
    items: 'badges',
    count: BADGE_COUNT,
    input: `root_badges_${BADGE_COUNT - 1}_firstName`,
    field: 'first name',
  },
  {
    form: { id: 's02', label: `S02, ${PRODUCT_COUNT} products`, document: products(PRODUCT_COUNT) },
    path: '/myParticipation/productHighlights',
    items: 'products',
    count: PRODUCT_COUNT,
    input: `root_products_${PRODUCT_COUNT - 1}_productName`,
    field: 'product name',
  },
];

export interface CpuProfile {
  nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** The functions that took the most time while typing (a Chromium CPU profile): self and total time, for finding what to make faster. */
export function topOfProfile(profile: CpuProfile, count = 30): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (id: number) => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    if (['(idle)', '(program)', '(garbage collector)', '(root)'].includes(byId.get(id)!.callFrame.functionName)) return;
    busy += delta;
    self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(nameOf(at));
    for (const name of seen) total.set(name, (total.get(name) ?? 0) + delta);
  });
  const list = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  return [`busy ${(busy / 1000).toFixed(1)} ms; by self time:`, ...list(self), 'by total time:', ...list(total)];
}

/** Types into the last item of S04 and S02 in one built web app, served by the portal at `url`; the control first. */
async function measureKeystrokes(url: string, options: { profile?: boolean } = {}): Promise<Array<{ label: string; figures: KeystrokeFigures; profile?: string[] }>> {
  const token = await loginToken(url);
  const results: Array<{ label: string; figures: KeystrokeFigures; profile?: string[] }> = [];
  const browser = await launchChromium();
  try {
    // The floor: the same typing into the login page's account field (a plain input, no MUI, no
    // form library), so that what the forms cost can be told from what any keystroke costs here.
    const control = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    try {
      const page = await control.newPage();
      await page.goto(`${url}/login`);
      results.push({ label: 'control: login page, account ID', figures: await typeAndMeasure(page, 'input[autocomplete="username"]') });
    } finally {
      await control.close();
    }
    for (const { form, path, items, count: expected, input, field } of KEYSTROKE_CASES()) {
      // Drafts are saved without validation; S02's S01 prerequisite only blocks submitting.
      const current = (await api(url, token, 'GET', `/forms/${form.id}`)) as { entry: { version: number } | null };
      await api(url, token, 'PUT', `/forms/${form.id}/draft`, { data: form.document, version: current.entry?.version ?? 0 });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
      try {
        const page = await context.newPage();
        await page.goto(`${url}/login`);
        await page.evaluate((value) => localStorage.setItem('oem_token', value), token);
        await page.goto(`${url}${path}`);
        await page
          .locator(`#${input}`)
          .waitFor({ timeout: 30_000 })
          .catch(async (error: Error) => {
            const shown = await page
              .locator('body')
              .innerText()
              .catch(() => '');
            throw new Error(`${path}: no #${input} after 30 s (${error.message.split('\n')[0]}); the page shows: ${shown.slice(0, 300).replace(/\s+/g, ' ')}`);
          });
        const count = await page.locator(`[id^="root_${items}_"][id$="_${input.split('_').pop()}"]`).count();
        if (count !== expected) throw new Error(`${path}: ${count} ${items} shown, expected ${expected}`);
        const cdp = options.profile ? await context.newCDPSession(page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
          await cdp.send('Profiler.start');
        }
        const figures = await typeAndMeasure(page, `#${input}`);
        const profile = cdp ? topOfProfile(((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile) : undefined;
        results.push({ label: `${form.label}, ${field} of #${expected}`, figures, profile });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

type KeystrokeResults = Awaited<ReturnType<typeof measureKeystrokes>>;

/** Each case's figures; `control` (the plain input of the same run and build) gives each form's ratio to it. */
function printKeystrokes(build: string | null, results: KeystrokeResults, control?: KeystrokeFigures) {
  for (const { label, figures, profile } of results) {
    const name = build ? `${build}: ${label}` : label;
    const rafP95 = percentile(figures.raf, 95);
    const ratio =
      control && control !== figures
        ? `  ratio to the control: median ${(percentile(figures.raf, 50) / percentile(control.raf, 50)).toFixed(2)}×, p95 ${(rafP95 / percentile(control.raf, 95)).toFixed(2)}×`
        : '';
    console.log(
      `  ${name.padEnd(52)} rAF           median ${ms(percentile(figures.raf, 50))}  p95 ${ms(rafP95)}  max ${ms(Math.max(...figures.raf))}${ratio}; keys ${percentile(figures.gaps, 50).toFixed(0)} ms apart (median)`,
    );
    let verdictP95: number | null = rafP95;
    let source = 'rAF';
    if (figures.eventTiming) {
      const show = (value: number | null) => (value === null ? '   <16 ms' : ms(value));
      const reported = figures.eventTiming.filter((value): value is number => value !== null);
      verdictP95 = thresholdPercentile(figures.eventTiming, 95);
      source = 'event timing';
      console.log(
        `  ${''.padEnd(52)} event timing  median ${show(thresholdPercentile(figures.eventTiming, 50))}  p95 ${show(verdictP95)}  ${reported.length}/${figures.eventTiming.length} keystrokes ≥16 ms${reported.length ? ` (${reported.join(', ')})` : ''}`,
      );
    } else console.log('  (Event Timing not supported by this Chromium: the budget is judged on rAF)');
    console.log(`  ${''.padEnd(52)} budget ${KEYSTROKE_BUDGET_MS} ms at p95 (${source}): ${verdictP95 === null || verdictP95 <= KEYSTROKE_BUDGET_MS ? 'met' : 'NOT met'}`);
    if (profile) console.log(`  CPU profile while typing, self time:\n${profile.map((line) => `    ${line}`).join('\n')}`);
  }
}

function keystrokeHeader() {
  console.log(`\n## Keystroke-to-paint, Chromium (headless, 1280×900), ${KEYSTROKES.length} keystrokes one by one into the last item's name (${machineLoad()} at the start)`);
  console.log('  event timing = the keydown\'s Event Timing duration (keydown to the next paint; only ≥16 ms is reported, the rest is "<16")');
  console.log('  rAF          = keydown timeStamp to a setTimeout(0) queued from the next requestAnimationFrame (after that frame)');
  console.log("  ratio to the control = the form's rAF figure over the plain /login input's, same build and run (1× = as cheap as a plain input)");
}

async function keystrokeToPaint(url: string) {
  const before = process.env.BENCH_FORMS_BEFORE;
  if (before) {
    await compareKeystrokes(
      [
        { name: 'before', webDir: before },
        { name: 'after', webDir: join(ROOT, 'dist/web') },
      ],
      Number(process.env.BENCH_FORMS_ROUNDS ?? 1),
    );
    return;
  }
  keystrokeHeader();
  const results = await measureKeystrokes(url);
  printKeystrokes(null, results, results[0]!.figures);
}

/**
 * Several builds of the web app side by side (e.g. before and after a change), each served by
 * its own portal on a fresh database; builds take turns round by round so that machine noise
 * falls on all of them alike.
 */
export async function compareKeystrokes(builds: Array<{ name: string; webDir: string }>, rounds = 1, profile = false) {
  keystrokeHeader();
  console.log(`  builds: ${builds.map((b) => `${b.name} = ${b.webDir}`).join(', ')}; ${rounds} round(s)`);
  const results = new Map<string, Awaited<ReturnType<typeof measureKeystrokes>>>();
  for (let round = 0; round < rounds; round++) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const portal = await startPortal(undefined, build.webDir);
      try {
        const measured = await measureKeystrokes(portal.url, { profile });
        const previous = results.get(build.name);
        results.set(
          build.name,
          previous
            ? previous.map((entry, i) => ({
                label: entry.label,
                figures: {
                  raf: [...entry.figures.raf, ...measured[i]!.figures.raf],
                  gaps: [...entry.figures.gaps, ...measured[i]!.figures.gaps],
                  eventTiming: entry.figures.eventTiming && measured[i]!.figures.eventTiming ? [...entry.figures.eventTiming, ...measured[i]!.figures.eventTiming!] : null,
                },
                profile: measured[i]!.profile,
              }))
            : measured,
        );
      } finally {
        await portal.close();
      }
    }
  }
  // Side by side: each case, every build (the control, first, of each build is what its forms are compared with).
  const cases = results.get(builds[0]!.name)!.length;
  for (let i = 0; i < cases; i++) {
    for (const build of builds) printKeystrokes(build.name, [results.get(build.name)![i]!], results.get(build.name)![0]!.figures);
  }
  console.log(`  (${machineLoad()} at the end)`);
}

/** Both sections of the forms benchmarks, against a running portal (demo data seeded). */
export async function formsBenchmarks(url: string) {
  await firstValidation();
  await firstValidationInBrowser();
  await keystrokeToPaint(url);
}

/** `npm run bench -- forms`: keystroke-to-paint alone, on a portal of its own (before and after with BENCH_FORMS_BEFORE). */
export async function keystrokeBenchmarks() {
  if (process.env.BENCH_FORMS_BEFORE) return keystrokeToPaint('');
  const portal = await startPortal();
  try {
    await keystrokeToPaint(portal.url);
  } finally {
    await portal.close();
  }
}

// `npx tsx scripts/bench/forms.ts keystrokes [name=webDir …] [--rounds N] [--profile]`: the
// keystroke-to-paint section alone, for one build (dist/web) or several side by side.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'keystrokes') {
  const args = process.argv.slice(3);
  const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 1;
  const builds = args
    .filter((arg, i) => arg.includes('=') && args[i - 1] !== '--rounds')
    .map((arg) => {
      const [name, dir] = arg.split('=') as [string, string];
      return { name, webDir: resolve(ROOT, dir) };
    });
  compareKeystrokes(builds.length ? builds : [{ name: 'dist/web', webDir: join(ROOT, 'dist/web') }], rounds, args.includes('--profile')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

// `npx tsx scripts/bench/forms.ts first-validation-browser`: the browser comparison alone.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'first-validation-browser') {
  firstValidationInBrowser().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

// `npx tsx scripts/bench/forms.ts first-validation`: the first-validation section alone.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'first-validation') {
  firstValidation().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
