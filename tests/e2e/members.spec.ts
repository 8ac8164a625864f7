import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// LD5 and P1 end to end: the exhibitor adds team users up to its quota and then sees the limit
// tips and "Quota is not enough!"; its contractor logs in and sees only the contractor forms, and
// in S03 only the contractor's part.

const portal = usePortal();
const session = useBrowser();

const SUPPORT = 'exhibitor-support@afhe-expo.example';

async function addTeamUser(page: Page, account: string) {
  await page.getByRole('button', { name: en('members.teamUsers.add'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: en('members.teamUsers.addTitle') });
  await expectVisible(dialog, 'the "Add team user" dialog');
  await field(dialog, en('members.fields.account')).fill(account);
  // The ID lives under the exhibitor's account: the dialog says what they will log in with.
  await expectVisible(dialog.getByText(en('members.fields.accountLoginHelp', { login: `demo/${account}` }), { exact: true }), `the login demo/${account} shown`);
  await field(dialog, en('members.fields.email')).fill(`${account}@borneo-botanica.example`);
  await field(dialog, en('members.fields.leadQuota')).fill('250');
  await dialog.getByRole('button', { name: en('members.save'), exact: true }).click();
  await expectHidden(dialog, 'the dialog once saved');
  await expectVisible(page.getByRole('row', { name: new RegExp(`^demo/${account}\\b`) }), `the row of demo/${account}`);
}

describe('team users and contractor logins', () => {
  test('LD5 P4: the exhibitor adds team users up to the quota, then sees the limit tips, and "Quota is not enough!" beyond it', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/team-user`);
    const table = page.getByRole('table', { name: en('members.teamUsers.table') });
    await expectVisible(table.getByRole('row', { name: /^demo\/scanner\b/ }), 'the seeded team user "scanner"');
    await expectVisible(page.getByText(en('members.usage', { active: 1, quota: 3 }), { exact: true }), '"1 of 3 active"');

    // A field the server would refuse is said beside the field before anything is sent.
    await page.getByRole('button', { name: en('members.teamUsers.add'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('members.teamUsers.addTitle') });
    await field(dialog, en('members.fields.account')).fill('stand-helper');
    await field(dialog, en('members.fields.email')).fill('ｆｕｌｌ@borneo-botanica.example');
    await dialog.getByRole('button', { name: en('members.save'), exact: true }).click();
    await expectVisible(dialog.getByText(en('errors.emailInvalid'), { exact: true }), 'the e-mail message beside the field');
    await dialog.getByRole('button', { name: en('members.cancel'), exact: true }).click();
    await expectHidden(dialog, 'the cancelled dialog');

    await addTeamUser(page, 'booth-helper-1');
    await expectVisible(page.getByText(en('success.newUserAdded'), { exact: true }), 'the "New user added" toast');
    // The activation e-mail really went out, with a link to set the password.
    const mail = await portal.sink.waitFor('booth-helper-1@borneo-botanica.example');
    expect(mail.subject).toBe(en('members.mail.teamUser.subject', { event: 'ASEAN Food & Hospitality Expo 2027' }));
    expect(mail.text).toMatch(/\/reset-password\?token=/);

    await addTeamUser(page, 'booth-helper-2');
    await expectVisible(page.getByText(en('members.usage', { active: 3, quota: 3 }), { exact: true }), '"3 of 3 active"');
    // At the limit the add button is gone and the limit tips say why, with the support e-mail.
    await expectHidden(page.getByRole('button', { name: en('members.teamUsers.add'), exact: true }), 'the add button at the limit');
    const tips = page.getByRole('alert').filter({ hasText: en('limitTips.single', { email: SUPPORT }).replace(/<\/?mail>/g, '') });
    await expectVisible(tips, 'the limit tips');
    expect(await tips.getByRole('link', { name: SUPPORT }).getAttribute('href')).toBe(`mailto:${SUPPORT}`);

    // Deactivating frees a place; once it is taken again, activating is refused with the spec's message.
    await page.getByRole('button', { name: `${en('members.actions.deactivate')} demo/booth-helper-1`, exact: true }).click();
    await expectVisible(page.getByRole('row', { name: /^demo\/booth-helper-1\b/ }).getByText(en('members.status.disabled'), { exact: true }), 'booth-helper-1 deactivated');
    await addTeamUser(page, 'booth-helper-3');
    await expectHidden(page.getByRole('button', { name: en('members.teamUsers.add'), exact: true }), 'the add button at the limit again');
    await page.getByRole('button', { name: `${en('members.actions.activate')} demo/booth-helper-1`, exact: true }).click();
    await expectVisible(page.getByText(en('errors.quotaNotEnough'), { exact: true }), '"Quota is not enough!"');
    expect(en('errors.quotaNotEnough')).toBe('Quota is not enough!');
    await expectVisible(page.getByRole('row', { name: /^demo\/booth-helper-1\b/ }).getByText(en('members.status.disabled'), { exact: true }), 'booth-helper-1 still deactivated');
  });

  test('P1: a contractor sees only the contractor forms, and in S03 only the contractor part', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo/builder', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    const mandatory = page.getByRole('table', { name: en('menu.mandatoryForms') });
    const optional = page.getByRole('table', { name: en('formRuntime.list.optional') });
    await expectVisible(mandatory.getByText(en('forms.s03.title'), { exact: true }), 'S03 in the list');
    const titles = async (table: typeof mandatory) => (await table.locator('tbody tr td:first-child > :first-child').allTextContents()).map((s) => s.trim());
    expect(await titles(mandatory)).toEqual([en('forms.s03.title')]);
    expect(await titles(optional)).toEqual([en('forms.s05.title'), en('forms.s08.title')]);
    // Granting logins is the exhibitor's: no link to it for a contractor.
    expect(await page.getByRole('link', { name: en('members.contractors.link') }).count()).toBe(0);

    await page
      .getByRole('row')
      .filter({ has: page.getByText(en('forms.s03.title'), { exact: true }) })
      .getByRole('link', { name: en('formRuntime.list.open'), exact: true })
      .click();
    await expectVisible(page.getByRole('button', { name: en('formRuntime.submit'), exact: true }), 'the S03 form');
    await expectVisible(field(page, en('forms.s03.company')), 'the contractor company field');
    await expectVisible(page.getByText(en('forms.s03.contractorType'), { exact: false }), 'the contractor type');
    expect(await page.getByText(en('forms.s03.boothDesign'), { exact: true }).count(), 'no booth design upload').toBe(0);
    expect(await page.getByText(new RegExp(en('forms.s03.boothHeight').replace(/[()]/g, '\\$&'))).count(), 'no booth height').toBe(0);
    expect(await page.getByRole('button', { name: en('formRuntime.upload.choose') }).count(), 'no upload button').toBe(0);
  });

  test('P1: the exhibitor reaches contractor logins from the forms list and sees its contractor', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/orderForms`);
    await page.getByRole('link', { name: en('members.contractors.link'), exact: true }).click();
    const table = page.getByRole('table', { name: en('members.contractors.table') });
    await expectVisible(table.getByRole('row', { name: /^demo\/builder\b/ }), 'the seeded contractor "builder"');
    await expectVisible(table.getByText('Rimba Stand Builders Sdn. Bhd.', { exact: true }), 'its company');
  });
});
