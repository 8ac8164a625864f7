import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { countryName, isCountryCode } from '../../../src/engine/locale-format';
import { REPO_ROOT } from './portal';

// L1, pseudo-language: the English table turned, at test time, into one where every text is
// wrapped in ⟦ ⟧, its letters accented and a third longer. A screen shown with it must show no
// plain text outside the wrappers except data (what the server's answers carried): any other
// text did not come from the locale tables, and would stay English in cn, ja and vi.

export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [letter, [...'àƀçđéƒĝĥíĵķĺɱñöþǫŕšţüṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÖÞǪŔŠŢÜṼŴẊÝŽ'][index]!]),
);

/** One text in pseudo form; {{placeholders}}, $t(nesting) and markup tags are kept as they are. */
export function pseudoText(text: string): string {
  const kept = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<[^>]+>)/;
  const body = text
    .split(kept)
    .map((part, index) => (index % 2 === 1 ? part : [...part].map((c) => ACCENTED[c] ?? c).join('')))
    .join('');
  const padding = '·'.repeat(Math.ceil(text.length / 3));
  return `${PSEUDO_OPEN}${body}${padding}${PSEUDO_CLOSE}`;
}

function pseudoTree(node: unknown): unknown {
  if (typeof node === 'string') return pseudoText(node);
  if (Array.isArray(node)) return node.map(pseudoTree);
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, pseudoTree(value)]));
  return node;
}

/** The pseudo table, from locales/en.json as it is now (never committed as a table of its own). */
export function pseudoTable(): Record<string, unknown> {
  return pseudoTree(JSON.parse(readFileSync(join(REPO_ROOT, 'locales', 'en.json'), 'utf8'))) as Record<string, unknown>;
}

/**
 * Serves the pseudo table in place of the built English table (the web app downloads only the
 * chosen language's chunk, assets/en-<hash>.js), and records every string the server's JSON
 * answers carry: that is data (names, titles an organiser typed), not UI text. A form's own
 * labels come with its answer (`strings`: they change while the portal runs, F11): they
 * are locale-table texts too, so they are turned into pseudo form on the way.
 */
export interface PseudoSession {
  /** Every string the server's JSON answers carried so far. */
  data: Set<string>;
}

/** Headers of a fetched answer that no longer describe a body handed over decoded. */
const BODY_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

export async function usePseudoLanguage(page: Page): Promise<PseudoSession> {
  const table = pseudoTable();
  const names = Object.keys(table).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key));
  const module = `const table = ${JSON.stringify(table)};\nexport default table;\nexport const { ${names.join(', ')} } = table;\n`;
  await page.route(/\/assets\/en-[\w-]+\.js$/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: module }).catch(() => undefined));
  const data = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string') {
      data.add(value);
      // L1: countries travel as ISO codes and are shown by name (Intl): the name is data too.
      if (isCountryCode(value)) data.add(countryName(value, 'en'));
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  // Read through a route rather than the page's response events: the answer is recorded before
  // the page can show it, however busy the machine (a response event's body can come too late).
  await page.route(/\/oga\//, async (route) => {
    let response: Awaited<ReturnType<typeof route.fetch>>;
    try {
      response = await route.fetch();
    } catch {
      // The test ended (its context closed) while this request was still on its way.
      return route.abort().catch(() => undefined);
    }
    if (!(response.headers()['content-type'] ?? '').includes('json')) return route.fulfill({ response }).catch(() => undefined);
    let body: { data?: { strings?: Record<string, unknown> } } | undefined;
    try {
      body = (await response.json()) as typeof body;
    } catch {
      return route.fulfill({ response }).catch(() => undefined);
    }
    if (body?.data?.strings?.en) body.data.strings.en = pseudoTree(body.data.strings.en);
    collect(body);
    const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !BODY_HEADERS.has(name)));
    return route.fulfill({ status: response.status(), headers, body: JSON.stringify(body) }).catch(() => undefined);
  });
  return { data };
}

/**
 * Notations that are the same in every language, not words: K2 writes event times as
 * "2027-03-04 09:30 (UTC+08:00)" in every language.
 */
const NOTATIONS = [/UTC[+-]\d\d:\d\d/g];

/**
 * The visible texts on the page that are neither inside pseudo wrappers nor data: each a word of
 * two or more Latin letters left over once wrapped texts and data strings are taken out.
 */
export async function textsNotFromLocales(page: Page, session: PseudoSession): Promise<string[]> {
  const data = session.data;
  const shown = await page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim()) continue;
      if (parent.closest('script, style, noscript, svg, [aria-hidden="true"]')) continue;
      // Text that declares a language of its own (a language's name in that language) is not UI text.
      if (parent.closest('body [lang]')) continue;
      const box = parent.getBoundingClientRect();
      const style = getComputedStyle(parent);
      // Visible (a visually hidden text counts: a screen reader reads it).
      if (style.display === 'none' || style.visibility === 'hidden' || (box.width === 0 && box.height === 0 && style.position !== 'absolute')) continue;
      texts.push(parent.innerText && parent.children.length === 0 ? parent.innerText : node.textContent);
    }
    return texts;
  });
  // A text node may hold part of a data string (markdown an organiser wrote is split into
  // elements) or data strings inside a wrapped text: both are data.
  const blob = [...data].join('\n');
  const pieces = [...data].filter((value) => value.length > 1).sort((a, b) => b.length - a.length);
  const leftovers: string[] = [];
  for (const text of shown) {
    let rest = text.replace(new RegExp(`${PSEUDO_OPEN}[^${PSEUDO_CLOSE}]*${PSEUDO_CLOSE}`, 'g'), '\n');
    if (!/[A-Za-z]{2,}/.test(rest)) continue;
    const chunks = rest
      .split('\n')
      .map((chunk) => chunk.trim())
      .filter((chunk) => /[A-Za-z]{2,}/.test(chunk) && !blob.includes(chunk));
    if (chunks.length === 0) continue;
    rest = chunks.join('\n');
    for (const piece of pieces) if (rest.includes(piece)) rest = rest.split(piece).join(' ');
    for (const notation of NOTATIONS) rest = rest.replace(notation, ' ');
    const words = rest.match(/[A-Za-z]{2,}/g);
    if (words) leftovers.push(`"${text.trim().slice(0, 80)}" (${words.join(' ')})`);
  }
  return [...new Set(leftovers)];
}
