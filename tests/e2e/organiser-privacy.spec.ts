import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { formatEventDay } from '../../src/engine/locale-format';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// Visitors' data kept no longer than the organiser says, as the organiser meets it on
// /organiser/privacy: the retention period (a wrong value is
// explained beside the field, a right one shows the erasure day), and one visitor's request —
// exported as a file, then erased at every exhibitor only once the organiser confirms.

const portal = usePortal();
const session = useBrowser();
const DAY_MS = 24 * 60 * 60_000;

describe("organiser: visitors' privacy", () => {
  test('sets the retention period, exports one visitor and erases it only after confirming', async () => {
    const db = portal.app.db;
    const { page } = session;
    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/privacy`);
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.organiserPrivacy') }), 'the privacy page');

    const days = field(page, en('privacy.retention.days'));
    await days.fill('ten');
    await page.getByRole('button', { name: en('privacy.save'), exact: true }).click();
    await expectVisible(page.getByText(en('privacy.retention.invalid')), 'the wrong number explained');

    await days.fill('30');
    await page.getByRole('button', { name: en('privacy.save'), exact: true }).click();
    const event = await db.selectFrom('events').select(['id', 'ends_at']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    // Written as English writes a day (L1: dates in the user's language).
    const eraseDay = formatEventDay(new Date(new Date(event.ends_at).getTime() + 30 * DAY_MS).toISOString().slice(0, 10), 'en');
    await expectVisible(page.getByText(en('privacy.retention.eraseAt', { date: eraseDay })), 'the day the leads will be erased');
    expect((await db.selectFrom('events').select('lead_retention_days').where('id', '=', event.id).executeTakeFirstOrThrow()).lead_retention_days).toBe(30);

    // A visitor scanned by demo: how many leads hold its badge across every exhibitor.
    const { badge_code: badgeCode } = await db.selectFrom('leads').select('badge_code').orderBy('id').executeTakeFirstOrThrow();
    const held = async () => (await db.selectFrom('leads').select('id').where('badge_code', '=', badgeCode).execute()).length;
    const before = await held();
    expect(before).toBeGreaterThan(0);

    await field(page, en('privacy.visitor.badgeCode')).fill(badgeCode);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: en('privacy.visitor.export') }).click();
    const exported = JSON.parse(readFileSync(await (await downloading).path(), 'utf8')) as { leads: Array<{ badgeCode: string }> };
    expect(exported.leads).toHaveLength(before);
    expect(exported.leads.every((lead) => lead.badgeCode === badgeCode)).toBe(true);
    await expectVisible(page.getByRole('status').filter({ hasText: en('privacy.visitor.exported', { count: before }) }), 'the export confirmed');

    // Dismissing the question erases nothing.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: en('privacy.visitor.erase') }).click();
    await expectVisible(page.getByRole('button', { name: en('privacy.visitor.erase') }), 'the page still there');
    expect(await held()).toBe(before);

    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: en('privacy.visitor.erase') }).click();
    await expectVisible(
      page.getByRole('status').filter({ hasText: en('privacy.visitor.erased', { leads: before, businessCards: 0, exports: 0 }).split(',')[0]! }),
      'the erasure counted',
    );
    expect(question).toBe(en('privacy.visitor.confirm'));
    expect(await held()).toBe(0);
    const audit = await db.selectFrom('audit_log').select(['action', 'after']).where('action', 'like', 'privacy.%').execute();
    expect(audit.some((row) => JSON.stringify(row.after).includes(badgeCode))).toBe(false);
  });
});
