import type { Page } from 'playwright-core';
import { canAccess, type Screen } from '../../../src/engine/catalogue';
import { STORAGE_KEYS } from '../../../src/engine/constants';
import type { Role } from '../../../src/engine/roles';
import { catalogue } from '../../../src/generated/screens';
import { expectVisible } from './browser';
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

/**
 * Opens a screen (a detail screen on one of the walker's items) and waits until it has
 * rendered: its level-1 heading shows and no progress indicator is left. Fails naming the screen.
 */
export async function openScreen(page: Page, url: string, screen: Screen, walker?: SignedInWalker) {
  await page.goto(`${url}${await screenAddress(url, screen, walker)}`);
  const label = `screen "${screen.id}" (${screen.path})`;
  await expectVisible(page.getByRole('heading', { level: 1 }), `the title of ${label}`);
  try {
    await page.waitForFunction(() => document.querySelectorAll('[role="progressbar"]').length === 0, undefined, { timeout: 10_000 });
  } catch {
    throw new Error(`${label} still shows a progress indicator after 10 s`);
  }
}
