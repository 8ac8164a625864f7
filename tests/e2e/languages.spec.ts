import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { countryName, formatNumber } from '../../src/engine/locale-format';
import { insertLeads } from '../../src/server/db/demo-leads';
import { DEMO_CONTRACTOR_LOGIN } from '../../src/server/db/seed';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en, text, type Lang } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// L1, languages: the dashboard and the lead list name countries (stored as ISO codes) and
// write figures in the user's language; a submit the server refuses moves focus to the problem
// summary as a browser-side refusal does; the organiser's progress matrix shows each
// part of the shared S03.

const portal = usePortal();
const session = useBrowser();

async function demoUser() {
  return portal.app.db
    .selectFrom('users')
    .innerJoin('events', 'events.id', 'users.event_id')
    .select(['users.id', 'users.participation_id', 'events.id as event_id', 'events.code', 'events.starts_at', 'events.utc_offset_minutes'])
    .where('login', '=', 'demo')
    .executeTakeFirstOrThrow();
}

async function post(path: string, token: string, body: unknown) {
  const response = await fetch(`${portal.url}/oga${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number; data: unknown };
}

/** Opens the chart card's table view and answers the table. */
async function tableOf(page: Page, language: Lang, titleKey: string) {
  const card = page.getByRole('region', { name: text(language, titleKey) });
  await card.getByRole('button', { name: text(language, 'dashboard.view.table') }).click();
  return card.getByRole('table', { name: text(language, titleKey) });
}

describe('the user’s language in data', () => {
  test('the dashboard and the lead list in ja show 日本/シンガポール and ja figures; in vi, Nhật Bản and 1.500', async () => {
    // Over a thousand leads, so that a figure shows the language's grouping.
    const demo = await demoUser();
    await insertLeads(portal.app.db, {
      participationId: demo.participation_id!,
      scannedBy: [demo.id],
      eventId: demo.event_id,
      eventCode: demo.code,
      offsetMinutes: demo.utc_offset_minutes,
      start: new Date(demo.starts_at),
      end: new Date(new Date(demo.starts_at).getTime() + 8 * 3_600_000),
      first: 481,
      last: 1500,
      visitors: 3000,
    });
    const token = await apiLogin(portal.url, 'demo');
    const dashboard = (await apiGet(portal.url, '/analytics/dashboard', token)).data as { summary: { total: number }; countries: Array<{ key: string; leads: number }> };
    expect(dashboard.summary.total).toBeGreaterThanOrEqual(1000);
    const japan = dashboard.countries.find((row) => row.key === 'JP')!;
    expect(japan).toBeDefined();

    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/dashboard?lang=ja`);
    const summary = page.getByRole('region', { name: text('ja', 'dashboard.summary.title') });
    const jaTotal = formatNumber(dashboard.summary.total, 'ja');
    expect(jaTotal).toMatch(/^\d,\d{3}$/);
    await expectVisible(summary.getByText(jaTotal, { exact: true }), `the total written ${jaTotal}`);
    const countries = await tableOf(page, 'ja', 'dashboard.breakdown.country');
    await expectVisible(countries.getByRole('row', { name: `日本 ${formatNumber(japan.leads, 'ja')}` }), 'Japan as 日本 with its count');
    await expectVisible(countries.getByRole('cell', { name: 'シンガポール', exact: true }), 'Singapore as シンガポール');
    expect(await countries.getByRole('cell', { name: 'JP', exact: true }).count()).toBe(0);

    // The lead list: the country column and the country filter.
    await page.goto(`${portal.url}/digital-tools/leads?country=JP`);
    const list = page.getByRole('table', { name: text('ja', 'screens.leads') });
    await expectVisible(list.getByRole('cell', { name: '日本', exact: true }), 'the leads from 日本');
    expect(await list.getByRole('cell', { name: 'Japan', exact: true }).count()).toBe(0);
    await page.getByRole('combobox', { name: text('ja', 'leads.field.country') }).click();
    await expectVisible(page.getByRole('option', { name: 'シンガポール', exact: true }), 'シンガポール among the filter’s countries');
    await page.keyboard.press('Escape');

    // Vietnamese groups thousands with a dot and names Japan Nhật Bản.
    await page.goto(`${portal.url}/dashboard?lang=vi`);
    const viTotal = formatNumber(dashboard.summary.total, 'vi');
    expect(viTotal).toMatch(/^\d\.\d{3}$/);
    await expectVisible(page.getByRole('region', { name: text('vi', 'dashboard.summary.title') }).getByText(viTotal, { exact: true }), `the total written ${viTotal}`);
    const viCountries = await tableOf(page, 'vi', 'dashboard.breakdown.country');
    await expectVisible(viCountries.getByRole('cell', { name: countryName('JP', 'vi'), exact: true }), 'Japan as Nhật Bản');
  });

  test('a submit the server refuses lists its problems and moves focus to the summary', async () => {
    const demo = await demoUser();
    // Two badges, within the quota the page is opened with.
    const badges = ['Aisyah', 'Wei Ling'].map((first, index) => ({ firstName: first, lastName: 'Tan', email: `refused${index}@borneo-botanica.example`, extra: false }));
    await portal.app.db.deleteFrom('form_entries').where('participation_id', '=', demo.participation_id!).where('form_id', '=', 's04').execute();
    await portal.app.db
      .insertInto('form_entries')
      .values({ participation_id: demo.participation_id!, form_id: 's04', data: JSON.stringify({ badges }), status: 'draft' })
      .execute();
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/myParticipation/exhibitorBadges`);
    const submit = page.getByRole('button', { name: text('en', 'formRuntime.submit'), exact: true });
    await expectVisible(submit, 'the S04 form');
    await expectVisible(field(page, text('en', 'forms.s04.firstName')).first(), 'the badges');
    // Meanwhile the organiser lowers this exhibitor's badge quota: only the server knows.
    const quota = await portal.app.db
      .insertInto('quotas')
      .values({ event_id: demo.event_id, participation_id: demo.participation_id!, name: 'badges', value: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      await submit.click();
      const dialog = page.getByRole('dialog', { name: text('en', 'formRuntime.confirm.title', { form: text('en', 'forms.s04.title') }) });
      const answered = page.waitForResponse((response) => response.url().endsWith('/oga/forms/s04/submit') && response.request().method() === 'POST');
      await dialog.getByRole('button', { name: text('en', 'formRuntime.confirm.submit'), exact: true }).click();
      // The refusal is the server's (the page still holds the quota it opened with).
      expect(((await (await answered).json()) as { error: string }).error).toBe('validationFailed');
      const summary = page.getByRole('alert').filter({ hasText: text('en', 'formRuntime.problems.title', { count: 1 }) });
      await expectVisible(summary, 'the summary of the server’s problems');
      await expectVisible(summary.getByRole('link'), 'a link to the problem');
      await expect.poll(() => summary.evaluate((element) => element === document.activeElement || element.contains(document.activeElement)), { timeout: 10_000 }).toBe(true);
      await expect
        .poll(
          async () =>
            (
              await portal.app.db
                .selectFrom('form_entries')
                .select('status')
                .where('participation_id', '=', demo.participation_id!)
                .where('form_id', '=', 's04')
                .executeTakeFirstOrThrow()
            ).status,
        )
        .toBe('draft');
    } finally {
      await portal.app.db.deleteFrom('quotas').where('id', '=', quota.id).execute();
    }
  });

  test('the progress matrix shows S03’s parts; the contractor’s part alone is no submitted S03', async () => {
    const demo = await demoUser();
    await portal.app.db.deleteFrom('form_entries').where('participation_id', '=', demo.participation_id!).where('form_id', '=', 's03').execute();
    const builder = await apiLogin(portal.url, DEMO_CONTRACTOR_LOGIN);
    const submitted = await post('/forms/s03/submit', builder, {
      data: { contractor: { company: 'Rimba Stand Builders Sdn. Bhd.', email: 'hafiz@rimba-stands.example', contactPerson: 'Hafiz Ismail' }, contractorType: 'contractor' },
      version: 0,
    });
    expect(submitted.code).toBe(200);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/progress`);
    const parts = page.getByRole('list', { name: en('organiser.progress.partsOf', { form: 'S03', exhibitor: 'Borneo Botanica' }) });
    await expectVisible(parts, 'the parts of Borneo Botanica’s S03');
    await expectVisible(
      parts.getByRole('listitem').filter({ hasText: `${en('forms.parts.contractor')}: ${en('formRuntime.status.submitted')}` }),
      'the contractor’s part, submitted',
    );
    await expectVisible(parts.getByRole('listitem').filter({ hasText: `${en('forms.parts.exhibitor')}: ${en('formRuntime.status.notStarted')}` }), 'the booth part, not started');
    // The form as a whole is begun, not submitted, while the booth part is missing.
    await expectVisible(page.getByRole('button', { name: `Borneo Botanica S03: ${en('formRuntime.status.draft')}` }), 'S03 not counted as submitted');
  });
});
