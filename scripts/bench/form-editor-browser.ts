import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { STORAGE_KEYS } from '../../src/engine/constants';
import { ROOT } from '../catalogue-source';
import { type CpuProfile, topOfProfile } from './forms';
import { DEMO_ACCOUNT, launchChromium, startPortal } from './support';
import { machineLoad, percentile } from './work';

// F11 benchmark: the form editor's keystroke-to-preview. An organiser gives a question of S04 a
// text of the event's own (the texts dialog, saved as the draft: the badge list's title, the badges'
// first name's title or help, a new choice of their gender), adds BADGES badges in the preview,
// then types into that text in the Translations tab, one key at a time (BENCH_EDITOR_TEXTS=list,badge
// picks cases). Per key: from the
// keydown (capture phase, before React) to the preview's text showing the title as typed so far (a
// MutationObserver on the preview stamps performance.now()), and to the frame painted after that.
// The control is the same typing into /login's account field (a plain input): keydown to the next
// painted frame. Builds (BENCH_EDITOR_BEFORE=<an earlier build's dist/web>, then this one) take
// turns round by round, each served by a portal of its own on a fresh embedded database.

const BADGES = Number(process.env.BENCH_EDITOR_BADGES ?? 50);
const KEYS = 'abcdefghijklmnopqrstuvwx';
const ROUNDS = Number(process.env.BENCH_EDITOR_ROUNDS ?? 1);
const BUDGET_MS = 50;

/**
 * The text typed: the badge list's title (its legend shows with or without badges), a question's
 * title or help inside each badge, or a new choice's label there (each shown once per badge: the
 * preview renders it 50 times). Each is first given a text of the event's own in the question's
 * texts dialog (`setUp`), which saves the draft and brings the server's preview of it.
 */
interface TypedText {
  name: string;
  /** The question's title in the question list. */
  listed: string;
  setUp: (dialog: Locator) => Promise<void>;
  /** The event's text as set up, then its locale key. */
  text: string;
  key: string;
  /** A title or a choice is in the schema (the preview waits for the new schema's validator); help is in the UI schema. */
  schemaChange: boolean;
}
const inEnglish = (dialog: Locator, what: string) => dialog.getByRole('textbox', { name: `${what} (English)`, exact: true });
const TEXTS: Record<'list' | 'badge' | 'choice' | 'help', TypedText> = {
  list: {
    name: "the badge list's title",
    listed: 'Badges',
    setUp: (dialog) => inEnglish(dialog, 'Question').fill('Visitor badges'),
    text: 'Visitor badges',
    key: 'forms.s04.byEvent.AFHE2027.badges.title',
    schemaChange: true,
  },
  badge: {
    name: "a badge's first name's title",
    listed: 'First name',
    setUp: (dialog) => inEnglish(dialog, 'Question').fill('Given name'),
    text: 'Given name',
    key: 'forms.s04.byEvent.AFHE2027.badges_firstName.title',
    schemaChange: true,
  },
  choice: {
    name: "a badge's gender's new choice",
    listed: 'Gender',
    setUp: async (dialog) => {
      await dialog.getByRole('button', { name: 'Add an option', exact: true }).click();
      await dialog.getByRole('textbox', { name: 'Code of option 3', exact: true }).fill('other');
      // A new text needs all four languages: a missing translation is a problem of the draft, which has no preview then.
      for (const [language, label] of [
        ['English', 'Another'],
        ['中文', '其他'],
        ['日本語', 'その他'],
        ['Tiếng Việt', 'Khác'],
      ] as const)
        await dialog.getByRole('textbox', { name: `Option 3 (${language})`, exact: true }).fill(label);
    },
    text: 'Another',
    key: 'forms.s04.enum.gender.other',
    schemaChange: true,
  },
  help: {
    name: "a badge's first name's help",
    listed: 'First name',
    // A new text needs all four languages (as the choice's labels below).
    setUp: async (dialog) => {
      for (const [language, help] of [
        ['English', 'As printed'],
        ['中文', '如印刷'],
        ['日本語', '印刷どおり'],
        ['Tiếng Việt', 'Như in'],
      ] as const)
        await dialog.getByRole('textbox', { name: `Help text (${language})`, exact: true }).fill(help);
    },
    text: 'As printed',
    key: 'forms.s04.byEvent.AFHE2027.badges_firstName.help',
    schemaChange: false,
  },
};

interface KeyRecord {
  start: number;
  changed: number | null;
  painted: number | null;
}
type Window_ = { __keys: KeyRecord[]; __expected: string | null };

/** In the page: each keydown recorded; with `previewSelector`, when the preview first shows the text expected, and the frame after. */
function instrument(previewSelector: string | null) {
  const w = window as unknown as Window_;
  w.__keys = [];
  w.__expected = null;
  const painted = (record: KeyRecord) => requestAnimationFrame(() => setTimeout(() => (record.painted = performance.now()), 0));
  window.addEventListener(
    'keydown',
    (event) => {
      const record: KeyRecord = { start: event.timeStamp, changed: null, painted: null };
      w.__keys.push(record);
      if (!previewSelector) painted(record);
    },
    { capture: true },
  );
  if (!previewSelector) return;
  const preview = document.querySelector(previewSelector)!;
  const check = () => {
    const record = w.__keys.at(-1);
    if (!record || record.changed !== null || !w.__expected) return;
    if (preview.textContent?.includes(w.__expected)) {
      record.changed = performance.now();
      painted(record);
    }
  };
  new MutationObserver(check).observe(preview, { subtree: true, childList: true, characterData: true });
}

async function typeKeys(page: Page, expected: (typed: string) => string | null) {
  for (let i = 0; i < KEYS.length; i++) {
    await page.evaluate((text) => ((window as unknown as Window_).__expected = text), expected(KEYS.slice(0, i + 1)));
    await page.keyboard.type(KEYS[i]!);
    await page
      .waitForFunction((n) => (window as unknown as Window_).__keys[n]?.painted != null, i, { polling: 10, timeout: 30_000 })
      .catch(async (error: Error) => {
        const shown = await page.evaluate(() => document.querySelector('section[aria-label^="Preview"]')?.textContent?.slice(0, 400));
        throw new Error(`key ${i + 1}: the preview never showed ${expected(KEYS.slice(0, i + 1))} (${error.message.split('\n')[0]}); it shows: ${shown}`);
      });
    await page.waitForTimeout(50);
  }
  const keys = await page.evaluate(() => (window as unknown as Window_).__keys);
  if (keys.length !== KEYS.length) throw new Error(`${keys.length} keydowns recorded for ${KEYS.length} keys`);
  return keys;
}

async function organiserToken(url: string) {
  const response = await fetch(`${url}/oga/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'organiser', password: DEMO_ACCOUNT.password }),
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

interface Figures {
  control: number[];
  preview: number[];
  previewPainted: number[];
  badgesAtEnd: number;
}

async function measure(browser: Browser, url: string, question: TypedText): Promise<Figures> {
  const TITLE = question.text;
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, locale: 'en-GB' });
  try {
    // tsx keeps functions' names with a helper the page lacks (the instrument below names its functions).
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    const page = await context.newPage();
    await page.goto(`${url}/login`);
    const account = page.locator('input[autocomplete="username"]');
    await account.focus();
    await page.waitForTimeout(300);
    await page.evaluate(instrument, null);
    const control = (await typeKeys(page, () => null)).map((key) => key.painted! - key.start);

    await page.evaluate(([key, token]) => localStorage.setItem(key, token), [STORAGE_KEYS.token, await organiserToken(url)] as const);
    await page.goto(`${url}/organiser/forms/editor?event=AFHE2027&form=s04`);
    await page.getByRole('button', { name: `Texts of ${question.listed}`, exact: true }).click({ timeout: 60_000 });
    const dialog = page.getByRole('dialog');
    await question.setUp(dialog);
    // A changed title, help or choice is a change of the schema: the preview starts again on the server's, with its validator.
    const validator = question.schemaChange
      ? page.waitForResponse((response) => response.url().includes('/oga/forms/validators/'))
      : page.waitForResponse((response) => /\/draft$/.test(response.url()) && response.request().method() === 'PUT');
    await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await validator;
    await page.getByText('Draft saved', { exact: true }).waitFor();
    const preview = page.getByRole('region', { name: "Preview: as the event's exhibitors would get it" });
    for (let i = 0; i < BADGES; i++) await preview.getByRole('button', { name: 'Add a badge', exact: true }).click();
    const shown = await preview.getByRole('textbox', { name: 'Email', exact: true }).count();
    if (shown !== BADGES) throw new Error(`${shown} badges in the preview, expected ${BADGES}`);

    await page.getByRole('tab', { name: 'Translations' }).click();
    const input = page.getByRole('textbox', { name: `${question.key} in English`, exact: true });
    await input.click();
    await input.press('Control+End');
    await page.waitForTimeout(500);
    await page.evaluate(instrument, 'section[aria-label^="Preview"]');
    // BENCH_EDITOR_PROFILE=1 (or all): where the typing's time goes (a Chromium CPU profile), for finding what to make faster.
    const cdp = process.env.BENCH_EDITOR_PROFILE ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    const keys = await typeKeys(page, (typed) => `${TITLE}${typed}`);
    if (cdp)
      console.log(
        topOfProfile(((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile, 400)
          // BENCH_EDITOR_PROFILE=all: React's and MUI's own functions too.
          .filter((line) => process.env.BENCH_EDITOR_PROFILE === 'all' || !/react-|mui-/.test(line))
          .join('\n'),
      );
    if ((await input.inputValue()) !== `${TITLE}${KEYS}`) throw new Error(`typing did not reach the title (${await input.inputValue()})`);
    const badgesAtEnd = await preview.getByRole('textbox', { name: 'Email', exact: true }).count();
    return {
      control,
      preview: keys.map((key) => key.changed! - key.start),
      previewPainted: keys.map((key) => key.painted! - key.start),
      badgesAtEnd,
    };
  } finally {
    await context.close();
  }
}

const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;

export async function formEditorBenchmarks(builds: Array<{ name: string; webDir: string }>) {
  console.log(
    `\n## Form editor: keystroke to preview, Chromium (headless, 1600×1000), S04 with ${BADGES} badges added in the preview, ${KEYS.length} keys into a text of the event's own (Translations tab), ${ROUNDS} round(s) (${machineLoad()} at the start)`,
  );
  console.log('  preview = keydown to the preview showing the title as typed (MutationObserver); +paint = to the frame painted after it');
  console.log("  control = keydown to the next painted frame in /login's account field, same build and run; ratio = the preview's +paint p95 over the control's p95");
  const only = process.env.BENCH_EDITOR_TEXTS?.split(',');
  const cases = () =>
    Object.entries(TEXTS)
      .filter(([name]) => !only || only.includes(name))
      .map(([, text]) => text);
  const results = new Map<string, Figures[]>();
  const browser = await launchChromium();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        for (const question of cases()) {
          const portal = await startPortal(undefined, build.webDir);
          const name = `${question.name}, ${build.name}`;
          try {
            results.set(name, [...(results.get(name) ?? []), await measure(browser, portal.url, question)]);
          } catch (error) {
            // One case that fails to run is reported; the others are still measured.
            console.log(`  ${name}: not measured (${(error as Error).message.split('\n')[0]})`);
          } finally {
            await portal.close();
          }
        }
      }
    }
  } finally {
    await browser.close();
  }
  for (const question of cases()) {
    for (const build of builds) {
      const all = results.get(`${question.name}, ${build.name}`);
      if (!all) continue;
      const of = (key: 'control' | 'preview' | 'previewPainted') => all.flatMap((figures) => figures[key]);
      const p95 = percentile(of('previewPainted'), 0.95);
      console.log(
        `  ${`${question.name}, ${build.name}`.padEnd(44)} preview median ${ms(percentile(of('preview'), 0.5))}  p95 ${ms(percentile(of('preview'), 0.95))}  max ${ms(Math.max(...of('preview')))}` +
          `  +paint p95 ${ms(p95)}  control p95 ${ms(percentile(of('control'), 0.95))}  ratio ${(p95 / percentile(of('control'), 0.95)).toFixed(1)}×` +
          `  badges in the preview at the end ${all.map((figures) => figures.badgesAtEnd).join('/')}  budget ${BUDGET_MS} ms (p95): ${percentile(of('preview'), 0.95) <= BUDGET_MS ? 'met' : 'NOT met'}`,
      );
    }
  }
  console.log(`  (${machineLoad()} at the end)`);
}

/** `npm run bench -- form-editor`: with BENCH_EDITOR_BEFORE=<an earlier build's dist/web>, that build first, side by side. */
export async function formEditorSection() {
  const before = process.env.BENCH_EDITOR_BEFORE;
  await formEditorBenchmarks([...(before ? [{ name: 'before', webDir: resolve(ROOT, before) }] : []), { name: before ? 'after' : 'dist/web', webDir: join(ROOT, 'dist/web') }]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  formEditorSection().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
