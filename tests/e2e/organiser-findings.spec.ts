import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { createOrganiser } from '../../src/server/admin/create-organiser';
import { expectVisible, field, loginAndLand, loginAs, useBrowser, waitForPath } from './support/browser';
import { en, text, type Lang } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// What a new organiser met in the console: flags in words, event names in the reader's language,
// the event logo uploaded and shown, the first organiser's set-password link.

const portal = usePortal();
const session = useBrowser();

const NAME_EN = 'ASEAN Food & Hospitality Expo 2027';
const NAME_CN = '2027 东盟食品与酒店博览会';
const NAME_JA = 'ASEAN フード＆ホスピタリティ・エキスポ 2027';

async function loginIn(page: Page, language: Lang, account: string, landing = '/home') {
  await page.goto(`${portal.url}/login?lang=${language}`);
  await loginAs(page, portal.url, account, DEMO_PASSWORD, {
    account: text(language, 'auth.account'),
    password: text(language, 'auth.password'),
    submit: text(language, 'auth.login'),
  });
  await waitForPath(page, landing);
}

describe('organiser findings', () => {
  test('H: the exhibitor flags read as words in the organiser language, the code name kept beside them', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/exhibitors`);
    await page.getByRole('link', { name: `${en('organiser.events.edit')} Borneo Botanica` }).click();
    await waitForPath(page, '/organiser/exhibitors/edit');
    const submitOnce = page.getByRole('checkbox', { name: `${en('organiser.flagLabels.s04SubmitOnceOnly')} s04SubmitOnceOnly` });
    await expectVisible(submitOnce, 'the S04 submit-once flag in words');
    await expectVisible(page.getByRole('checkbox', { name: `${en('organiser.flagLabels.s01CompanyShow')} s01CompanyShow` }), 'the company-profile flag in words');
    // No flag is left as a bare code name.
    await expect(page.getByRole('checkbox', { name: 's04SubmitOnceOnly', exact: true }).count()).resolves.toBe(0);
  });

  test('H: in Vietnamese too', async () => {
    const { page } = session;
    await loginIn(page, 'vi', 'organiser');
    await page.goto(`${portal.url}/organiser/exhibitors`);
    await page.getByRole('link', { name: `${text('vi', 'organiser.events.edit')} Borneo Botanica` }).click();
    await expectVisible(page.getByRole('checkbox', { name: `${text('vi', 'organiser.flagLabels.s04SubmitOnceOnly')} s04SubmitOnceOnly` }), 'the flag in Vietnamese');
  });

  test('I: the events list in Chinese shows the Chinese name of the event', async () => {
    const { page } = session;
    await loginIn(page, 'cn', 'organiser');
    await page.goto(`${portal.url}/organiser/events`);
    await expectVisible(page.getByRole('cell', { name: NAME_CN }), 'the Chinese name in the events list');
    await expect(page.getByRole('cell', { name: NAME_EN }).count()).resolves.toBe(0);
  });

  test('I: the branded login page in Japanese welcomes with the Japanese name', async () => {
    const { page } = session;
    await page.goto(`${portal.url}/login?exhibitCode=AFHE2027&lang=ja`);
    await expectVisible(page.getByRole('heading', { name: text('ja', 'auth.welcomeTo', { event: NAME_JA }) }), 'the Japanese welcome with the Japanese name');
    await expect(page.getByText(NAME_EN).count()).resolves.toBe(0);
  });

  test('L: the first organiser sets its password from the link, and the page keeps saying so after the window comes back', async () => {
    const { page, context } = session;
    const created = await createOrganiser(portal.app, portal.config, { email: 'lina@first-show.example', name: 'Lina Ong', organisation: 'First Show' });
    // The page's clock is the test's: "a minute later" below is a jump, not a wait.
    await page.clock.install();
    await page.goto(created.link);
    await expectVisible(page.getByText(en('auth.resetFor', { account: 'lina@first-show.example' })), 'which account the link is for');
    await field(page, en('auth.newPassword')).fill('First-show-2031');
    await field(page, en('auth.confirmPassword')).fill('First-show-2031');
    await page.getByRole('button', { name: en('auth.setPassword') }).click();
    const success = page.getByText(en('success.passwordReset'));
    await expectVisible(success, 'the success message');
    // A minute later the organiser comes back from its password manager, the connection blinks:
    // whatever the page does then, it must not say the link it just used is invalid.
    await page.clock.fastForward('01:00');
    await context.setOffline(true);
    await context.setOffline(false);
    await page.evaluate(() => {
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
      window.dispatchEvent(new Event('focus'));
    });
    await page.waitForLoadState('networkidle');
    await expect(success.isVisible()).resolves.toBe(true);
    await expect(page.getByText(en('errors.resetLinkInvalid')).count()).resolves.toBe(0);
    await page.getByRole('link', { name: en('auth.backToLogin') }).click();
    await loginAndLand(page, portal.url, 'lina@first-show.example', 'First-show-2031', '/organiser');
  });

  test('J: the organiser uploads the event logo in the console; the branded login page shows it', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD);
    await page.goto(`${portal.url}/organiser/events`);
    await page.getByRole('link', { name: `${en('organiser.events.edit')} AFHE2027` }).click();
    await waitForPath(page, '/organiser/events/edit');
    const png = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#0d47a1' } })
      .png()
      .toBuffer();
    await page.getByLabel(en('organiser.event.logoUpload')).setInputFiles({ name: 'afhe-logo.png', mimeType: 'image/png', buffer: png });
    await expectVisible(page.getByText(en('organiser.event.logoUploaded')), 'the upload confirmed');
    await expectVisible(page.getByRole('img', { name: en('organiser.event.logoPreview') }), 'the logo preview');

    const visitor = await (await session.newContext()).newPage();
    await visitor.goto(`${portal.url}/login?exhibitCode=AFHE2027`);
    const logo = visitor.getByRole('img', { name: NAME_EN });
    await expectVisible(logo, 'the event logo on the login page');
    // Shown, not blocked by the content policy: the image loaded with its real size.
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBe(240);
  });
});
