import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { expectVisible, fakeCameraArgs, loginAndLand, useBrowser, UI_TIMEOUT_MS } from './support/browser';
import { writeBadgeY4m } from './support/fake-camera';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// LD1: the scanner's camera, end to end. Chromium's fake camera shows a video of a
// demo visitor's badge QR code; headless Linux Chromium has no BarcodeDetector, so the portal's
// own ZXing WebAssembly reader does the reading. The badge stays in view for seconds and
// becomes one lead, one scan. Once the scanner was opened, it opens again with no network.

const portal = usePortal();
const videoDir = mkdtempSync(join(tmpdir(), 'portal-fake-camera-'));
const videoFile = join(videoDir, 'badge.y4m');
let badgeCode = '';

/** A demo visitor's badge that is not yet a lead of the demo exhibitor. */
async function badgeNotYetALead(token: string): Promise<string> {
  for (let n = 123; n < 200; n++) {
    const code = `AFHE2027-V${String(n).padStart(7, '0')}`;
    const answer = await apiGet(portal.url, `/leads?keyword=${code}`, token);
    if ((answer.data as { total: number }).total === 0) return code;
  }
  throw new Error('every demo badge tried is a lead already');
}

const session = useBrowser(
  { permissions: ['camera'], viewport: { width: 390, height: 844 } },
  {
    launchArgs: async () => {
      badgeCode = await badgeNotYetALead(await apiLogin(portal.url, 'demo'));
      writeBadgeY4m(videoFile, badgeCode);
      return fakeCameraArgs(videoFile);
    },
  },
);

afterAll(() => rmSync(videoDir, { recursive: true, force: true }));

const SCANNER = '/digital-tools/scanner';

async function openScanner(page: Page) {
  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}${SCANNER}`);
  await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.leadScanner') }), 'the Scanner heading');
}

/** Waits until the camera has shown `seconds` more of its video (the badge held in view that long). */
async function cameraSeconds(page: Page, seconds: number) {
  const start = await page.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime);
  await page.waitForFunction(
    ({ start, seconds }) => (document.querySelector('video')?.currentTime ?? 0) >= start + seconds,
    { start, seconds },
    { timeout: (seconds + 10) * 1000 },
  );
}

describe('scanner camera', () => {
  test('LD1: a badge held in front of the camera for seconds becomes one lead, read once', async () => {
    const { page } = session;
    await openScanner(page);
    const recent = page.getByRole('list', { name: en('leads.scanner.recent') });
    const item = recent.getByRole('listitem').filter({ hasText: badgeCode });
    // The WebAssembly reader compiles first (a slow machine needs a while).
    await expectVisible(item.filter({ hasText: en('leads.scanner.state.sent') }), `${badgeCode} sent`, UI_TIMEOUT_MS * 3);

    await cameraSeconds(page, 4);
    await expect.poll(() => recent.getByRole('listitem').count()).toBe(1);
    const token = await apiLogin(portal.url, 'demo');
    const leads = (await apiGet(portal.url, `/leads?keyword=${badgeCode}`, token)).data as { total: number; items: Array<{ id: number }> };
    expect(leads.total).toBe(1);
    const lead = (await apiGet(portal.url, `/leads/${leads.items[0]!.id}`, token)).data as { lead: { scans: { count: number } } };
    // One scan recorded on the lead: the camera did not send the badge again while it stayed in view.
    expect(lead.lead.scans.count).toBe(1);
  });

  test('LD1: once opened, the scanner opens again with no network (service worker)', async () => {
    const { page, context } = session;
    await openScanner(page);
    // The worker has installed (its precache filled) and is active.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.reload();
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.leadScanner') }), 'the Scanner heading offline');
    await expectVisible(page.getByRole('region', { name: en('scannerCamera.view') }), 'the camera offline');
    // The reader's WebAssembly came from the cache too: the badge is still read.
    const recent = page.getByRole('list', { name: en('leads.scanner.recent') });
    await expectVisible(recent.getByRole('listitem').filter({ hasText: badgeCode }), `${badgeCode} read offline`, UI_TIMEOUT_MS * 3);
  });
});
