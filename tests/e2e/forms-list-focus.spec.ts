import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';
import { clearDemoEntries, submitButton } from './support/form-page';

// F5 F9, WCAG 2.2 SC 2.4.11 Focus Not Obscured (Minimum): an exhibitor whose S04 draft holds a
// list several screens tall moves to Submit, below the list, with the keyboard or by scrolling to
// it, and what is focused or scrolled to stays on screen: the list's items laid out as they come
// near the screen must not push a control below the list (Submit, the footer's links) and its
// focus ring out of the window after it was brought into view. At a desktop window and a phone's.

const portal = usePortal();
const session = useBrowser();

const S04 = '/myParticipation/exhibitorBadges';
/** Enough badges for a list many screens tall; the demo's quota is five, the rest are extra badges. */
const COUNT = 40;
const BADGES = Array.from({ length: COUNT }, (_, i) => ({
  firstName: ['Aisyah', 'Wei Ling', 'Ravi', 'Siti', 'Daniel'][i % 5]!,
  lastName: 'Tan',
  email: `badge${i}@borneo-botanica.example`,
  extra: i >= 5,
}));

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

beforeEach(async () => {
  await clearDemoEntries(portal);
  await portal.app.db
    .insertInto('form_entries')
    .values({ participation_id: await demoParticipationId(portal), form_id: 's04', data: JSON.stringify({ badges: BADGES }), status: 'draft' })
    .execute();
});

interface Settled {
  /** The element's top, window's coordinates, frame by frame until it was still. */
  tops: number[];
  top: number;
  bottom: number;
  windowHeight: number;
}

/**
 * Where `locator` ends up once its place has not changed for `framesStill` frames in a row, and
 * where it was on the way; `scrollTo` first brings it into view (as a page's own scrolling does).
 */
function settledPlace(locator: Locator, { scrollTo = false, framesStill = 10 } = {}): Promise<Settled> {
  return locator.evaluate(
    (element, { needed, scroll }) =>
      new Promise<Settled>((settled) => {
        if (scroll) element.scrollIntoView({ block: 'end' });
        const tops: number[] = [];
        let still = 0;
        const look = () => {
          const box = element.getBoundingClientRect();
          still = tops.length > 0 && tops[tops.length - 1] === box.top ? still + 1 : 0;
          tops.push(box.top);
          if (still >= needed) settled({ tops, top: box.top, bottom: box.bottom, windowHeight: window.innerHeight });
          else requestAnimationFrame(look);
        };
        look();
      }),
    { needed: framesStill, scroll: scrollTo },
  );
}

/** Scrolling goes by whole pixels: an edge within a pixel of the window's is inside it. */
const SUBPIXEL = 1;

function expectOnScreen(place: Settled, what: string) {
  const where = `${what}: top ${place.top} px, bottom ${place.bottom} px in a ${place.windowHeight} px window (tops frame by frame: ${place.tops.join(', ')})`;
  expect(place.top >= -SUBPIXEL && place.bottom <= place.windowHeight + SUBPIXEL, where).toBe(true);
}

/** Signs in as the demo exhibitor and opens S04 with its draft of COUNT badges, at the top of the page. */
async function openBadges(page: Page) {
  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}${S04}`);
  await expectVisible(submitButton(page), 'the S04 form');
  await expect.poll(() => page.locator('.rjsf-array-item').count()).toBe(COUNT);
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

describe('S04 with a long list: the control below the list stays on screen', () => {
  for (const { name, viewport } of VIEWPORTS) {
    test(`${name}: Shift+Tab from the end of the page up to Submit, and Tab down to it from the last badge's e-mail: every control focused stays in the window`, async () => {
      const page = await (await session.newContext({ viewport })).newPage();
      await openBadges(page);
      const submit = submitButton(page);
      const focused = page.locator(':focus');

      // From the top of the page with nothing focused, Shift+Tab goes to the last control of the
      // page (a link of the footer, below the list), then back up to Submit.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      for (let presses = 1; presses <= 15 && !(await isFocused(submit)); presses++) {
        await page.keyboard.press('Shift+Tab');
        expectOnScreen(await settledPlace(focused), `the control focused by Shift+Tab press ${presses} (${await focused.evaluate((element) => element.textContent)})`);
      }
      expect(await isFocused(submit), 'Submit focused by Shift+Tab').toBe(true);

      // Back to the top, then a field above the list's end, then Tab down to Submit.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator(`#root_badges_${COUNT - 1}_email`).focus();
      for (let presses = 1; presses <= 15 && !(await isFocused(submit)); presses++) {
        await page.keyboard.press('Tab');
        expectOnScreen(await settledPlace(focused), `the control focused by Tab press ${presses}`);
      }
      expect(await isFocused(submit), 'Submit focused by Tab').toBe(true);
    });

    test(`${name}: scrolled to from the top of the page, Submit stays where it was brought into view`, async () => {
      const page = await (await session.newContext({ viewport })).newPage();
      await openBadges(page);
      const submit = submitButton(page);
      const place = await settledPlace(submit, { scrollTo: true });
      expectOnScreen(place, 'Submit after scrollIntoView');
      // Still for the whole time, so a click at the place first shown reaches it.
      expect(new Set(place.tops).size, `Submit moved after it was scrolled into view: ${place.tops.join(', ')}`).toBe(1);
    });
  }
});
