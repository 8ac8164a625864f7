import type { Page } from 'playwright-core';
import { canAccess } from '../../../src/engine/catalogue';
import type { Screen } from '../../../src/engine/schemas/screen';
import { STORAGE_KEYS } from '../../../src/engine/constants';
import type { Role } from '../../../src/engine/roles';
import { catalogue } from '../../../src/generated/screens';
import { apiGet, apiLogin } from './portal';

// Walks over the screen catalogue (src/generated/screens.ts, from screens.yaml), so a screen
// added later is covered by every walk (layout, accessibility, pseudo-language) without
// touching the tests.

/** The demo logins, one per role (and the limited exhibitor), with the password Demo-pass-2026. */
export const WALK_ACCOUNTS = ['demo', 'limited', 'demo/scanner', 'demo/builder', 'organiser'] as const;
export type WalkAccount = (typeof WALK_ACCOUNTS)[number];

export interface SignedInWalker {
  account: string;
  token: string;
  role: Role;
  /** The signed-in screens this login may open, in catalogue order. */
  screens: Screen[];
}

/** Logs `account` in through the API and lists the signed-in screens its role and modules open. */
export async function walkerFor(url: string, account: string): Promise<SignedInWalker> {
  const token = await apiLogin(url, account);
  const info = (await apiGet(url, '/user/info', token)).data as { role: Role; displayedModule: string[] };
  const screens = catalogue.screens.filter((screen) => screen.layout !== 'public' && canAccess(screen, info.displayedModule, info.role));
  return { account, token, role: info.role, screens };
}

/** Every signed-in screen once, with the first of `accounts` able to open it. */
export async function eachScreenOnce(url: string, accounts: readonly string[] = WALK_ACCOUNTS): Promise<{ screen: Screen; walker: SignedInWalker }[]> {
  const seen = new Set<string>();
  const visits: { screen: Screen; walker: SignedInWalker }[] = [];
  for (const account of accounts) {
    const walker = await walkerFor(url, account);
    for (const screen of walker.screens) {
      if (seen.has(screen.id)) continue;
      seen.add(screen.id);
      visits.push({ screen, walker });
    }
  }
  return visits;
}

/** The public screens of the catalogue (nobody signed in). */
export const publicScreens = (): Screen[] => catalogue.screens.filter((screen) => screen.layout === 'public');

/** Puts the walker's session token where the web app keeps it (the page must be on the portal's origin). */
export async function signInPage(page: Page, url: string, walker: SignedInWalker, language = 'en') {
  if (!page.url().startsWith(url)) await page.goto(`${url}/login`);
  await page.evaluate(
    ([keys, token, lang]) => {
      localStorage.setItem(keys.token, token);
      localStorage.setItem(keys.language, lang);
    },
    [{ token: STORAGE_KEYS.token, language: STORAGE_KEYS.language }, walker.token, language] as const,
  );
}

/** The first object in an API answer that carries an `id` (a list, or a page of one). */
function firstWithId(data: unknown, accept: (item: Record<string, unknown>) => boolean = () => true): string | null {
  const lists = Array.isArray(data) ? [data] : data && typeof data === 'object' ? Object.values(data).filter(Array.isArray) : [];
  for (const list of lists) {
    for (const item of list as unknown[]) {
      if (item && typeof item === 'object' && 'id' in item && accept(item as Record<string, unknown>)) return String((item as { id: unknown }).id);
    }
  }
  return null;
}

/**
 * Detail screens open on one of the walker's own items, chosen through the API as the list
 * screen would show it, so the walk checks the item as users see it (not an empty "not found").
 */
const DETAIL_QUERIES: Record<string, (url: string, token: string) => Promise<string | null>> = {
  leadDetail: async (url, token) => firstWithId((await apiGet(url, '/leads', token)).data),
  manualDetail: async (url, token) => firstWithId((await apiGet(url, '/content/manuals', token)).data),
  announcementDetail: async (url, token) => firstWithId((await apiGet(url, '/content/announcements', token)).data),
  organiserEventEdit: async (url, token) => firstWithId((await apiGet(url, '/organiser/events', token)).data),
  organiserExhibitorEdit: async (url, token) => firstWithId((await apiGet(url, '/organiser/exhibitors', token)).data),
};
const QUERY_NAMES: Record<string, string> = { orderFormDetail: 'form' };

/** The address of a screen for a walker: a detail screen with one of its items. */
export async function screenAddress(url: string, screen: Screen, walker?: SignedInWalker): Promise<string> {
  if (!walker) return screen.path;
  if (screen.id === 'orderFormDetail') {
    const form = firstWithId((await apiGet(url, '/forms', walker.token)).data, (item) => typeof item.submittedAt === 'string');
    return form ? `${screen.path}?${QUERY_NAMES.orderFormDetail}=${encodeURIComponent(form)}` : screen.path;
  }
  if (screen.id === 'search') return `${screen.path}?keyword=badge`;
  const choose = DETAIL_QUERIES[screen.id];
  const id = choose ? await choose(url, walker.token) : null;
  return id ? `${screen.path}?id=${encodeURIComponent(id)}` : screen.path;
}

/** Waits until no progress indicator is left on the page, failing with `label`. */
async function waitForLoaded(page: Page, label: string) {
  try {
    await page.waitForFunction(() => document.querySelectorAll('[role="progressbar"]').length === 0, undefined, { timeout: 10_000 });
  } catch {
    throw new Error(`${label} still shows a progress indicator after 10 s`);
  }
}

/**
 * Opens a screen (a detail screen on one of the walker's items) inside the app already running on
 * `page` (signed in, on the portal's origin), as a link of the menu would: the router moves to the address (history.pushState and the
 * popstate event its BrowserRouter listens to), without loading the page again. The router
 * renders a move in a React transition, so the old screen stays while the new one loads: the
 * move is done when the address is the screen's, a level-1 heading reads `title` (the screen's
 * title in the page's language) and no progress indicator is left. When the page shows that
 * title already (two screens of one title), or `fresh` asks for it, the screen is loaded afresh.
 * Fails naming the screen and what the page shows instead.
 */
export async function openScreenInApp(page: Page, url: string, screen: Screen, walker: SignedInWalker, title: string, fresh = false) {
  const address = await screenAddress(url, screen, walker);
  const label = `screen "${screen.id}" (${screen.path})`;
  const onPortal = page.url().startsWith(url);
  const showsTitle = onPortal && (await page.evaluate((wanted) => [...document.querySelectorAll('h1')].some((h1) => h1.textContent?.trim() === wanted), title));
  if (fresh || !onPortal || showsTitle) {
    await page.goto(`${url}${address}`);
  } else {
    await page.evaluate((to) => {
      const index = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
      window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: index }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, address);
  }
  const target = new URL(address, url);
  try {
    await page.waitForFunction(
      ([path, search, wanted]) =>
        window.location.pathname === path &&
        window.location.search === search &&
        [...document.querySelectorAll('h1')].some((h1) => h1.textContent?.trim() === wanted && h1.checkVisibility()),
      [target.pathname, target.search, title] as const,
      { timeout: 10_000 },
    );
  } catch {
    const shown = await page.evaluate(() => ({
      address: `${window.location.pathname}${window.location.search}`,
      titles: [...document.querySelectorAll('h1')].map((h1) => h1.textContent?.trim()),
    }));
    throw new Error(`Expected ${label} at ${address} titled "${title}" within 10 s, but the page is at ${shown.address} titled ${JSON.stringify(shown.titles)}`);
  }
  await waitForLoaded(page, label);
}
