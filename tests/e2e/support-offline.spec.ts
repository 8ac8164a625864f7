import { describe, expect, test } from 'vitest';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// CT5 E2: a support message that cannot be sent (the server is out of reach) is told in a toast;
// the page keeps what the user wrote and raises no uncaught error.

const portal = usePortal();
const session = useBrowser();

describe('CT5: the support form without a connection', () => {
  test('"Connection failed" is shown, the message is kept, and the page has no uncaught error', async () => {
    const { page } = session;
    const uncaught: string[] = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/support`);
    const subject = field(page, en('content.support.subject'));
    await expectVisible(subject, 'the support form');
    await subject.fill('Booth power supply');
    await field(page, en('content.support.message')).fill('We need a 32 A three-phase socket at booth B12.');
    await page.route('**/oga/content/support/messages', (route) => route.abort('internetdisconnected'));
    const send = page.getByRole('button', { name: en('content.support.send'), exact: true });
    await send.click();
    await expectVisible(page.getByRole('alert').filter({ hasText: en('errors.network') }), 'the toast "Connection failed"');
    await expectVisible(page.getByRole('button', { name: en('content.support.send'), exact: true, disabled: false }), 'Send, ready again');
    // Past one more round trip to the page, an uncaught rejection has been reported.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    expect(uncaught, 'no uncaught error on the page').toEqual([]);
    expect(await subject.inputValue(), 'the subject is kept').toBe('Booth power supply');
  });
});
