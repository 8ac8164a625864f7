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

/**
 * Opens a screen and waits until it has rendered: its level-1 heading shows and no progress
 * indicator is left. Fails naming the screen.
 */
export async function openScreen(page: Page, url: string, screen: Screen) {
  await page.goto(`${url}${screen.path}`);
  const label = `screen "${screen.id}" (${screen.path})`;
  await expectVisible(page.getByRole('heading', { level: 1 }), `the title of ${label}`);
  try {
    await page.waitForFunction(() => document.querySelectorAll('[role="progressbar"]').length === 0, undefined, { timeout: 10_000 });
  } catch {
    throw new Error(`${label} still shows a progress indicator after 10 s`);
  }
}
