import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// LD2: the organiser keeps visitors' phone numbers from exhibitors on its lead fields page; the
// exhibitor's lead detail no longer shows the phone and its next export has no phone column.

const portal = usePortal();
const session = useBrowser();

describe('visitor fields exhibitors receive', () => {
  test("LD2: the organiser hides visitors' phone numbers; the exhibitor's lead detail and export no longer show them", async () => {
    const exhibitorToken = await apiLogin(portal.url, 'demo');
    const leads = (await apiGet(portal.url, '/leads?limit=50', exhibitorToken)).data as { items: Array<{ id: number; phone: string; email: string; visitorName: string }> };
    const lead = leads.items.find((each) => each.phone !== '' && each.email !== '')!;
    expect(lead).toBeDefined();

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/lead-fields`);
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.organiserLeadFields') }), 'the lead fields page');
    const phone = page.getByRole('group', { name: en('leadFields.fields') }).getByRole('checkbox', { name: en('leads.field.phone'), exact: true });
    await expectVisible(phone, 'the phone field, received by exhibitors');
    expect(await phone.isChecked()).toBe(true);
    await phone.uncheck();
    await page.getByRole('button', { name: en('leadFields.save') }).click();
    await expectVisible(page.getByText(en('success.saved')), 'the saved message');

    await page.context().clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/lead/lead-detail?id=${lead.id}`);
    const visitor = page.getByRole('group', { name: en('leads.detail.visitor') });
    await expectVisible(visitor.getByText(lead.email, { exact: true }), "the visitor's e-mail, still received");
    await expectHidden(visitor.getByText(en('leads.field.phone'), { exact: true }), 'no phone field');
    await expectHidden(page.getByText(lead.phone, { exact: true }), 'no phone number');

    await page.goto(`${portal.url}/digital-tools/lead-report`);
    const exporting = page.waitForEvent('download');
    await page.getByRole('button', { name: en('leads.report.exportCsv') }).click();
    const csv = readFileSync(await (await exporting).path(), 'utf8');
    const header = csv
      .replace(/^\ufeff/, '')
      .split('\r\n')[0]!
      .split(',');
    expect(header).toContain(en('leads.field.email'));
    expect(header).not.toContain(en('leads.field.phone'));
    expect(csv).toContain(lead.email);
    expect(csv).not.toContain(lead.phone);
  });
});
