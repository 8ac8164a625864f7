import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { Screen } from '../../../src/engine/schemas/screen';
import type { Role } from '../../../src/engine/roles';
import { catalogue } from '../../../src/generated/screens';
import { useBrowser } from './browser';
import { text, type Lang } from './locales';
import { usePortal } from './portal';
import { openScreenInApp, publicScreens, signInPage, walkerFor, type SignedInWalker } from './screen-walk';

// Accessibility: axe-core (the reader assistive-technology testers use) over every
// screen of the catalogue, for one login of each role, in English and in one CJK language.
// One test per screen and language, so each stays far below the e2e time limit and a failure
// names its screen; one spec file per role, so the files run in parallel workers. The tests of
// one language share one signed-in page that moves from screen to screen inside the app (as the
// menu does), instead of a fresh browser profile, login page and app load per screen; a test
// after a failed one loads its screen afresh, so one failure does not spill into the next.

/** What the issue allows: no serious and no critical violation. */
const BLOCKING = new Set(['serious', 'critical']);
/** Moderate rules held too, because Lighthouse's accessibility score (budget 100) counts them. */
const ALSO_BLOCKING = new Set(['heading-order']);
/** English and one CJK language (Japanese: its labels are the longest of cn and ja). */
export const AXE_LANGUAGES: readonly Lang[] = ['en', 'ja'];

/** The rules of the bar, WCAG 2.2 AA (axe's tags for levels A and AA of WCAG 2.0, 2.1 and 2.2). */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The blocking violations on the page as readable lines (rule, impact, where, why). axe runs the
 * WCAG 2.2 AA rules and the ALSO_BLOCKING ones, not its best-practice rules outside that bar
 * (about a third less work per screen). Legacy mode runs axe in the page itself: the default
 * mode finishes every run in a new blank page with axe injected a second time (built for
 * cross-origin frames, which the portal's screens do not have), as long again as the run.
 */
export async function blockingViolations(page: Page): Promise<string[]> {
  // Colours read mid-transition (a button fading from its disabled grey as its data arrives, which
  // can begin just after any wait) are no colours anyone reads: transitions and animations are
  // switched off, so axe reads every element in its final colours.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ runOnly: { type: 'tag', values: WCAG_22_AA_TAGS }, rules: Object.fromEntries([...ALSO_BLOCKING].map((rule) => [rule, { enabled: true }])) })
    .analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? '') || ALSO_BLOCKING.has(violation.id))
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? violation.help}`),
    );
}

/** The signed-in screens the catalogue lets `role` open at all (its `roles` list), in catalogue order. */
function screensForRole(role: Role): Screen[] {
  return catalogue.screens.filter((screen) => screen.layout !== 'public' && (!screen.roles || screen.roles.includes(role)));
}

/**
 * Screens whose page sends a role on to another screen, walked under that one: an organiser's Home
 * is its console (HomePage). The walk once saw Home's title for a moment while the page's
 * code loaded; with the page's code preloaded the move to the console is immediate.
 */
const SENT_ON: Partial<Record<Role, Record<string, string>>> = { organiser: { home: '/organiser' } };

/**
 * Registers the walk of one login: a test per screen its role may open and per language. A
 * screen the login's modules do not open is skipped, saying so (the catalogue decides, not the test).
 */
export function axeWalkOf(account: string, role: Role) {
  const portal = usePortal();
  const session = useBrowser({}, { pagePerTest: false });
  let walker: SignedInWalker | undefined;
  const walkerOnce = async () => (walker ??= await walkerFor(portal.url, account));
  /** Languages whose shared page is not known to be on a rendered screen (new, or after a failure). */
  const unsettled = new Set<Lang>(AXE_LANGUAGES);

  for (const language of AXE_LANGUAGES) {
    test.for(screensForRole(role).map((screen) => [screen.id, screen] as const))(
      `${account}, ${language}: %s has no serious or critical axe violation`,
      async ([, screen], context) => {
        const login = await walkerOnce();
        expect(login.role, `${account} signs in as ${role}`).toBe(role);
        if (!login.screens.some((own) => own.id === screen.id)) {
          context.skip(`${account} does not hold the modules of ${screen.id}`);
          return;
        }
        const sentTo = SENT_ON[role]?.[screen.id];
        if (sentTo) {
          context.skip(`${screen.id} sends ${role} to ${sentTo}, walked as its own screen`);
          return;
        }
        const page = await session.filePage(language, (opened) => signInPage(opened, portal.url, login, language));
        const fresh = unsettled.has(language);
        unsettled.add(language);
        await openScreenInApp(page, portal.url, screen, login, text(language, screen.title), fresh);
        unsettled.delete(language);
        const violations = await blockingViolations(page);
        expect(violations, `${screen.path} as ${account} in ${language}:\n${violations.join('\n')}`).toEqual([]);
      },
    );
  }
}

/** Registers the walk of the public screens (nobody signed in), in each language. */
export function axeWalkOfPublicScreens() {
  const portal = usePortal();
  const session = useBrowser();
  for (const language of AXE_LANGUAGES) {
    test.for(publicScreens().map((screen) => [screen.id, screen] as const))(`${language}: public screen %s has no serious or critical axe violation`, async ([, screen]) => {
      // One page per language, loading each screen afresh (its cache warm from the one before).
      const page = await session.filePage(language, async () => undefined);
      await page.goto(`${portal.url}${screen.path}?lang=${language}`);
      await page.waitForFunction(() => (document.getElementById('root')?.innerText.trim().length ?? 0) > 0 && document.querySelectorAll('[role="progressbar"]').length === 0);
      const violations = await blockingViolations(page);
      expect(violations, `${screen.path} in ${language}:\n${violations.join('\n')}`).toEqual([]);
    });
  }

  // The walks run axe with a chosen rule set: it must still see what it is there to see.
  test('the axe check reports a control without a name (critical) and a skipped heading level (held too)', async () => {
    const { page } = session;
    await page.goto(`${portal.url}/login?lang=en`);
    await page.waitForFunction(() => document.querySelector('h1') !== null && document.querySelectorAll('[role="progressbar"]').length === 0);
    await page.evaluate(() => {
      const h1 = document.querySelector('h1')!;
      h1.insertAdjacentHTML('afterend', '<h4>Skipped two levels</h4><button type="button"></button>');
    });
    const violations = await blockingViolations(page);
    expect(violations.map((line) => line.split(' ')[0])).toEqual(expect.arrayContaining(['button-name', 'heading-order']));
  });
}
