import type { Page } from 'playwright-core';
import { expectVisible, field } from './browser';
import { en } from './locales';

// The scanner screen as a person at the booth uses it (LD1): its Recent scans list, the manual
// entry, and the line that says the phone is registered as a scanning device.

/** How long a test waits for the queue to reach the server (batches, backoff, a restart). */
export const SYNC_TIMEOUT_MS = 60_000;

export const SCANNER_PATH = '/digital-tools/scanner';

export const recentScans = (page: Page) => page.getByRole('list', { name: en('leads.scanner.recent') });

export const scanItem = (page: Page, code: string) => recentScans(page).getByRole('listitem').filter({ hasText: code });

export async function openScanner(page: Page, portalUrl: string): Promise<void> {
  await page.goto(`${portalUrl}${SCANNER_PATH}`);
  await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.leadScanner') }), 'the Scanner heading');
}

/** The phone is registered as a scanning device (done by itself on the first visit). */
export async function deviceReady(page: Page): Promise<void> {
  const [before] = en('leads.scanner.device').split('{{name}}');
  await expectVisible(page.getByText(before!.trim(), { exact: false }), 'the device registration');
}

/** A badge code typed in, as for a badge the camera cannot read. */
export async function addCode(page: Page, code: string): Promise<void> {
  await field(page, en('leads.scanner.badgeCode')).fill(code);
  await page.getByRole('button', { name: en('leads.scanner.add'), exact: true }).click();
}

/** Polls a condition outside the page (the database, the server) until it holds. */
export async function waitFor(what: string, condition: () => Promise<boolean>, timeout = SYNC_TIMEOUT_MS): Promise<void> {
  const until = Date.now() + timeout;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > until) throw new Error(`Waited ${timeout} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
