import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';
import { formatEventDay } from '../../src/engine/locale-format';

// LD6/V5, LA1-LA3, LA5 end to end: custom tags up to the limit (duplicate message, limit
// tips), a lead written to the database shows in the dashboard's summary and in a chart's
// table view, and an invitation goes out by e-mail and is listed as sent.

const portal = usePortal();
const session = useBrowser();

describe('lead analytics', () => {
  test('V5 LD6: tags up to three, the duplicate messages beside the fields, then the limit tips instead of the add button', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/custom-tag`);
    const addTag = page.getByRole('button', { name: en('customTags.add') });

    const create = async (name: string, choices: string[]) => {
      await addTag.click();
      const form = page.getByRole('form', { name: en('customTags.newTag') });
      await field(form, en('customTags.name')).fill(name);
      for (const [index, choice] of choices.entries()) {
        if (index > 0) await form.getByRole('button', { name: en('customTags.addChoice') }).click();
        await field(form, en('customTags.choice', { n: index + 1 })).fill(choice);
      }
      await form.getByRole('button', { name: en('customTags.save') }).click();
      return form;
    };

    let form = await create('Budget', ['Below 10k', '10k to 50k']);
    await expectHidden(form, 'the editor once saved');
    await expectVisible(page.getByRole('listitem', { name: 'Budget' }).getByText('10k to 50k'), 'the saved tag with its choices');

    form = await create('  budget ', ['Any']);
    await expectVisible(form.getByText(en('errors.tagExists')), 'the duplicate tag message beside the name');
    await field(form, en('customTags.name')).fill('Region');
    await form.getByRole('button', { name: en('customTags.addChoice') }).click();
    await field(form, en('customTags.choice', { n: 2 })).fill(' any');
    await form.getByRole('button', { name: en('customTags.save') }).click();
    await expectVisible(form.getByText(en('errors.tagChoicesDuplicated')), 'the duplicate choice message');
    await field(form, en('customTags.choice', { n: 2 })).fill('ASEAN');
    await form.getByRole('button', { name: en('customTags.save') }).click();
    await expectHidden(form, 'the editor once saved');

    await expectVisible(addTag, 'the add button below the limit');
    await create('Interest', ['Spices']);
    await expectVisible(page.getByRole('listitem', { name: 'Interest' }), 'the third tag');
    await expectVisible(page.getByText(en('limitTips.single').split('<mail>')[0]!.trim(), { exact: false }), 'the limit tips');
    expect(await addTag.count()).toBe(0);
    const tags = (await apiGet(portal.url, '/custom-tags', await apiLogin(portal.url, 'demo'))).data as Array<{ name: string }>;
    expect(tags.map((t) => t.name)).toEqual(['Budget', 'Region', 'Interest']);
  });

  test('LD1 LA1 LA3: a lead scanned through the API and qualified shows in the summary and in the lead type table view', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const before = (await apiGet(portal.url, '/analytics/dashboard', token)).data as { summary: { total: number }; types: Array<{ key: string; leads: number }> };
    const investorsBefore = before.types.find((row) => row.key === 'investor')?.leads ?? 0;
    // The scanning app's path: a scan through the API, then its qualification.
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${portal.url}/oga${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ code: number; data: { results?: Array<{ status: string; leadId: number }> } }>,
      );
    const scanned = await send('POST', '/leads/scans', {
      scans: [{ clientScanId: `e2e-dashboard-${Date.now()}`, badgeCode: 'AFHE2027-V0001234', scannedAt: new Date().toISOString() }],
    });
    expect(scanned.data.results?.[0]?.status).toBe('created');
    const qualified = await send('PUT', `/leads/${scanned.data.results![0]!.leadId}`, { leadType: 'investor', temperature: 'hot', followUp: 'arrangeMeeting' });
    expect(qualified.code).toBe(200);

    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/dashboard`);
    const summary = page.getByRole('region', { name: en('dashboard.summary.title') });
    const totalCard = summary.locator('.MuiCard-root').filter({ hasText: en('dashboard.summary.total') });
    await expectVisible(totalCard.getByText((before.summary.total + 1).toLocaleString('en-GB'), { exact: true }), `the total of ${before.summary.total + 1} leads`);

    const byType = page.getByRole('region', { name: en('dashboard.breakdown.type') });
    await byType.getByRole('button', { name: en('dashboard.view.table') }).click();
    const table = byType.getByRole('table', { name: en('dashboard.breakdown.type') });
    await expectVisible(table.getByRole('row', { name: `${en('leads.type.investor')} ${investorsBefore + 1}` }), `Investor with ${investorsBefore + 1} leads in the table view`);
  });

  test('LA2: the trend shows the show days by day, one chosen show day by hour, and no axis label is cut', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const dashboard = (await apiGet(portal.url, '/analytics/dashboard', token)).data as {
      offsetLabel: string;
      trend: { showDays: string[]; points: Array<{ label: string; leads: number }> };
    };
    expect(dashboard.trend.showDays.length).toBeGreaterThan(1);
    // Days as the page writes them in English (the user's language; the regexes below need no escaping).
    const showDays = dashboard.trend.showDays.map((day) => formatEventDay(day, 'en'));

    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/dashboard`);
    const trend = page.getByRole('region', { name: en('dashboard.trend.title') });
    await expectVisible(trend.locator('svg'), 'the trend chart');
    // No tick label reaches outside the chart (none is cut).
    const cut = await trend
      .locator('svg')
      .first()
      .evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')]
          .map((text) => ({ text: text.textContent ?? '', rect: text.getBoundingClientRect() }))
          .filter(
            ({ text, rect }) => text.trim() !== '' && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5 || rect.bottom > box.bottom + 0.5 || rect.top < box.top - 0.5),
          )
          .map(({ text }) => text);
      });
    expect(cut).toEqual([]);
    // Daily by default: a row per show day in the table view.
    await trend.getByRole('button', { name: en('dashboard.view.table') }).click();
    const table = trend.getByRole('table', { name: en('dashboard.trend.title') });
    for (const day of showDays) await expectVisible(table.getByRole('row', { name: new RegExp(`^${day} \\d+$`) }), `show day ${day} in the daily trend`);
    // Hourly: one show day, chosen in the picker.
    await trend.getByRole('button', { name: en('dashboard.trend.hourly') }).click();
    const picker = trend.getByRole('combobox', { name: en('dashboard.trend.showDay') });
    await expectVisible(picker, 'the show day picker');
    await picker.click();
    await page.getByRole('option', { name: showDays[1]! }).click();
    await expectVisible(table.getByRole('row', { name: new RegExp(`^${showDays[1]} 1[0-7]:00 \\d+$`) }).first(), `the hours of ${showDays[1]}`);
    expect(await table.getByRole('row', { name: new RegExp(`^${showDays[0]} `) }).count()).toBe(0);
  });

  test('LA5: an invitation is sent by e-mail and listed as sent', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/inviteClients`);
    const form = page.getByRole('form', { name: en('invitations.email.title') });
    await field(form, en('invitations.email.name')).fill('Mei Ling Tan');
    await field(form, en('invitations.email.email')).fill('meiling＠buyer.example');
    await form.getByRole('button', { name: en('invitations.email.send') }).click();
    await expectVisible(form.getByText(en('validation.noFullWidth')), 'the full-width message beside the e-mail');
    await field(form, en('invitations.email.email')).fill('meiling@buyer.example');
    await form.getByRole('button', { name: en('invitations.email.send') }).click();

    const mail = await portal.sink.waitFor('meiling@buyer.example');
    expect(mail.subject).toBe('Borneo Botanica invites you to ASEAN Food & Hospitality Expo 2027');
    expect(mail.text).toContain('booth Hall 3 · B12');

    const list = page.getByRole('table', { name: en('invitations.list.title') });
    const row = list.getByRole('row').filter({ hasText: 'meiling@buyer.example' });
    await expectVisible(row.getByText(en('invitations.status.sent'), { exact: true }), 'the invitation listed as sent');
    await expectVisible(row.getByText('demo@borneo-botanica.example', { exact: true }), 'the sender e-mail');
  });
});
