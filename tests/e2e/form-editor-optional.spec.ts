import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// F11: an organiser removes from one event's S04 a question the badges' approval summary shows
// (forms.yaml). The editor says which declaration names it and offers the fix in the same step:
// remove it and list it under that entry's optional:. The draft says so, publishes without a
// refusal, and the event's exhibitors get the form without the question.

const portal = usePortal();
const session = useBrowser();

/** Chooses `option` in an MUI select labelled `label`. */
async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expectHidden(page.getByRole('listbox'), `the ${label} list closing`);
}

describe('F11 a removed question forms.yaml names', () => {
  test('the editor names the approval summary and offers to list the name under its optional: in the same step; the change publishes', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.getByRole('link', { name: en('screens.organiserFormEditor'), exact: true }).click();
    await waitForPath(page, '/organiser/forms/editor');
    await pick(page, en('formGallery.event'), en('formGallery.currentEvent', { event: 'ASEAN Food & Hospitality Expo 2027' }));
    await pick(page, en('formGallery.form'), en('forms.s04.title'));

    const question = en('forms.s04.companyOnBadge');
    await page.getByRole('button', { name: en('formEditor.removeOf', { question }), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('formEditor.removeTitle', { question }) });
    await expectVisible(
      dialog.getByText(en('formEditor.referenceOptionable', { field: 'badges.companyOnBadge', at: '/forms/3/approvalSummary/0/show/3', name: 'companyOnBadge' })),
      'the approval summary that names the question',
    );
    await dialog.getByRole('button', { name: en('formEditor.removeAndList', { names: 'companyOnBadge' }), exact: true }).click();
    await expectHidden(dialog, 'the dialog closing');
    await expectVisible(page.getByText(en('formEditor.listed', { names: 'companyOnBadge (/forms/3/approvalSummary/0)' })), "the draft's forms.yaml change");
    await expectHidden(page.getByRole('listitem', { name: question }), 'the question gone from the list');
    await expectVisible(page.getByText(en('formEditor.draftSaved'), { exact: true }), 'the draft saved');
    await expectHidden(page.getByText(en('formEditor.problemCount', { count: 1 })), 'no problem');

    await field(page, en('formEditor.comment')).fill('No company name on badges');
    await page.getByRole('button', { name: en('formEditor.publish'), exact: true }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: /^Published as version/ }), 'the publish confirmed');

    expect(portal.app.forms.currentVersion().set.source.files['forms/forms.yaml']).toContain(
      'approvalSummary: [{ field: badges, show: [firstName, middleName, lastName, companyOnBadge], optional: [lastName, companyOnBadge] }]',
    );
    const token = await apiLogin(portal.url, 'demo');
    const served = (await apiGet(portal.url, '/forms/s04', token)).data as { schema: { properties: { badges: { items: { properties: Record<string, unknown> } } } } };
    expect(served.schema.properties.badges.items.properties.companyOnBadge).toBeUndefined();
  });
});
