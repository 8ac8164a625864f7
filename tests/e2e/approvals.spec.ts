import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, useBrowser } from './support/browser';
import { text } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// O1 end to end: an exhibitor's extra badge waits; the organiser approves it with a comment on
// the Approvals page; the exhibitor sees the decision and the comment on the form.

const portal = usePortal();
const session = useBrowser();
const en = (key: string, params: Record<string, string | number> = {}) => text('en', key, params);

describe('organiser approvals', () => {
  test('O1 F5: an extra badge waits, the organiser approves it with a comment, the exhibitor sees "Approved" and the comment', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const submitted = await fetch(`${portal.url}/oga/forms/s04/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 0, data: { badges: [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'a@borneo.example' }, { firstName: 'Nur', lastName: 'Hidayah', email: 'n@borneo.example', extra: true }] } }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(submitted.code).toBe(200);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/approvals`);
    const card = page.getByRole('listitem', { name: `Borneo Botanica ${en('forms.s04.title')}` });
    await expectVisible(card, 'the waiting S04 of Borneo Botanica');
    await expectVisible(card.getByText(en('approvals.badges', { count: 2, extra: 1 })), 'the summary "2 badges, 1 extra"');
    await card.getByLabel(en('approvals.comment')).fill('One extra badge granted, MYR10.00 on your invoice.');
    await card.getByRole('button', { name: en('approvals.approve') }).click();
    await expectHidden(card, 'the card once decided');

    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/myParticipation/exhibitorBadges`);
    await expectVisible(page.getByText(`${en('formRuntime.decision.approved')} ${en('formRuntime.decision.comment', { comment: 'One extra badge granted, MYR10.00 on your invoice.' })}`), 'the decision and the comment');
  });
});
