import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';
import { jpegJfif } from '../support/fixtures';

// O1 end to end: an exhibitor's extra badge waits; the organiser approves it with a comment on
// the Approvals page; the exhibitor sees the decision and the comment on the form.

const portal = usePortal();
const session = useBrowser();

describe('organiser approvals', () => {
  test('O1 F5: an extra badge waits, the organiser approves it with a comment, the exhibitor sees "Approved" and the comment', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const submitted = await fetch(`${portal.url}/oga/forms/s04/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: 0,
        data: {
          badges: [
            { firstName: 'Aisyah', lastName: 'Rahman', email: 'a@borneo.example' },
            { firstName: 'Nur', lastName: 'Hidayah', email: 'n@borneo.example', extra: true },
          ],
        },
      }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(submitted.code).toBe(200);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/approvals`);
    const card = page.getByRole('listitem', { name: `Borneo Botanica ${en('forms.s04.title')}` });
    await expectVisible(card, 'the waiting S04 of Borneo Botanica');
    await expectVisible(card.getByText('Aisyah Rahman'), 'the first badge name');
    await expectVisible(card.getByText('Nur Hidayah'), 'the extra badge name');
    await expectVisible(card.getByText(en('approvals.extra')), 'the extra badge marked');
    // The fee due for the extra badge: the event's price (forms.yaml's 10.00 here) in its currency.
    await expectVisible(card.getByText(en('approvals.feeDue', { count: 1, amount: '10.00 MYR', price: '10.00 MYR' })), 'the fee due for the extra badge');
    await card.getByLabel(en('approvals.comment')).fill('One extra badge granted, MYR10.00 on your invoice.');
    await card.getByRole('button', { name: en('approvals.approve') }).click();
    await expectHidden(card, 'the card once decided');
    // The exhibitor hears of it by e-mail, with the comment (through the mail queue).
    const mail = await portal.sink.waitFor('demo@borneo-botanica.example', { timeoutMs: 15_000 });
    expect(mail.subject).toContain('S04');
    expect(mail.text).toContain('One extra badge granted');

    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/myParticipation/exhibitorBadges`);
    await expectVisible(
      page.getByText(`${en('formRuntime.decision.approved')} ${en('formRuntime.decision.comment', { comment: 'One extra badge granted, MYR10.00 on your invoice.' })}`),
      'the decision and the comment',
    );
  });

  test('O1: a booth above the limit shows its design to the organiser, who approves it in bulk; the exhibitor is e-mailed', async () => {
    const token = await apiLogin(portal.url, 'limited');
    const form = new FormData();
    form.append('purpose', 'boothDesign');
    form.append('file', new Blob([new Uint8Array(jpegJfif(300))], { type: 'image/jpeg' }), 'kopi-booth.jpg');
    const uploaded = (await fetch(`${portal.url}/oga/uploads`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }).then((r) => r.json())) as {
      code: number;
      data: unknown;
    };
    expect(uploaded.code).toBe(200);
    const booth = {
      contractor: { company: 'KL Stand Works', email: 'works@klsw.example', contactPerson: 'Tan Mei Ling' },
      contractorType: 'contractor',
      boothHeight: 3.5,
      boothDesign: uploaded.data,
    };
    const submitted = await fetch(`${portal.url}/oga/forms/s03/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 0, data: booth }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(submitted.code).toBe(200);

    const { page } = session;
    await page.context().clearCookies();
    await page.goto(`${portal.url}/login`);
    await page.evaluate(() => localStorage.clear());
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/approvals`);
    const card = page.getByRole('listitem', { name: `Kopi Nusantara ${en('forms.s03.title')}` });
    await expectVisible(card.getByRole('img', { name: en('approvals.previewOf', { name: 'kopi-booth.jpg' }) }), 'the booth design preview');
    await expectVisible(card.getByRole('button', { name: en('approvals.download', { name: 'kopi-booth.jpg' }) }), 'the design download');
    await expectVisible(card.getByText('3.5'), 'the booth height');
    await card.getByLabel(en('approvals.select')).check();
    await page.getByRole('button', { name: en('approvals.approveSelected', { count: 1 }) }).click();
    await expectHidden(card, 'the card once approved');
    const mail = await portal.sink.waitFor('limited@kopi-nusantara.example', { timeoutMs: 15_000 });
    expect(mail.subject).toContain('S03');
  });
});
