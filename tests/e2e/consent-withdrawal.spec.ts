import { describe, expect, test } from 'vitest';
import { expectHidden, expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { addCode, deviceReady, openScanner, scanItem } from './support/scanner';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';

// LD2 as the organiser and the exhibitor meet it: the organiser withdraws, on its privacy page,
// the consent of a visitor the exhibitor already holds as a lead and of one it has not scanned
// yet; the exhibitor's lead detail says the consent was withdrawn and shows none of the visitor's
// details, and scanning the other visitor's badge at the booth afterwards brings none either.

const portal = usePortal();
const session = useBrowser();

describe("organiser: a visitor's consent withdrawn", () => {
  test('LD2: withdrawn on the privacy page; the exhibitor sees the withdrawal on the lead it had and on a badge it scans afterwards, without the visitor’s details', async () => {
    const db = portal.app.db;
    const participationId = await demoParticipationId(portal);
    const { event_id: eventId } = await db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
    const held = await db
      .selectFrom('leads')
      .select(['id', 'badge_code', 'visitor_name', 'email'])
      .where('participation_id', '=', participationId)
      .where('email', '!=', '')
      .where('visitor_name', '!=', '')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const unscanned = await db
      .selectFrom('visitors')
      .select(['badge_code', 'name', 'email', 'company'])
      .where('event_id', '=', eventId)
      .where('email', '!=', '')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code'))))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const heldLeads = (await db.selectFrom('leads').select('id').where('badge_code', '=', held.badge_code).execute()).length;

    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/privacy`);
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.organiserPrivacy') }), 'the privacy page');
    const withdraw = page.getByRole('button', { name: en('privacy.consent.withdraw') });

    // Dismissing the question withdraws nothing.
    await field(page, en('privacy.visitor.badgeCode')).fill(held.badge_code);
    page.once('dialog', (dialog) => void dialog.dismiss());
    await withdraw.click();
    await expectVisible(withdraw, 'the page still there');
    expect((await db.selectFrom('leads').select('consent_withdrawn_at').where('id', '=', held.id).executeTakeFirstOrThrow()).consent_withdrawn_at).toBeNull();

    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await withdraw.click();
    await expectVisible(page.getByRole('status').filter({ hasText: en('privacy.consent.withdrawn', { leads: heldLeads }) }), 'the withdrawn leads counted');
    expect(question).toBe(en('privacy.consent.withdrawConfirm'));

    // The visitor not scanned yet, by e-mail.
    await field(page, en('privacy.visitor.badgeCode')).fill('');
    await field(page, en('privacy.visitor.email')).fill(unscanned.email);
    page.once('dialog', (dialog) => void dialog.accept());
    await withdraw.click();
    await expectVisible(page.getByRole('status').filter({ hasText: en('privacy.consent.withdrawn', { leads: 0 }) }), 'no lead held yet');

    await page.context().clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/lead/lead-detail?id=${held.id}`);
    const visitor = page.getByRole('group', { name: en('leads.detail.visitor') });
    await expectVisible(page.getByRole('alert').filter({ hasText: en('leads.consent.state.withdrawn') }), 'the withdrawal on the lead it had');
    await expectVisible(visitor.getByText(held.badge_code, { exact: true }), 'the badge code kept');
    await expectHidden(page.getByText(held.email, { exact: true }), "no visitor's e-mail");
    await expectHidden(visitor.getByText(held.visitor_name, { exact: true }), "no visitor's name");

    // At the booth the withdrawn visitor's badge is scanned: a lead, with none of the visitor's details.
    await openScanner(page, portal.url);
    await deviceReady(page);
    await addCode(page, unscanned.badge_code);
    await expectVisible(scanItem(page, unscanned.badge_code).getByText(en('leads.scanner.state.sent'), { exact: true }), 'the scan sent');
    await expectHidden(scanItem(page, unscanned.badge_code).getByText(unscanned.name, { exact: false }), "no visitor's name in Recent scans");
    const made = await db.selectFrom('leads').select('id').where('participation_id', '=', participationId).where('badge_code', '=', unscanned.badge_code).executeTakeFirstOrThrow();
    await page.goto(`${portal.url}/lead/lead-detail?id=${made.id}`);
    await expectVisible(page.getByRole('alert').filter({ hasText: en('leads.consent.state.withdrawn') }), 'the withdrawal on the new lead');
    await expectVisible(page.getByRole('group', { name: en('leads.detail.visitor') }).getByText(unscanned.badge_code, { exact: true }), 'the badge code');
    await expectHidden(page.getByText(unscanned.email, { exact: true }), "no visitor's e-mail");
    await expectHidden(page.getByText(unscanned.company, { exact: true }), "no visitor's company");
  });
});
