import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { STORAGE_KEYS } from '../../src/engine/constants';
import { qrMatrix } from '../../tests/e2e/support/fake-camera';
import { loginPageWeight } from './lighthouse';
import { ensureBuilt, launchChromium, loginToken, startPortal } from './support';
import { percentile } from './work';

// LD1, the scanner's figures: the cost of reading one 1280×720 camera frame (the
// WebAssembly reader Chromium on Linux has; the native BarcodeDetector where the machine has one),
// the time from a badge entering the camera's picture to the code being passed on and to the
// feedback (sound and vibration), and what the scanner screen adds to the download while /login
// loads none of it. The camera is a 1280×720 canvas stream the benchmark draws on (a badge's QR
// code or an empty grey picture), so it knows when the badge entered; the page reports through
// User Timing entries (scanner:read, scanner:code, scanner:feedback) caught by an observer.

const BUDGET = { decodeP50Ms: 30, feedbackP95Ms: 150 };
const BADGES = Number(process.env.BENCH_SCANNER_BADGES ?? 20);
const WIDTH = 1280;
const HEIGHT = 720;
const SCANNER_PATH = '/digital-tools/scanner';
/** The chunks that are the scanner's: /login must load none of them. */
const SCANNER_FILE = /(?:CameraScanner|ScannerPage|ponyfill|zxing_reader)[-.]/;

/** Runs in the page before its scripts: a fake rear camera (a canvas the benchmark draws on) and the observer. */
function fakeCameraScript({ width, height }: { width: number; height: number }) {
  const bench = {
    reads: [] as Array<{ ms: number; kind: string }>,
    codes: [] as Array<{ at: number; code: string }>,
    feedback: [] as Array<{ at: number; kind: string }>,
    shownAt: 0,
    canvas: null as HTMLCanvasElement | null,
    matrix: null as boolean[][] | null,
  };
  (window as unknown as { __scannerBench: typeof bench }).__scannerBench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceMark).detail as { kind?: string } | string | undefined;
      if (entry.name === 'scanner:read') bench.reads.push({ ms: entry.duration, kind: typeof detail === 'object' ? (detail?.kind ?? '') : '' });
      if (entry.name === 'scanner:code') bench.codes.push({ at: entry.startTime, code: String(detail) });
      if (entry.name === 'scanner:feedback') bench.feedback.push({ at: entry.startTime, kind: String(detail) });
    }
  }).observe({ entryTypes: ['mark', 'measure'] });
  const draw = () => {
    const canvas = bench.canvas;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    context.fillStyle = '#6e6e6e';
    context.fillRect(0, 0, width, height);
    const matrix = bench.matrix;
    if (!matrix) return;
    const module = 8;
    const side = matrix.length * module;
    const left = Math.floor((width - side) / 2);
    const top = Math.floor((height - side) / 2);
    for (let row = 0; row < matrix.length; row++) {
      for (let column = 0; column < matrix.length; column++) {
        context.fillStyle = matrix[row]![column] ? '#141414' : '#ebebeb';
        context.fillRect(left + column * module, top + row * module, module, module);
      }
    }
  };
  navigator.mediaDevices.getUserMedia = async () => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    bench.canvas = canvas;
    draw();
    // A camera sends frames whether the picture changed or not.
    setInterval(draw, 1000 / 30);
    return canvas.captureStream(30);
  };
  (window as unknown as { __showBadge: (matrix: boolean[][] | null) => void }).__showBadge = (matrix) => {
    bench.matrix = matrix;
    draw();
    bench.shownAt = performance.now();
  };
}

interface BenchState {
  reads: Array<{ ms: number; kind: string }>;
  codes: Array<{ at: number; code: string }>;
  feedback: Array<{ at: number; kind: string }>;
  shownAt: number;
}

const state = (page: Page) => page.evaluate(() => (window as unknown as { __scannerBench: BenchState }).__scannerBench);

const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} kB`;

async function responsesOf(page: Page, open: () => Promise<unknown>) {
  const bodies: Array<Promise<{ path: string; gzip: number; brotli: number }>> = [];
  const listener = (response: import('playwright-core').Response) => {
    bodies.push(
      response.body().then(
        (body) => ({
          path: new URL(response.url()).pathname,
          gzip: gzipSync(body, { level: 9 }).length,
          brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
        }),
        () => ({ path: new URL(response.url()).pathname, gzip: 0, brotli: 0 }),
      ),
    );
  };
  page.on('response', listener);
  await open();
  page.off('response', listener);
  return Promise.all(bodies);
}

export async function scannerBenchmarks() {
  ensureBuilt();
  const portal = await startPortal();
  const browser = await launchChromium();
  try {
    console.log(`\n## Scanner (LD1): reading ${WIDTH}×${HEIGHT} camera frames in Chromium, ${BADGES} badges`);
    const token = await loginToken(portal.url);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    // As source text, with the name helper tsx's transform puts into named inner functions.
    await context.addInitScript({ content: `var __name = (target) => target; (${fakeCameraScript.toString()})(${JSON.stringify({ width: WIDTH, height: HEIGHT })});` });
    const page = await context.newPage();
    await page.goto(`${portal.url}/login`);
    await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [STORAGE_KEYS.token, token] as const);

    // What the scanner screen adds to a signed-in page (the frame is already loaded from /home).
    await page.goto(`${portal.url}/home`, { waitUntil: 'networkidle' });
    const frameFiles = new Set((await responsesOf(page, () => page.reload({ waitUntil: 'networkidle' }))).map((file) => file.path));
    const scannerFiles = (
      await responsesOf(page, async () => {
        await page.goto(`${portal.url}${SCANNER_PATH}`, { waitUntil: 'networkidle' });
        await page.waitForFunction(() => (window as unknown as { __scannerBench: BenchState }).__scannerBench.reads.length > 0, undefined, { timeout: 60_000 });
      })
    ).filter((file) => !frameFiles.has(file.path) && !file.path.startsWith('/oga/'));
    const native = await page.evaluate(() => 'BarcodeDetector' in window);

    // Badges entering the picture: each a different demo visitor (so each is a new code), with an
    // empty picture before it long enough for the reader to have seen it empty.
    const latencies: Array<{ code: number; feedback: number }> = [];
    for (let n = 0; n < BADGES; n++) {
      const code = `AFHE2027-V${String(500 + n).padStart(7, '0')}`;
      await page.evaluate(() => (window as unknown as { __showBadge: (m: null) => void }).__showBadge(null));
      const before = (await state(page)).reads.length;
      await page.waitForFunction((count) => (window as unknown as { __scannerBench: BenchState }).__scannerBench.reads.length >= count + 3, before);
      await page.evaluate((matrix) => (window as unknown as { __showBadge: (m: boolean[][]) => void }).__showBadge(matrix), qrMatrix(code));
      await page.waitForFunction(
        (wanted) => {
          const bench = (window as unknown as { __scannerBench: BenchState }).__scannerBench;
          return bench.codes.some((entry) => entry.code === wanted) && bench.feedback.some((entry) => entry.at >= bench.shownAt);
        },
        code,
        { timeout: 30_000 },
      );
      const bench = await state(page);
      const readAt = bench.codes.find((entry) => entry.code === code)!.at;
      const feedbackAt = bench.feedback.find((entry) => entry.at >= bench.shownAt)!.at;
      latencies.push({ code: readAt - bench.shownAt, feedback: feedbackAt - bench.shownAt });
    }
    const reads = (await state(page)).reads;
    const kind = reads[0]?.kind ?? '?';
    const readMs = reads.map((read) => read.ms);
    const cropNote = 'the aim frame (80 % of each side) drawn at ≤ 800 px and read';
    console.log(`  native BarcodeDetector in this Chromium: ${native ? 'yes' : 'no'}; reader used: ${kind === 'wasm' ? 'ZXing WebAssembly (barcode-detector ponyfill)' : kind}`);
    console.log(
      `  one frame (${cropNote}), ${readMs.length} frames: median ${ms(percentile(readMs, 0.5))}  p95 ${ms(percentile(readMs, 0.95))}  budget median ≤ ${BUDGET.decodeP50Ms} ms: ${percentile(readMs, 0.5) <= BUDGET.decodeP50Ms ? 'met' : 'NOT met'}`,
    );
    const toCode = latencies.map((entry) => entry.code);
    const toFeedback = latencies.map((entry) => entry.feedback);
    console.log(`  badge enters the picture → code passed on:  median ${ms(percentile(toCode, 0.5))}  p95 ${ms(percentile(toCode, 0.95))}`);
    console.log(
      `  badge enters the picture → feedback call:   median ${ms(percentile(toFeedback, 0.5))}  p95 ${ms(percentile(toFeedback, 0.95))}  budget p95 ≤ ${BUDGET.feedbackP95Ms} ms: ${percentile(toFeedback, 0.95) <= BUDGET.feedbackP95Ms ? 'met' : 'NOT met'} (the page signals "queued" at the read)`,
    );

    const total = (files: Array<{ gzip: number; brotli: number }>, key: 'gzip' | 'brotli') => files.reduce((sum, file) => sum + file[key], 0);
    console.log(`  the scanner screen adds (beyond the signed-in frame), gzip -9 / brotli 11:`);
    for (const file of scannerFiles.sort((a, b) => b.gzip - a.gzip)) console.log(`    ${kb(file.gzip)} ${kb(file.brotli)}  ${file.path}`);
    console.log(`    ${kb(total(scannerFiles, 'gzip'))} ${kb(total(scannerFiles, 'brotli'))}  total, ${scannerFiles.length} files`);
    await context.close();

    const login = await loginPageWeight(portal.url);
    const loginScripts = login.filter((file) => file.path.endsWith('.js'));
    const scannerOnLogin = login.filter((file) => SCANNER_FILE.test(file.path));
    console.log(
      `  /login loads ${kb(total(loginScripts, 'gzip'))} gzip of scripts (${kb(total(login, 'gzip'))} in all, ${login.length} responses); scanner files among them: ${scannerOnLogin.length === 0 ? 'none' : scannerOnLogin.map((file) => file.path).join(', ')}`,
    );
  } finally {
    await browser.close();
    await portal.close();
  }
}
