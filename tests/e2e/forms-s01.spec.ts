import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { concat, jfifSegment } from '../support/fixtures';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';
import { setParticipationDeadline } from '../support/settings';
import { confirmSubmit, submitButton } from './support/form-page';

// The promotion profile S01 (F2) as the demo exhibitor fills it in: its sections shown by the
// exhibitor's flags (s01CompanyShow, s01ContactShow, s01DistributionShow, s01GoalShow,
// S01BoothDisplayName, profileSecondLanguage), a 300 dpi logo (V3), submission (F9) and the
// read-only copy of what was submitted at /orderForms/detail (F10). The demo seed's profile
// deadline has passed, so every test first moves it a month ahead in the portal's database.

const portal = usePortal();
const session = useBrowser();

const s01 = (key: string) => en(`forms.s01.${key}`);

const S01 = '/myParticipation/promotionProfile';
const DAY = 24 * 60 * 60 * 1000;

async function demoParticipation() {
  return portal.app.db
    .selectFrom('participations')
    .innerJoin('users', 'users.participation_id', 'participations.id')
    .select(['participations.id', 'participations.flags'])
    .where('users.login', '=', 'demo')
    .executeTakeFirstOrThrow();
}

let seededFlags: Record<string, boolean> | undefined;

beforeEach(async () => {
  const participation = await demoParticipation();
  seededFlags ??= participation.flags;
  await portal.app.db.deleteFrom('form_entries').where('participation_id', '=', participation.id).execute();
  await portal.app.db
    .updateTable('participations')
    .set({ flags: JSON.stringify(seededFlags) })
    .where('id', '=', participation.id)
    .execute();
  await setParticipationDeadline(portal.app.db, participation.id, 'profile', new Date(Date.now() + 30 * DAY));
});

async function setDemoFlags(flags: Record<string, boolean>) {
  const participation = await demoParticipation();
  await portal.app.db
    .updateTable('participations')
    .set({ flags: JSON.stringify({ ...participation.flags, ...flags }) })
    .where('id', '=', participation.id)
    .execute();
}

/**
 * A real logo as a designer exports it: drawn and encoded as JPEG by the browser's own canvas,
 * then given a JFIF header saying 300 dpi (canvas JPEGs carry no density of their own).
 */
async function logoJpeg(page: Page, dpi: number): Promise<Uint8Array> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 240;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#0b6e4f';
    g.fillRect(0, 0, 600, 240);
    g.fillStyle = '#f2c14e';
    g.beginPath();
    g.arc(120, 120, 80, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#ffffff';
    g.font = 'bold 54px sans-serif';
    g.fillText('Borneo', 230, 110);
    g.fillText('Botanica', 230, 170);
    return canvas.toDataURL('image/jpeg', 0.9).split(',')[1]!;
  });
  const jpeg = Uint8Array.from(Buffer.from(base64, 'base64'));
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('the canvas did not make a JPEG');
  // Drop the APPn segments after SOI (the encoder's JFIF and ICC), then put our JFIF first.
  let at = 2;
  while (jpeg[at] === 0xff && jpeg[at + 1]! >= 0xe0 && jpeg[at + 1]! <= 0xef) at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!);
  return concat(jpeg.subarray(0, 2), jfifSegment(1, dpi), jpeg.subarray(at));
}

/** Opens a form screen and waits until its form is there (the Submit button). */
async function openForm(page: Page, path: string) {
  await page.goto(`${portal.url}${path}`);
  await expectVisible(submitButton(page), `the form of ${path} with its Submit button`);
}

const statusChip = (page: Page, status: string) =>
  page
    .getByRole('main')
    .locator('.MuiChip-root')
    .filter({ hasText: new RegExp(`^${status}$`) });
const sectionTitle = (page: Page, key: string) => page.getByText(s01(key), { exact: true });

/** The innermost block holding the upload field labelled `label` (its label, button and link). */
const uploadField = (page: Page, label: string) =>
  page
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .filter({ has: page.getByRole('button', { name: new RegExp(`^(${en('formRuntime.upload.choose')}|${en('formRuntime.upload.replace')})$`) }) })
    .last();

async function chooseFile(scope: Locator, name: string, mimeType: string, bytes: Uint8Array) {
  const [chooser] = await Promise.all([
    scope.page().waitForEvent('filechooser'),
    scope.getByRole('button', { name: new RegExp(`^(${en('formRuntime.upload.choose')}|${en('formRuntime.upload.replace')})$`) }).click(),
  ]);
  await chooser.setFiles({ name, mimeType, buffer: Buffer.from(bytes) });
}

/** The text fields of both contacts, in form order: operations first, then marketing/sales. */
const contactField = (page: Page, key: string, which: 0 | 1) => field(page, s01(key)).nth(which);

describe('S01 promotion profile', () => {
  test('F2 V3 F9 F10: every section filled in, a 300 dpi logo, submitted, and the submitted copy shown read-only', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S01);
    await expectVisible(statusChip(page, en('formRuntime.status.notStarted')), 'the status "Not started"');
    await expectHidden(page.getByText(en('errors.deadlinePassed'), { exact: true }), 'no "submission closed" message');

    // Every section is on for demo.
    for (const key of ['companySection', 'contactsSection', 'distributionSection', 'goalsSection']) await expectVisible(sectionTitle(page, key), `the section "${s01(key)}"`);

    // Company profile.
    await field(page, s01('companyName')).fill('Borneo Botanica Sdn. Bhd.');
    await page.getByRole('checkbox', { name: s01('halalCertified') }).check();
    await field(page, s01('boothDisplayName')).fill('Borneo Botanica');
    await field(page, s01('boothDisplayNameLocal')).fill('婆罗洲植物');
    await field(page, s01('businessNature')).fill('Producer and exporter of rainforest honey and herbal teas');
    await page.getByRole('checkbox', { name: s01('enum.mainProductCategories.beverages'), exact: true }).check();
    await page.getByRole('checkbox', { name: s01('enum.mainProductCategories.healthOrganic'), exact: true }).check();
    await field(page, s01('description')).fill('Family-run producer from Sabah supplying hotels and specialty retailers across ASEAN since 2009.');
    await field(page, s01('website')).fill('https://www.borneo-botanica.example');
    await field(page, s01('videoLink')).fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');

    // The logo: a 72 dpi export is refused beside the field, the 300 dpi one is taken.
    const logo = uploadField(page, s01('logo'));
    await chooseFile(logo, 'borneo-logo-web.jpg', 'image/jpeg', await logoJpeg(page, 72));
    const dpiMessage = en('validation.file.dpi', { limit: 300, dpi: 72 });
    await expectVisible(logo.getByText(dpiMessage, { exact: true }), `the message "${dpiMessage}" at the logo`);
    expect(await page.getByRole('link', { name: 'borneo-logo-web.jpg' }).count(), 'the 72 dpi logo is not taken').toBe(0);
    await chooseFile(logo, 'borneo-botanica-logo.jpg', 'image/jpeg', await logoJpeg(page, 300));
    const logoLink = logo.getByRole('link', { name: 'borneo-botanica-logo.jpg', exact: true });
    await expectVisible(logoLink, 'the logo "borneo-botanica-logo.jpg" as a link');
    expect(await logoLink.getAttribute('href')).toMatch(/^\/oga\/uploads\/[^/]+$/);
    await expectHidden(logo.getByText(dpiMessage, { exact: true }), 'the dpi message, gone with the new logo');
    const served = await page.request.get(`${portal.url}${await logoLink.getAttribute('href')}`, {
      headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('oem_token'))}` },
    });
    expect(served.status(), 'the uploaded logo can be fetched').toBe(200);
    expect((await served.body()).subarray(0, 2).toString('hex'), 'the logo is served as the JPEG it is').toBe('ffd8');

    // Contacts.
    await contactField(page, 'contactName', 0).fill('Aisyah Rahman');
    await contactField(page, 'jobTitle', 0).fill('Operations Manager');
    await contactField(page, 'email', 0).fill('ops@borneo-botanica.example');
    await contactField(page, 'mobile', 0).fill('+60 12-345 6789');
    await contactField(page, 'countryCode', 0).fill('+60');
    await contactField(page, 'contactName', 1).fill('Tan Wei Ling');
    await contactField(page, 'email', 1).fill('sales@borneo-botanica.example');

    // Distribution: one agent.
    await page.getByRole('button', { name: en('forms.s01.addDistributor'), exact: true }).click();
    await expectVisible(field(page, s01('distributorCompany')), 'a distribution partner to fill in');
    await page.getByRole('radio', { name: s01('enum.relationship.agent'), exact: true }).check();
    await field(page, s01('distributorCompany')).fill('Lim Trading Pte. Ltd.');
    // L1: a country is chosen from the list by typing its name; the form keeps the ISO code.
    await page.getByRole('combobox', { name: s01('distributorCountry'), exact: true }).fill('Singap');
    await page.getByRole('option', { name: 'Singapore', exact: true }).click();

    // Goals.
    await page.getByRole('checkbox', { name: s01('enum.categories.distribution'), exact: true }).check();
    await field(page, s01('goalNotes')).fill('Meet two new distributors in Viet Nam.');

    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), `the notice "${en('formRuntime.submitted')}"`);
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');

    // What the server holds is what was typed (the last keystrokes included).
    const entry = await portal.app.db
      .selectFrom('form_entries')
      .selectAll()
      .where('participation_id', '=', (await demoParticipation()).id)
      .where('form_id', '=', 's01')
      .executeTakeFirstOrThrow();
    expect(entry.status).toBe('submitted');
    expect(entry.submitted_data).toMatchObject({
      company: {
        companyName: 'Borneo Botanica Sdn. Bhd.',
        halalCertified: true,
        boothDisplayNameLocal: '婆罗洲植物',
        mainProductCategories: ['beverages', 'healthOrganic'],
        website: 'https://www.borneo-botanica.example',
        logo: { name: 'borneo-botanica-logo.jpg', type: 'jpeg', dpi: 300 },
      },
      contacts: {
        operations: { name: 'Aisyah Rahman', email: 'ops@borneo-botanica.example', countryCode: '+60' },
        marketingSales: { name: 'Tan Wei Ling', email: 'sales@borneo-botanica.example' },
      },
      distribution: [{ relationship: 'agent', company: 'Lim Trading Pte. Ltd.', country: 'SG' }],
      goals: { categories: ['distribution'], notes: 'Meet two new distributors in Viet Nam.' },
    });

    // F10: from the forms list, the submitted copy, read-only.
    await page.goto(`${portal.url}/orderForms`);
    const row = page.getByRole('row').filter({ has: page.getByText(s01('title'), { exact: true }) });
    await expectVisible(row, 'the S01 row in the forms list');
    expect((await row.getByRole('cell').nth(2).innerText()).trim()).toBe(en('formRuntime.status.submitted'));
    await row.getByRole('link', { name: en('formRuntime.list.submission'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/orderForms/detail' && url.searchParams.get('form') === 's01');
    // A read-only summary: each value beside its label, nothing to type in.
    const summary = page.getByRole('main');
    const exactly = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const valueOf = (label: string, nth = 0) =>
      summary
        .locator('dt', { hasText: exactly(label) })
        .nth(nth)
        .locator('xpath=following-sibling::dd[1]');
    await expectVisible(valueOf(s01('companyName')), 'the submitted company name');
    expect(await valueOf(s01('companyName')).innerText()).toBe('Borneo Botanica Sdn. Bhd.');
    expect(await valueOf(s01('boothDisplayNameLocal')).innerText()).toBe('婆罗洲植物');
    expect(await valueOf(s01('email'), 1).innerText()).toBe('sales@borneo-botanica.example');
    expect(await valueOf(s01('distributorCompany')).innerText()).toBe('Lim Trading Pte. Ltd.');
    expect(await valueOf(s01('distributorCountry')).innerText()).toBe('Singapore');
    const categories = await valueOf(s01('mainProductCategories')).innerText();
    expect(categories).toContain(s01('enum.mainProductCategories.beverages'));
    expect(categories).not.toContain(s01('enum.mainProductCategories.dairy'));
    await expectVisible(page.getByRole('link', { name: 'borneo-botanica-logo.jpg', exact: true }), 'the logo link in the submitted copy');
    expect(await summary.getByRole('textbox').count(), 'no field to type in').toBe(0);
    expect(await submitButton(page).count(), 'no Submit in the read-only copy').toBe(0);
    expect(await page.getByRole('heading', { name: s01('title') }).count(), 'the title once').toBe(1);
  });

  test("F2: sections and local-language fields follow the exhibitor's flags", async () => {
    const { page } = session;
    await setDemoFlags({ s01DistributionShow: false, s01GoalShow: false, profileSecondLanguage: false, S01BoothDisplayName: false });
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S01);
    await expectVisible(sectionTitle(page, 'companySection'), 'the company profile');
    await expectVisible(sectionTitle(page, 'contactsSection'), 'the contacts');
    await expectVisible(field(page, s01('companyName')), 'the company name');
    expect(await sectionTitle(page, 'distributionSection').count(), 'no distribution section').toBe(0);
    expect(await sectionTitle(page, 'goalsSection').count(), 'no goals section').toBe(0);
    for (const key of ['boothDisplayName', 'boothDisplayNameLocal', 'descriptionLocal']) expect(await field(page, s01(key)).count(), `no "${s01(key)}"`).toBe(0);
    expect(await field(page, s01('description')).count(), 'the English description stays').toBe(1);

    // Contacts off, company on: only the company profile is left.
    await setDemoFlags({ s01ContactShow: false, s01DistributionShow: true });
    await page.reload();
    await expectVisible(sectionTitle(page, 'companySection'), 'the company profile after the flags changed');
    await expectVisible(sectionTitle(page, 'distributionSection'), 'the distribution section, switched back on');
    expect(await sectionTitle(page, 'contactsSection').count(), 'no contacts section').toBe(0);

    // What is hidden is not sent: the form submits with the company profile alone.
    await field(page, s01('companyName')).fill('Borneo Botanica Sdn. Bhd.');
    await field(page, s01('businessNature')).fill('Rainforest honey');
    await submitButton(page).click();
    await confirmSubmit(page);
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted"');
  });

  test('V6 F9: a required field left empty is named beside the field, in place, and nothing is submitted', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openForm(page, S01);
    await field(page, s01('businessNature')).fill('Rainforest honey');
    await contactField(page, 'email', 0).fill('ops@borneo-botanica.example');
    await contactField(page, 'email', 1).fill('sales@borneo-botanica');
    await submitButton(page).click();
    const required = en('validation.required');
    await expectVisible(page.getByText(required, { exact: true }), `the message "${required}"`);
    expect(await field(page, s01('companyName')).getAttribute('aria-invalid'), 'the company name is marked invalid').toBe('true');
    await expectVisible(page.getByText(en('validation.email'), { exact: true }), `the message "${en('validation.email')}" at the sales e-mail`);
    expect(await contactField(page, 'email', 1).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(en('formRuntime.submitted'), { exact: true }).count()).toBe(0);
    expect(
      await portal.app.db
        .selectFrom('form_entries')
        .select('status')
        .where('participation_id', '=', (await demoParticipation()).id)
        .where('form_id', '=', 's01')
        .where('status', '=', 'submitted')
        .executeTakeFirst(),
    ).toBeUndefined();

    // Typed right, then Enter in the field: the last keystrokes are submitted too.
    await field(page, s01('companyName')).fill('Borneo Botanica');
    await contactField(page, 'email', 1).fill('sales@borneo-botanica.example');
    await contactField(page, 'email', 1).press('Enter');
    await confirmSubmit(page);
    await expectVisible(statusChip(page, en('formRuntime.status.submitted')), 'the status "Submitted" after Enter');
    const entry = await portal.app.db
      .selectFrom('form_entries')
      .select('submitted_data')
      .where('participation_id', '=', (await demoParticipation()).id)
      .where('form_id', '=', 's01')
      .executeTakeFirstOrThrow();
    expect(entry.submitted_data).toMatchObject({ company: { companyName: 'Borneo Botanica' }, contacts: { marketingSales: { email: 'sales@borneo-botanica.example' } } });
  });
});
