import { beforeEach, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { clearDemoEntries, submitButton } from './support/form-page';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// F9 on a phone: every refused submit (the first, and another after the user went back to a
// field) moves focus to the list of problems, so the user lands on what to fix.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const S04 = '/myParticipation/exhibitorBadges';

beforeEach(async () => {
  await clearDemoEntries(portal);
});

const focusIsOnProblems = (page: Page, count: number) =>
  page.waitForFunction((title) => document.activeElement?.closest('[role="alert"]')?.textContent?.includes(title) === true, en('formRuntime.problems.title', { count }), {
    timeout: 10_000,
  });

describe('refused submit focus at 390 px', () => {
  test('the first, a second and an unchanged third refused submit each move focus to the list of problems', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}`);
    await expectVisible(submitButton(page), 'the S04 form');
    await page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }).click();
    const badge = page.locator('.rjsf-field-array .rjsf-field-object').first();
    await field(badge, en('forms.s04.firstName')).fill('Aisyah');
    await submitButton(page).click();
    await focusIsOnProblems(page, 2);

    // Back to a field, one problem fixed, the other not: refused again.
    await field(badge, en('forms.s04.lastName')).fill('Rahman');
    await submitButton(page).click();
    await focusIsOnProblems(page, 1);

    // Refused a third time with nothing changed: focus goes back to the list from the button.
    await submitButton(page).focus();
    await submitButton(page).click();
    await focusIsOnProblems(page, 1);
  });
});
