import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DRAWER_BELOW_PX } from '../../src/engine/constants';
import { expectHidden, expectVisible, useBrowser } from './support/browser';
import { en, text } from './support/locales';
import { usePortal } from './support/portal';
import { eachScreenOnce, openScreenInApp, publicScreens, signInPage, type SignedInWalker } from './support/screen-walk';

// Responsive layout: every screen of the catalogue at five widths, no sideways
// scrolling; below 992 px the menu is a drawer, closed until the menu button opens it.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 360, height: 740 } });

const WIDTHS = [360, 390, 768, 1024, 1440];
/** The walk grows with the catalogue (about 60 screens now, a minute on a quiet machine). */
const WALK_TIMEOUT_MS = 300_000;

/** How far the page scrolls sideways at the current width, and the element sticking out most. */
function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const extra = root.scrollWidth - root.clientWidth;
    if (extra <= 0) return { extra: 0, culprit: '' };
    let culprit = '';
    let right = root.clientWidth;
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5) {
        right = box.right;
        const id = element.id ? `#${element.id}` : '';
        const cls =
          typeof element.className === 'string'
            ? `.${element.className
                .split(/\s+/)
                .filter((c) => c && !c.startsWith('css-'))
                .slice(0, 2)
                .join('.')}`
            : '';
        culprit = `<${element.tagName.toLowerCase()}${id}${cls}> "${(element.textContent ?? '').trim().slice(0, 40)}" ends at ${Math.round(box.right)} px`;
      }
    }
    return { extra, culprit };
  });
}

/**
 * The controls (links, buttons, fields) lying partly outside the screen's width: a table wider
 * than a phone scrolls inside its box, so the page does not scroll sideways while its actions
 * are out of sight.
 */
function controlsOutside(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], [role="checkbox"], [role="combobox"]';
    const outside: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>(selector))) {
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      // A scrollable tab bar (with its scroll buttons and arrow keys) and a grid meant to be
      // scrolled (a matrix) show their far items by scrolling, by design.
      if (element.closest('[role="tablist"], [data-scrolls-sideways]')) continue;
      const box = element.getBoundingClientRect();
      // Visually hidden controls (1 px, clipped) are for screen readers and keyboards only.
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
        outside.push(`<${element.tagName.toLowerCase()}> "${name}" at ${Math.round(box.left)}–${Math.round(box.right)} px`);
      }
    }
    return outside;
  });
}

/** Lets the page lay itself out at a new width. */
async function resize(page: Page, width: number) {
  await page.setViewportSize({ width, height: width < DRAWER_BELOW_PX ? 800 : 900 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

describe('responsive layout', () => {
  test(
    'no screen, public or signed in, scrolls sideways at 360, 390, 768, 1024 or 1440 px, nor leaves a control outside the screen at 360 px',
    async () => {
      const { page } = session;
      const problems: string[] = [];
      const check = async (label: string) => {
        for (const width of WIDTHS) {
          await resize(page, width);
          const { extra, culprit } = await sidewaysOverflow(page);
          if (extra > 0) problems.push(`${label} at ${width} px scrolls ${extra} px sideways; widest: ${culprit}`);
          if (width === 360) {
            const outside = await controlsOutside(page);
            if (outside.length > 0)
              problems.push(`${label} at 360 px has controls outside the screen: ${outside.slice(0, 4).join('; ')}${outside.length > 4 ? ` and ${outside.length - 4} more` : ''}`);
          }
        }
      };
      for (const screen of publicScreens()) {
        await resize(page, 360);
        await page.goto(`${portal.url}${screen.path}`);
        // A public screen may answer without a heading (e.g. /showroom without its code): wait for
        // the app to have drawn something and finished loading.
        await page.waitForFunction(() => (document.getElementById('root')?.innerText.trim().length ?? 0) > 0 && document.querySelectorAll('[role="progressbar"]').length === 0);
        await check(`public screen "${screen.id}" (${screen.path})`);
      }
      const visits = await eachScreenOnce(portal.url);
      // Each login's screens in one app load, moving inside the app as the menu does.
      let signedIn: SignedInWalker | undefined;
      for (const { screen, walker } of visits) {
        await resize(page, 360);
        const fresh = signedIn !== walker;
        if (fresh) await signInPage(page, portal.url, walker);
        signedIn = walker;
        await openScreenInApp(page, portal.url, screen, walker, en(screen.title), fresh);
        await check(`screen "${screen.id}" (${screen.path}) as ${walker.account}`);
      }
      expect(problems, problems.join('\n')).toEqual([]);
      // Every screen of the catalogue at five widths: longer than one page's test.
    },
    WALK_TIMEOUT_MS,
  );

  test('below 992 px the menu is a drawer: closed by default, opened by the menu button, closed by navigating', async () => {
    const { page } = session;
    const { walker } = (await eachScreenOnce(portal.url, ['demo']))[0]!;
    await signInPage(page, portal.url, walker);
    const menu = page.getByRole('navigation', { name: text('en', 'menu.label') });
    for (const width of [360, 768, DRAWER_BELOW_PX - 1]) {
      await resize(page, width);
      await page.goto(`${portal.url}/orderForms`);
      await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.orderForms') }), 'the Forms title');
      await expectHidden(menu, `the menu at ${width} px before the menu button is pressed`);
    }
    const button = page.getByRole('button', { name: text('en', 'menu.open'), exact: true });
    await button.click();
    await expectVisible(menu, 'the menu drawer after pressing the menu button');
    await menu.getByRole('link', { name: text('en', 'menu.optionalManuals'), exact: true }).click();
    await expectVisible(page.getByRole('heading', { level: 1, name: text('en', 'screens.manuals') }), 'the Manuals title');
    await expectHidden(menu, 'the drawer after choosing an entry');
    // The header keeps the event, the exhibitor and the booth in view on a phone.
    const banner = page.getByRole('banner');
    for (const testId of ['exhibition-name', 'exhibitor-name']) {
      const box = await banner.getByTestId(testId).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= DRAWER_BELOW_PX, `${testId} inside the screen`).toBe(true);
    }
    await expectVisible(banner.getByText(/B12/), 'the booth in the header');
    // From 992 px the side menu shows as on the desktop (Y3).
    await resize(page, DRAWER_BELOW_PX);
    await expectVisible(menu, 'the side menu at 992 px');
  });
});
