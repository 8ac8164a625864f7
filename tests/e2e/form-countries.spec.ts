import { beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { text } from './support/locales';
import { DEMO_PASSWORD, usePortal, demoParticipationId } from './support/portal';

// L1: a country field of a form is a list a phone user types into, in the page's
// language; the form keeps the ISO code, and the submitted copy names the country in Japanese.
// A value stored before the field held codes is shown as it was typed.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const ja = (key: string, params: Record<string, string | number> = {}) => text('ja', key, params);
const VIP = '/myParticipation/vipInvitations';

/** The demo exhibitor's participation in the demo event. */
const demoParticipation = () => demoParticipationId(portal);

beforeEach(async () => {
  await portal.app.db
    .deleteFrom('form_entries')
    .where('participation_id', '=', await demoParticipation())
    .where('form_id', '=', 'vip')
    .execute();
});

async function openVipInJapanese(page: Page) {
  await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
  await page.goto(`${portal.url}${VIP}?lang=ja`);
  await expectVisible(page.getByRole('button', { name: ja('formRuntime.submit'), exact: true }), 'the Japanese Submit button');
}

const countryField = (page: Page) => page.getByRole('combobox', { name: ja('forms.vip.country'), exact: true });

describe('countries inside forms', () => {
  test('L1: on a phone in Japanese, a country is chosen by typing its Japanese name; the code is stored and the summary names it', async () => {
    const { page } = session;
    await openVipInJapanese(page);
    await page.getByRole('button', { name: ja('forms.vip.addInvitation'), exact: true }).click();
    await field(page, ja('forms.vip.name')).fill('Tan Ah Kow');
    await field(page, ja('forms.vip.email')).fill('ahkow.tan@lion-foods.example');

    await countryField(page).fill('シンガ');
    const option = page.getByRole('option', { name: 'シンガポール', exact: true });
    await expectVisible(option, 'シンガポール among the choices');
    await option.click();
    expect(await countryField(page).inputValue()).toBe('シンガポール');

    await page.getByRole('button', { name: ja('formRuntime.submit'), exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: ja('formRuntime.confirm.submit'), exact: true })
      .click();
    // The submission lands in the database (waited for, not slept on).
    let entry: { submitted_data: unknown } | undefined;
    while (!entry?.submitted_data) {
      entry = await portal.app.db
        .selectFrom('form_entries')
        .select('submitted_data')
        .where('participation_id', '=', await demoParticipation())
        .where('form_id', '=', 'vip')
        .executeTakeFirst();
      if (!entry?.submitted_data) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(entry.submitted_data).toMatchObject({ invitations: [{ name: 'Tan Ah Kow', country: 'SG' }] });

    // F10: the submitted copy names the country in the reader's language.
    await page.goto(`${portal.url}/orderForms/detail?form=vip&lang=ja`);
    const value = page
      .getByRole('main')
      .locator('dt', { hasText: new RegExp(`^${ja('forms.vip.country')}$`) })
      .locator('xpath=following-sibling::dd[1]');
    await expectVisible(value, 'the country in the submitted copy');
    expect(await value.innerText()).toBe('シンガポール');
  });

  test('L1: typing a name and moving on takes the best match; a name stored before codes is shown as typed and asked to be chosen again', async () => {
    const { page } = session;
    const data = JSON.stringify({ invitations: [{ name: 'Lim Wei', email: 'lim.wei@lim-holdings.example', country: 'Borneo Republic' }] });
    await portal.app.db
      .insertInto('form_entries')
      .values({ participation_id: await demoParticipation(), form_id: 'vip', data, status: 'draft' })
      .execute();
    await openVipInJapanese(page);
    expect(await countryField(page).inputValue()).toBe('Borneo Republic');

    await page.getByRole('button', { name: ja('formRuntime.submit'), exact: true }).click();
    await expectVisible(page.getByText(ja('validation.country'), { exact: true }).first(), `the message "${ja('validation.country')}"`);

    // Typed in Vietnamese on a Japanese page, and left without choosing: the match is taken.
    await countryField(page).fill('Việt');
    await field(page, ja('forms.vip.name')).click();
    await expectVisible(page.locator(`input[value="ベトナム"]`), 'ベトナム in the country field');
    expect(await page.getByText(ja('validation.country'), { exact: true }).count(), 'the message is gone').toBe(0);
  });
});
