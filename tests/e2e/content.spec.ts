import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { pdf } from '../support/fixtures';
import { pdfText } from '../support/pdf-text';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en, text } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// CT1 CT2 CT3 end to end: the organiser publishes an announcement in the console, the exhibitor
// finds it unread, opens it and the unread count drops; a mandatory manual is opened and
// acknowledged and the organiser sees it; a Japanese search finds a manual by a two-character
// word; Markdown with script stays inert.

const portal = usePortal();
const session = useBrowser();

async function signOut() {
  const { page } = session;
  await page.evaluate(() => localStorage.clear());
}

describe('content', () => {
  test('CT2: an announcement written in the console reaches the exhibitor unread; opening it lowers the count; script in it stays inert', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/content`);
    await page.getByRole('tab', { name: en('organiserContent.kind.announcement') }).click();
    await page.getByRole('button', { name: en('organiserContent.add', { kind: en('organiserContent.kind.announcement') }) }).click();
    const dialog = page.getByRole('dialog', { name: en('organiserContent.kind.announcement') });
    await field(dialog, en('organiserContent.title')).fill('Forklift booking now open');
    await field(dialog, en('organiserContent.body')).fill(
      'Book **forklifts** before move-in.\n\n<script>document.title="owned"</script><img src=x onerror="document.title=\'owned\'">',
    );
    await dialog.getByLabel(en('organiserContent.preview')).check();
    await expectVisible(dialog.getByText('forklifts', { exact: true }), 'the Markdown preview');
    await dialog.getByRole('button', { name: en('organiserContent.save') }).click();
    await expectVisible(page.getByRole('cell', { name: 'Forklift booking now open' }), 'the announcement in the console list');
    await signOut();

    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/announcements`);
    const unreadBefore = await apiUnread();
    await expectVisible(page.getByText(en('content.announcements.unreadCount', { count: unreadBefore })), `"${unreadBefore} unread"`);
    await expectVisible(page.getByRole('link', { name: en('header.announcementsUnread', { count: unreadBefore }) }), `the header's "${unreadBefore} unread"`);
    const item = page.getByRole('listitem').filter({ hasText: 'Forklift booking now open' });
    await expectVisible(item.getByText(en('content.announcements.new'), { exact: true }), 'the new announcement marked New');
    await item.getByRole('link').click();
    await expectVisible(page.getByText('forklifts', { exact: true }), 'the announcement body rendered from Markdown');
    expect(await page.title()).not.toBe('owned');
    expect(await page.locator('.markdown-body img, .markdown-body script').count()).toBe(0);
    await expectVisible(page.getByRole('link', { name: en('header.announcementsUnread', { count: unreadBefore - 1 }) }), `the header's count down to ${unreadBefore - 1}`);
    await page.goto(`${portal.url}/announcements`);
    await expectVisible(page.getByText(en('content.announcements.unreadCount', { count: unreadBefore - 1 })), `"${unreadBefore - 1} unread"`);
    await signOut();
  });

  test('CT1: a mandatory manual is opened and acknowledged; the organiser sees the acknowledgement', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/manuals`);
    const mandatory = page.getByRole('region', { name: en('menu.mandatoryForms') });
    await expectVisible(page.getByRole('region', { name: en('menu.optionalManuals') }), 'the optional manuals');
    const manual = mandatory.getByRole('link').filter({ hasText: 'Health and safety rules' });
    await expectVisible(manual.getByText(en('content.manuals.status.toView')), 'status "To be viewed"');
    await manual.click();
    await expectVisible(page.getByText(en('content.manuals.status.viewed')), 'status "Viewed" once opened');
    // Its PDF attachment downloads through the download helper and a PDF reader opens it.
    const attachments = page.getByRole('region', { name: en('content.manuals.attachments') });
    const downloading = page.waitForEvent('download');
    await attachments.getByRole('button', { name: /health and safety rules\.pdf/i }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/health and safety rules\.pdf$/i);
    expect(await pdfText(readFileSync(await file.path()))).toContain('Keep aisles clear at all times.');
    await page.getByRole('button', { name: en('content.manuals.acknowledge') }).click();
    await expectVisible(page.getByText(en('content.manuals.acknowledgedBy', { name: 'Aisyah Rahman' }), { exact: false }), 'who acknowledged it');
    await signOut();

    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/content`);
    const row = page.getByRole('row').filter({ hasText: 'Health and safety rules' });
    await expectVisible(row.getByText(en('organiserContent.ackCount', { acknowledged: 1, viewed: 1 })), 'one acknowledgement in the console');
    await signOut();
  });

  test('CT1: the organiser attaches a file to a manual; a refused file is explained; the exhibitor downloads the same bytes', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/content`);
    await page
      .getByRole('row')
      .filter({ hasText: 'Logistics and freight guide' })
      .getByRole('button', { name: en('organiserContent.edit') })
      .click();
    const dialog = page.getByRole('dialog', { name: en('organiserContent.kind.manual') });
    const attach = async (name: string, buffer: Buffer) => {
      const choosing = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: en('organiserContent.attachFile') }).click();
      await (await choosing).setFiles({ name, mimeType: 'application/pdf', buffer });
    };
    // A web page renamed .pdf is refused before anything is sent.
    await attach('customs.pdf', Buffer.from('<html><body>not a pdf</body></html>'));
    await expectVisible(dialog.getByRole('alert').filter({ hasText: en('validation.file.type', { types: 'PDF, JPEG, PNG' }) }), 'the type problem');
    const plan = Buffer.from(pdf());
    await attach('Freight schedule.pdf', plan);
    await expectVisible(dialog.getByRole('button', { name: en('organiserContent.removeAttachment', { name: 'Freight schedule.pdf' }) }), 'the attached file listed');
    await dialog.getByRole('button', { name: en('organiserContent.save') }).click();
    await expectVisible(page.getByText(en('success.saved')), 'saved');
    await signOut();

    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/manuals`);
    await page.getByRole('link').filter({ hasText: 'Logistics and freight guide' }).click();
    const downloading = page.waitForEvent('download');
    await page
      .getByRole('region', { name: en('content.manuals.attachments') })
      .getByRole('button', { name: /Freight schedule\.pdf/ })
      .click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('Freight schedule.pdf');
    expect(Buffer.compare(readFileSync(await file.path()), plan)).toBe(0);
    await signOut();
  });

  test('CT3: a search in Japanese finds the manual by a two-character word and highlights it', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/search?keyword=${encodeURIComponent('搬入')}&lang=ja`);
    const manuals = page.getByRole('region', { name: text('ja', 'search.kind.manual') });
    await expectVisible(manuals.getByRole('link').filter({ hasText: '出展者マニュアル 2027' }), 'the Japanese manual in the results');
    await expectVisible(manuals.locator('mark', { hasText: '搬入' }).first(), 'the word highlighted');
    await page.evaluate(() => localStorage.clear());
  });
});

async function apiUnread(): Promise<number> {
  const token = await apiLogin(portal.url, 'demo');
  const answer = await fetch(`${portal.url}/oga/content/announcements/unread-count`, { headers: { authorization: `Bearer ${token}` } }).then(
    (r) => r.json() as Promise<{ data: { unread: number } }>,
  );
  return answer.data.unread;
}
