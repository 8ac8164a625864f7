import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { text } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// LD1-LD4 end to end: the scanning app sends a scan through the API; the exhibitor finds the
// lead in the list, opens it, is told what is required, qualifies it and sees it saved; then
// exports the leads as XLSX and downloads the file again from the data download list.

const portal = usePortal();
const session = useBrowser();
const en = (key: string, params: Record<string, string | number> = {}) => text('en', key, params);

describe('lead capture', () => {
  test('LD1 LD2 LD3 LD4: a scanned lead is listed, qualified after the required messages, exported and downloaded again', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const badgeCode = 'AFHE2027-V0002987';
    const scan = { clientScanId: `e2e-${Date.now()}`, badgeCode, scannedAt: new Date().toISOString() };
    const scanned = (await fetch(`${portal.url}/oga/leads/scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scans: [scan] }),
    }).then((r) => r.json())) as { code: number; data: { results: Array<{ status: string; leadId: number; visitorName: string; company: string }> } };
    expect(scanned.code).toBe(200);
    const [result] = scanned.data.results;
    expect(result).toMatchObject({ status: 'created' });
    const name = result!.visitorName;

    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/leads`);
    // The keyword finds it among the seeded leads.
    await page.getByRole('textbox', { name: en('leads.filter.keyword') }).fill(badgeCode);
    await page.getByRole('button', { name: en('leads.filter.search') }).click();
    const link = page.getByRole('link', { name: en('leads.list.open', { name }) });
    await expectVisible(link, `the scanned visitor "${name}" in the lead list`);
    await expectVisible(page.getByRole('row').filter({ hasText: result!.company }), 'the company on the same row');
    await expectVisible(page.getByText(en('pagination.total', { total: 1 })), 'a total of 1');

    await link.click();
    await waitForPath(page, '/lead/lead-detail');
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(result!.leadId));
    await expectVisible(page.getByText(badgeCode, { exact: true }), 'the badge code on the detail');

    // Saving before choosing: the V6 messages beside the fields.
    await page.getByRole('button', { name: en('leads.detail.save') }).click();
    await expectVisible(page.getByText(en('leads.required.leadType')), 'the lead type required message');
    await expectVisible(page.getByText(en('leads.required.temperature')), 'the temperature required message');
    await expectVisible(page.getByText(en('leads.required.followUp')), 'the follow-up required message');

    await page.getByRole('combobox', { name: en('leads.field.leadType') }).click();
    await page.getByRole('option', { name: en('leads.type.potentialCustomer') }).click();
    await page.getByRole('combobox', { name: en('leads.field.temperature') }).click();
    await page.getByRole('option', { name: en('leads.temperature.hot') }).click();
    await page.getByRole('combobox', { name: en('leads.field.followUp') }).click();
    await page.getByRole('option', { name: en('leads.followUp.sendQuotation') }).click();
    await page.getByRole('textbox', { name: en('leads.field.notes') }).fill('Asked for a quotation for 200 kg of honey.');
    await page.getByRole('button', { name: en('leads.detail.save') }).click();
    await expectVisible(page.getByText(en('success.saved')), 'the saved message');
    const visitorCard = page.getByRole('group', { name: en('leads.detail.visitor') });
    await expectVisible(visitorCard.getByText(en('leads.type.potentialCustomer'), { exact: true }), 'the lead type shown on the lead');
    await expectVisible(visitorCard.getByText('Asked for a quotation for 200 kg of honey.'), 'the notes shown on the lead');
    // Saved on the server: a reload shows it too.
    await page.reload();
    await expectVisible(page.getByRole('group', { name: en('leads.detail.visitor') }).getByText(en('leads.temperature.hot'), { exact: true }), 'the temperature after a reload');

    // LD4: export as XLSX, then download it again from the data download list.
    await page.goto(`${portal.url}/digital-tools/lead-report`);
    await page.getByRole('combobox', { name: en('leads.field.temperature') }).click();
    await page.getByRole('option', { name: en('leads.temperature.hot') }).click();
    const exporting = page.waitForEvent('download');
    await page.getByRole('button', { name: en('leads.report.exportXlsx') }).click();
    const exported = await exporting;
    const fileName = exported.suggestedFilename();
    expect(fileName).toMatch(/^leads-AFHE2027-\d{8}-\d{4}\.xlsx$/);
    const first = readFileSync(await exported.path());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(first as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header[0]).toBe(en('leads.field.visitorName'));
    const names = (sheet.getColumn(1).values as string[]).slice(2);
    expect(names).toContain(name);
    const temperatures = new Set((sheet.getColumn(header.indexOf(en('leads.field.temperature')) + 1).values as string[]).slice(2));
    expect(temperatures).toEqual(new Set([en('leads.temperature.hot')]));

    const list = page.getByRole('table', { name: en('leads.report.downloads') });
    const row = list.getByRole('row').filter({ hasText: fileName });
    await expectVisible(row, 'the export in the data download list');
    await expectVisible(row.getByText('Aisyah Rahman'), 'who downloaded it');
    const again = page.waitForEvent('download');
    await row.getByRole('button', { name: `${en('leads.report.download')} ${fileName}` }).click();
    const second = await again;
    expect(second.suggestedFilename()).toBe(fileName);
    expect(readFileSync(await second.path()).equals(first)).toBe(true);
  });
});
