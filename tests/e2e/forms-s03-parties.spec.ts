import { beforeEach, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';
import { clearDemoEntries, confirmSubmit, submitButton } from './support/form-page';

// P1 F4 F6: S03 is shared by the exhibitor (booth design and height) and its booth contractor
// (the contractor's company, type and green card). Each side submits its own part alone, in either
// order, while the other part is still empty: a checkbox's default in the part nobody touched does
// not make it "filled", and a refusal names only fields the user sees. Once the contractor's part
// is in, S05 (contractor badges) and S08 (contractor vehicle pass) open for the contractor.

const portal = usePortal();
const session = useBrowser();

const S03 = '/myParticipation/boothInfo';
const S05 = '/myParticipation/contractorBadges';
const S08 = '/myParticipation/contractorVehicle';

beforeEach(async () => {
  await clearDemoEntries(portal);
});

/** A small PDF: the booth design the exhibitor uploads. */
const BOOTH_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function submitAndConfirm(page: Page) {
  await submitButton(page).click();
  await confirmSubmit(page);
  await expectVisible(page.getByText(en('formRuntime.submitted'), { exact: true }), 'the notice "Submitted"');
}

/** The status of one part as the form shows it ("Booth contractor's part: Submitted"). */
const partStatus = (page: Page, part: string, status: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByText(`${en(`forms.parts.${part}`)}:`, { exact: true }) })
    .getByText(en(`formRuntime.status.${status}`), { exact: true });

async function openS03(page: Page, login: string) {
  await loginAndLand(page, portal.url, login, DEMO_PASSWORD);
  await page.goto(`${portal.url}${S03}`);
  await expectVisible(submitButton(page), `S03 for ${login}`);
}

/** The exhibitor's part: a booth design uploaded and a 3.2 m booth; the contractor's part left alone. */
async function submitBoothAsExhibitor(page: Page) {
  await openS03(page, 'demo');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: en('formRuntime.upload.choose'), exact: true }).click()]);
  await chooser.setFiles({ name: 'booth-design.pdf', mimeType: 'application/pdf', buffer: BOOTH_PDF });
  await expectVisible(page.getByRole('link', { name: 'booth-design.pdf', exact: true }), 'the uploaded booth design');
  await page.getByRole('spinbutton', { name: en('forms.s03.boothHeight') }).fill('3.2');
  await submitAndConfirm(page);
  await expectVisible(partStatus(page, 'exhibitor', 'pendingApproval'), "the exhibitor's part: waiting for approval (above 2.44 m)");
}

/** Every problem a refused submit lists is a link to a field the user sees, named by its label. */
async function expectProblemsNameShownFields(page: Page, summary: Locator) {
  const links = summary.getByRole('link');
  await expectVisible(links.first(), 'the listed problems');
  for (const link of await links.all()) {
    const href = (await link.getAttribute('href')) ?? '';
    const text = (await link.textContent()) ?? '';
    expect(text, `the problem "${text}" (${href}) names its field`).toMatch(/^[^:]+: /);
    expect(await page.locator(href).isVisible(), `the field of "${text}" (${href}) is shown`).toBe(true);
  }
}

/** The contractor's part, filled and submitted by the contractor. */
async function submitContractorPart(page: Page) {
  await openS03(page, 'demo/builder');
  // Submitted empty first: refused, naming the contractor's own fields only.
  await submitButton(page).click();
  const summary = page.getByRole('alert').filter({ hasText: en('formRuntime.problems.title', { count: 4 }).replace(/\d+$/, '') });
  await expectVisible(summary, 'the problems of the empty contractor part');
  await expectVisible(summary.getByRole('link', { name: `${en('forms.s03.company')}: ${en('validation.required')}` }), 'the company name listed');
  await expectProblemsNameShownFields(page, summary);
  expect(await summary.getByRole('link', { name: new RegExp(en('forms.s03.boothDesign')) }).count(), "no problem with the exhibitor's booth design").toBe(0);

  await field(page, en('forms.s03.company')).fill('Rimba Stand Builders Sdn. Bhd.');
  await field(page, en('forms.s03.email')).fill('hafiz@rimba-stands.example');
  await field(page, en('forms.s03.contactPerson')).fill('Hafiz Ismail');
  await page.getByRole('radio', { name: en('forms.s03.enum.contractorType.contractor') }).check();
  await submitAndConfirm(page);
  await expectVisible(partStatus(page, 'contractor', 'submitted'), "the contractor's part: Submitted");
}

/** S05 and S08 ask for no other form first: the contractor may submit them. */
async function expectContractorFormsOpen(page: Page) {
  for (const path of [S05, S08]) {
    await page.goto(`${portal.url}${path}`);
    await expectVisible(submitButton(page), path);
    expect(await page.getByText(en('errors.submitFormsFirst'), { exact: false }).count(), `${path}: no "submit S03 first"`).toBe(0);
    expect(await submitButton(page).isEnabled(), `${path}: Submit open`).toBe(true);
  }
}

describe('P1 F4 F6: S03 submitted by each party alone, in either order', () => {
  test('the exhibitor with a contractor login submits its booth first, then the contractor its part; S05 and S08 open for the contractor', async () => {
    const exhibitor = session.page;
    await submitBoothAsExhibitor(exhibitor);
    await expectVisible(partStatus(exhibitor, 'contractor', 'notStarted'), "the contractor's part: still not started");

    const contractor = await (await session.newContext()).newPage();
    await submitContractorPart(contractor);
    await expectContractorFormsOpen(contractor);
  });

  test('the contractor submits its part first, then the exhibitor its booth', async () => {
    const contractor = session.page;
    await submitContractorPart(contractor);
    await expectContractorFormsOpen(contractor);

    const exhibitor = await (await session.newContext()).newPage();
    await submitBoothAsExhibitor(exhibitor);
    await expectVisible(partStatus(exhibitor, 'contractor', 'submitted'), "the contractor's part: still submitted");
  });
});
