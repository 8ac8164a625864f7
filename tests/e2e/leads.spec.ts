import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// LD1-LD4 end to end: the scanning app sends a scan through the API; the exhibitor finds the
// lead in the list, opens it, is told what is required, qualifies it and sees it saved; then
// exports the leads as XLSX and downloads the file again from the data download list.

const portal = usePortal();
const session = useBrowser();

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

  /** An API call as the demo exhibitor (or another token). */
  const call = async (token: string, method: string, path: string, body?: unknown) =>
    (await fetch(`${portal.url}/oga${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json())) as { code: number; data: any };

  test('LD6 LD1: a renamed tag choice follows on the lead, a removed one is shown and can be unticked; a second scan of the badge is shown on the lead', async () => {
    const token = await apiLogin(portal.url, 'demo');
    const tag = await call(token, 'POST', '/custom-tags', { name: 'Packaging', choices: ['Jar', 'Sachet', 'Pallet'] });
    expect(tag.code).toBe(200);
    const badgeCode = 'AFHE2027-V0002996';
    const first = await call(token, 'POST', '/leads/scan', { clientScanId: `e2e-tag-${Date.now()}`, badgeCode, scannedAt: new Date().toISOString() });
    const leadId = first.data.results[0].leadId as number;
    const qualified = await call(token, 'PATCH', `/leads/${leadId}`, {
      leadType: 'partner',
      temperature: 'warm',
      followUp: 'other',
      tagAnswers: { [tag.data.id]: ['Jar', 'Pallet'] },
    });
    expect(qualified.code).toBe(200);
    // A team user scans the same badge later: one lead, two scans.
    const again = await call(await apiLogin(portal.url, 'demo/scanner'), 'POST', '/leads/scan', {
      clientScanId: `e2e-tag2-${Date.now()}`,
      badgeCode,
      scannedAt: new Date().toISOString(),
    });
    expect(again.data.results[0]).toMatchObject({ status: 'duplicate', reason: 'alreadyScanned', leadId });

    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    // Rename "Jar" to "Glass jar" and remove "Pallet" on the custom tag page.
    await page.goto(`${portal.url}/digital-tools/custom-tag`);
    await page
      .getByRole('listitem', { name: 'Packaging' })
      .getByRole('button', { name: en('customTags.edit') })
      .click();
    await page.getByRole('textbox', { name: en('customTags.choice', { n: 1 }) }).fill('Glass jar');
    await page.getByRole('button', { name: en('customTags.removeChoice', { n: 3 }) }).click();
    await expectVisible(page.getByText(en('customTags.renameHint')), 'what renaming and removing do');
    await page.getByRole('button', { name: en('customTags.save') }).click();
    await expectVisible(page.getByText(en('success.saved')), 'the tag saved');

    await page.goto(`${portal.url}/lead/lead-detail?id=${leadId}`);
    const form = page.getByRole('form', { name: en('leads.detail.qualification') });
    await expectVisible(form.getByRole('checkbox', { name: 'Glass jar' }), 'the renamed choice');
    expect(await form.getByRole('checkbox', { name: 'Glass jar' }).isChecked()).toBe(true);
    const removed = form.getByRole('checkbox', { name: en('leads.detail.removedChoice', { choice: 'Pallet' }) });
    await expectVisible(removed, 'the removed choice, still on the lead');
    expect(await removed.isChecked()).toBe(true);
    // The lead stays savable with it, and it can be unticked.
    await page.getByRole('textbox', { name: en('leads.field.notes') }).fill('Prefers glass.');
    await page.getByRole('button', { name: en('leads.detail.save') }).click();
    await expectVisible(page.getByText(en('success.saved')), 'saved with the removed choice kept');
    await removed.uncheck();
    await page.getByRole('button', { name: en('leads.detail.save') }).click();
    await expectVisible(page.getByText(en('success.saved')).last(), 'saved without it');
    await page.reload();
    await expectVisible(form.getByRole('checkbox', { name: 'Glass jar' }), 'the form after a reload');
    expect(await form.getByRole('checkbox', { name: en('leads.detail.removedChoice', { choice: 'Pallet' }) }).count()).toBe(0);
    // The second scan is shown: count and who.
    const scans = page
      .getByRole('group', { name: en('leads.detail.visitor') })
      .getByText(en('leads.detail.scansSummary', { count: 2, name: 'scanner' }).split(' at')[0]!, { exact: false });
    await expectVisible(scans, 'the scan count on the lead');
  });

  test('LD1: the exhibitor adds a scanning device, sees the token once, and revokes the device', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/devices`);
    await page.getByRole('button', { name: en('leads.devices.add') }).click();
    await expectVisible(page.getByText(en('leads.devices.nameRequired')), 'the name is required');
    await page.getByRole('textbox', { name: en('leads.devices.name') }).fill('Booth iPad 1');
    await page.getByRole('button', { name: en('leads.devices.add') }).click();
    const tokenBox = page.getByRole('textbox', { name: en('leads.devices.token') });
    await expectVisible(tokenBox, 'the new token, shown once');
    const token = await tokenBox.inputValue();
    expect(token.length).toBeGreaterThan(20);
    // The token scans (the app keeps it instead of a password).
    const scanned = await call(token, 'POST', '/leads/scan', { clientScanId: `e2e-device-${Date.now()}`, badgeCode: 'AFHE2027-V0002994', scannedAt: new Date().toISOString() });
    expect(scanned.data.results[0].status).toBe('created');
    const devices = page.getByRole('table', { name: en('leads.devices.list') });
    await expectVisible(devices.getByRole('row').filter({ hasText: 'Booth iPad 1' }), 'the device listed');
    await page.getByRole('button', { name: en('leads.devices.revokeNamed', { name: 'Booth iPad 1' }) }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: en('leads.devices.revoke') })
      .click();
    await expectVisible(page.getByText(en('leads.devices.revoked', { name: 'Booth iPad 1' })), 'the revoked message');
    await expectVisible(page.getByText(en('leads.devices.none')), 'no device left');
    const refused = await call(token, 'POST', '/leads/scan', { clientScanId: `e2e-device2-${Date.now()}`, badgeCode: 'AFHE2027-V0002993', scannedAt: new Date().toISOString() });
    expect(refused.code).toBe(401);
  });
});
