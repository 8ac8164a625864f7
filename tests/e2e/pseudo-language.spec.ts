import { describe, expect, test } from 'vitest';
import { catalogue } from '../../src/generated/screens';
import { useBrowser } from './support/browser';
import { usePortal } from './support/portal';
import { en } from './support/locales';
import { pseudoText, textsNotFromLocales, usePseudoLanguage, type PseudoSession } from './support/pseudo';
import { openScreenInApp, publicScreens, signInPage, walkerFor, type SignedInWalker } from './support/screen-walk';

// L1: every signed-in screen in a pseudo-language (support/pseudo.ts): any visible text that
// is neither from the locale tables nor data fails, naming the screen and the words. Each
// login's screens share one page moving inside the app (as the menu does); its pseudo session
// keeps the data of every answer the page received, since a screen may show data fetched earlier
// (the header's account). A test after a failed one loads its screen afresh.

const portal = usePortal();
const session = useBrowser({}, { pagePerTest: false });

/** The exhibitor opens every exhibitor screen; the organiser the screens only organisers may open. */
const WALKS = [
  { account: 'demo', screens: catalogue.screens.filter((screen) => screen.layout !== 'public' && !screen.roles?.every((role) => role === 'organiser')) },
  { account: 'organiser', screens: catalogue.screens.filter((screen) => screen.layout !== 'public' && screen.roles?.every((role) => role === 'organiser')) },
];

describe('pseudo-language walk: no untranslated text on any screen', () => {
  /** The pseudo session of each shared page (public, or a login's). */
  const pseudoSessions = new Map<string, PseudoSession>();
  test.for(publicScreens().map((screen) => [screen.id, screen] as const))('public screen %s shows only texts from the locale tables', async ([, screen]) => {
    const page = await session.filePage('public', async (opened) => {
      pseudoSessions.set('public', await usePseudoLanguage(opened));
    });
    await page.goto(`${portal.url}${screen.path}?lang=en`);
    await page.waitForFunction(() => (document.getElementById('root')?.innerText.trim().length ?? 0) > 0 && document.querySelectorAll('[role="progressbar"]').length === 0);
    const strays = await textsNotFromLocales(page, pseudoSessions.get('public')!);
    expect(strays, `${screen.path} shows text that is not from the locale tables:\n${strays.join('\n')}`).toEqual([]);
  });

  const walkers = new Map<string, SignedInWalker>();
  /** Logins whose shared page is not known to be on a rendered screen (new, or after a failure). */
  const unsettled = new Set(WALKS.map(({ account }) => account));
  for (const { account, screens } of WALKS) {
    test.for(screens.map((screen) => [screen.id, screen] as const))(`${account}: %s shows only texts from the locale tables, or data`, async ([, screen], context) => {
      if (!walkers.has(account)) walkers.set(account, await walkerFor(portal.url, account));
      const walker = walkers.get(account)!;
      if (!walker.screens.some((own) => own.id === screen.id)) {
        context.skip(`${account} does not hold the modules of ${screen.id}`);
        return;
      }
      const page = await session.filePage(account, async (opened) => {
        pseudoSessions.set(account, await usePseudoLanguage(opened));
        await signInPage(opened, portal.url, walker, 'en');
      });
      const fresh = unsettled.has(account);
      unsettled.add(account);
      await openScreenInApp(page, portal.url, screen, walker, pseudoText(en(screen.title)), fresh);
      unsettled.delete(account);
      const strays = await textsNotFromLocales(page, pseudoSessions.get(account)!);
      expect(strays, `${screen.path} shows text that is not from the locale tables:\n${strays.join('\n')}`).toEqual([]);
    });
  }
});
