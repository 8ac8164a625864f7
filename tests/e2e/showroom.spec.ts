import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// CT5 end to end: demo's published showroom opens without login; the poster downloads from the
// portal and its text (read with pdftotext) holds the booth number.

const portal = usePortal();
const session = useBrowser({ acceptDownloads: true });

describe('digital showroom and poster', () => {
  test('CT5: the exhibitor sees its showroom address; the public page opens without login', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/digital-showroom`);
    const address = page.getByLabel(en('showroom.address'), { exact: true });
    await expectVisible(address, 'the public address');
    const url = await address.inputValue();
    expect(url).toContain('/showroom?s=');
    await expectVisible(page.getByRole('img', { name: en('showroom.qr') }), 'the QR code');

    const stranger = await page.context().browser()!.newContext();
    try {
      const publicPage = await stranger.newPage();
      await publicPage.goto(`${portal.url}/showroom?s=${new URL(url).searchParams.get('s')}`);
      await expectVisible(publicPage.getByText(en('showroom.visitUs', { booth: 'Hall 3 · B12' })), 'the booth on the public page');
      await expectVisible(publicPage.getByRole('heading', { name: 'Borneo Botanica' }), 'the company');
      expect(new URL(publicPage.url()).pathname).toBe('/showroom');
    } finally {
      await stranger.close();
    }
  });

  test('CT5: the poster PDF downloads and its text holds the booth number', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/downloadPoster`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: en('showroom.poster.download', { size: 'A4' }) }).click()]);
    const path = await download.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
    const content = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
    expect(content).toContain('Hall 3 · B12');
    expect(content).toContain(en('showroom.poster.scan'));
  });
});
