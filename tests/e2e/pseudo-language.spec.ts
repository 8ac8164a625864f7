import { describe, expect, test } from 'vitest';
import { catalogue } from '../../src/generated/screens';
import { useBrowser } from './support/browser';
import { usePortal } from './support/portal';
import { textsNotFromLocales, usePseudoLanguage } from './support/pseudo';
import { openScreen, publicScreens, signInPage, walkerFor, type SignedInWalker } from './support/screen-walk';

// Issue 13: every signed-in screen in a pseudo-language (support/pseudo.ts): any visible text that
// is neither from the locale tables nor data fails, naming the screen and the words.

const portal = usePortal();
const session = useBrowser();

/** The exhibitor opens every exhibitor screen; the organiser the screens only organisers may open. */
const WALKS = [
  { account: 'demo', screens: catalogue.screens.filter((screen) => screen.layout !== 'public' && !screen.roles?.every((role) => role === 'organiser')) },
  { account: 'organiser', screens: catalogue.screens.filter((screen) => screen.layout !== 'public' && screen.roles?.every((role) => role === 'organiser')) },
];

describe('pseudo-language walk (issue 13)', () => {
  test.for(publicScreens().map((screen) => [screen.id, screen] as const))('public screen %s shows only texts from the locale tables', async ([, screen]) => {
    const { page } = session;
    const pseudo = await usePseudoLanguage(page);
    await page.goto(`${portal.url}${screen.path}?lang=en`);
    await page.waitForFunction(() => (document.getElementById('root')?.innerText.trim().length ?? 0) > 0 && document.querySelectorAll('[role="progressbar"]').length === 0);
    const strays = await textsNotFromLocales(page, pseudo);
    expect(strays, `${screen.path} shows text that is not from the locale tables:\n${strays.join('\n')}`).toEqual([]);
  });

  const walkers = new Map<string, SignedInWalker>();
  for (const { account, screens } of WALKS) {
    test.for(screens.map((screen) => [screen.id, screen] as const))(`${account}: %s shows only texts from the locale tables, or data`, async ([, screen], context) => {
      if (!walkers.has(account)) walkers.set(account, await walkerFor(portal.url, account));
      const walker = walkers.get(account)!;
      if (!walker.screens.some((own) => own.id === screen.id)) {
        context.skip(`${account} does not hold the modules of ${screen.id}`);
        return;
      }
      const { page } = session;
      const pseudo = await usePseudoLanguage(page);
      await signInPage(page, portal.url, walker, 'en');
      await openScreen(page, portal.url, screen, walker);
      const strays = await textsNotFromLocales(page, pseudo);
      expect(strays, `${screen.path} shows text that is not from the locale tables:\n${strays.join('\n')}`).toEqual([]);
    });
  }
});
