import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en, text } from './support/locales';
import { apiGet, apiLogin, DEMO_PASSWORD, usePortal } from './support/portal';

// F11 end to end: an organiser changes S04 for one event in the form editor, without JSON: a
// required question inside each badge, shown only for badges whose gender is "female", titled in
// four languages (Japanese among them). The impact names the submissions the change makes invalid;
// publishing reopens them. The exhibitor of that event meets the new question (in Japanese) and
// submits again; an exhibitor of another event sees S04 unchanged; the organiser rolls back and
// the question is gone.

const portal = usePortal();
const session = useBrowser();

const S04 = '/myParticipation/exhibitorBadges';
const EVENT = 'AFHE2027';
const TITLE = { en: 'Prayer room access', cn: '祈祷室使用', ja: '礼拝室の利用', vi: 'Sử dụng phòng cầu nguyện' };

/** Submits S04 through the API as an exhibitor, one badge per entry. */
async function submitBadges(account: string, badges: Array<Record<string, unknown>>) {
  const token = await apiLogin(portal.url, account);
  const answer = await fetch(`${portal.url}/oga/forms/s04/submit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: 0, data: { badges } }),
  }).then((response) => response.json() as Promise<{ code: number; msg: string }>);
  expect(answer, `${account}'s S04 submission`).toMatchObject({ code: 200 });
}

/** Chooses `option` in an MUI select labelled `label` inside `scope`. */
async function pick(page: Page, scope: Page | ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expectHidden(page.getByRole('listbox'), `the ${label} list closing`);
}

async function logout(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

/** The S04 schema and UI schema an exhibitor's form is rendered from, as JSON text (the form's strings are every event's). */
async function servedS04(account: string): Promise<string> {
  const token = await apiLogin(portal.url, account);
  const { schema, ui } = (await apiGet(portal.url, '/forms/s04', token)).data as { schema: unknown; ui: unknown };
  return JSON.stringify({ schema, ui });
}

describe("F11 the form editor on one event's patch", () => {
  test('a required, conditional question with a Japanese title added to S04 of one event: impact, publish reopening, the exhibitor answers in Japanese, another event unchanged, rollback', async () => {
    // Borneo's account of another event (HALAL2026) signs in too (the demo data leaves it disabled).
    await portal.app.db.updateTable('users').set({ status: 'active' }).where('login', '=', 'borneo.halal').execute();
    // Two exhibitors of the event submitted S04 with a badge the new question will ask about.
    await submitBadges('demo', [{ firstName: 'Aisyah', lastName: 'Rahman', email: 'aisyah@borneo.example', gender: 'female' }]);
    await submitBadges('limited', [{ firstName: 'Siti', lastName: 'Aminah', email: 'siti@kopi.example', gender: 'female' }]);

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.getByRole('link', { name: en('screens.organiserFormEditor'), exact: true }).click();
    await waitForPath(page, '/organiser/forms/editor');
    await pick(page, page, en('formGallery.event'), en('formGallery.currentEvent', { event: 'ASEAN Food & Hospitality Expo 2027' }));
    await pick(page, page, en('formGallery.form'), en('forms.s04.title'));

    // A new question inside each badge, in four languages, required.
    await page.getByRole('button', { name: en('formEditor.addQuestionTo', { where: en('forms.s04.badges') }), exact: true }).click();
    const add = page.getByRole('dialog', { name: en('formEditor.addQuestionTitle') });
    await field(add, en('formEditor.questionId')).fill('prayerRoom');
    for (const [language, label] of [
      ['en', 'English'],
      ['cn', '中文'],
      ['ja', '日本語'],
      ['vi', 'Tiếng Việt'],
    ] as const)
      await field(add, en('formEditor.inLanguage', { what: en('formEditor.questionTitle'), language: label })).fill(TITLE[language]);
    await add.getByRole('checkbox', { name: en('formEditor.required') }).check();
    await add.getByRole('button', { name: en('formEditor.add'), exact: true }).click();
    await expectHidden(add, 'the new question dialog closing');

    // Shown only when the badge's gender is "female".
    await page.getByRole('button', { name: en('formEditor.conditionOf', { question: TITLE.en }), exact: true }).click();
    const condition = page.getByRole('dialog', { name: en('formEditor.conditionTitle', { question: TITLE.en }) });
    await pick(page, condition, en('formEditor.conditionOn'), en('forms.s04.gender'));
    await pick(page, condition, en('formEditor.conditionEquals'), 'female');
    await condition.getByRole('button', { name: en('formEditor.apply'), exact: true }).click();
    await expectHidden(condition, 'the condition dialog closing');
    await expectVisible(page.getByText(en('formEditor.shownWhen', { question: 'gender', value: 'female' })), 'the condition on the question');
    await expectVisible(page.getByText(en('formEditor.draftSaved'), { exact: true }), 'the draft saved');

    // The same patch as JSON, for implementers: the condition in allOf, the new field in its then.
    await page.getByRole('tab', { name: en('formEditor.editAsJson') }).click();
    const json = page.getByRole('textbox', { name: en('formEditor.jsonLabel') });
    await expectVisible(json, 'the JSON editor');
    await expectVisible(json.getByText('"prayerRoom"').first(), 'the new field in the JSON patch');
    expect(await json.textContent()).toContain('"allOf"');
    await page.getByRole('tab', { name: en('formEditor.questions') }).click();

    // The impact: both submissions would be refused by the changed form.
    await page.getByRole('button', { name: en('formEditor.showImpact'), exact: true }).click();
    await expectVisible(page.getByText(en('formEditor.impact.submissions', { count: 2 }), { exact: true }), 'two submissions');
    await expectVisible(page.getByText(en('formEditor.impact.invalid', { count: 2 })), 'two submissions no longer valid');
    // The question reopened submissions ask for: the badge list the new question is part of.
    await expectVisible(page.getByText(en('formEditor.impact.changed', { question: en('forms.s04.badges') }), { exact: true }), 'the changed badge list');

    // Published, reopening them.
    await page.getByRole('radio', { name: en('formEditor.reopenSubmissions') }).check();
    await field(page, en('formEditor.comment')).fill('Prayer room question for AFHE2027');
    await page.getByRole('button', { name: en('formEditor.publish'), exact: true }).click();
    const published = page.getByRole('status').filter({ hasText: /^Published as version/ });
    await expectVisible(published, 'the publish confirmed');
    expect(await published.textContent()).toContain('Submissions reopened: 2');
    expect(await servedS04('demo')).toContain('prayerRoom');

    // The event's exhibitor, in Japanese: the new question in its badge, answered and submitted.
    await logout(page);
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}?lang=ja`);
    const question = field(page, TITLE.ja);
    await expectVisible(question, 'the new question in Japanese');
    await question.fill('はい');
    await page.getByRole('button', { name: text('ja', 'formRuntime.submit'), exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text('ja', 'formRuntime.confirm.submit'), exact: true })
      .click();
    await expectHidden(page.getByRole('dialog'), 'the confirmation closing');
    const entry = await portal.app.db
      .selectFrom('form_entries')
      .innerJoin('users', 'users.participation_id', 'form_entries.participation_id')
      .select(['form_entries.submitted_data'])
      .where('users.login', '=', 'demo')
      .where('form_entries.form_id', '=', 's04')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(entry.submitted_data)).toContain('はい');

    // An exhibitor of another event: S04 as before, even for a badge whose gender is "female".
    await logout(page);
    await loginAndLand(page, portal.url, 'borneo.halal', DEMO_PASSWORD);
    await page.goto(`${portal.url}${S04}`);
    await page.getByRole('button', { name: en('forms.s04.addBadge'), exact: true }).click();
    await page
      .getByRole('radio', { name: en('forms.s04.enum.gender.female'), exact: true })
      .first()
      .check();
    await expectVisible(field(page, en('forms.s04.email')).first(), 'the badge of the other event');
    expect(await field(page, TITLE.en).count()).toBe(0);
    expect(await servedS04('borneo.halal')).not.toContain('prayerRoom');

    // The organiser rolls back to the version before: the question is gone for the event.
    await logout(page);
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/forms/editor?event=${EVENT}&form=s04`);
    await page
      .getByRole('button', { name: /^Roll back to version \d+$/ })
      .first()
      .click();
    await page
      .getByRole('dialog', { name: /^Roll back to version \d+$/ })
      .getByRole('button', { name: en('formEditor.rollback'), exact: true })
      .click();
    await expectVisible(page.getByRole('status').filter({ hasText: /^Rolled back to version \d+\.$/ }), 'the rollback confirmed');
    expect(await servedS04('demo')).not.toContain('prayerRoom');
  });
});
