import sharp from 'sharp';
import { beforeAll, describe, test } from 'vitest';
import { expectVisible, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { addCode, deviceReady, openScanner, SYNC_TIMEOUT_MS, scanItem, waitFor } from './support/scanner';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';

// LD1 at the booth: a photo of the visitor's badge or business card taken on the scanner is kept
// with its scan on the phone, then uploaded with the upload rules and shown on the lead as its
// business card; a file that is no image is refused with the reason and stays until removed.

const portal = usePortal();
const session = useBrowser({ viewport: { width: 390, height: 844 } });

let participationId: number;
let badges: string[] = [];

beforeAll(async () => {
  participationId = await demoParticipationId(portal);
  const { event_id } = await portal.app.db.selectFrom('participations').select('event_id').where('id', '=', participationId).executeTakeFirstOrThrow();
  const rows = await portal.app.db
    .selectFrom('visitors')
    .select('badge_code')
    .where('event_id', '=', event_id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('leads').select('leads.id').whereRef('leads.badge_code', '=', 'visitors.badge_code').where('leads.participation_id', '=', participationId))),
    )
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
  badges = rows.map((row) => row.badge_code);
});

describe('scanner photo', () => {
  test("LD1: a photo taken on a recent scan becomes the lead's business card; a file that is no image is refused and can be removed", async () => {
    const { page } = session;
    const [badge, other] = badges;
    const jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await openScanner(page, portal.url);
    await deviceReady(page);
    await addCode(page, badge!);
    await scanItem(page, badge!).locator('input[type=file]').setInputFiles({ name: 'badge-card.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await expectVisible(scanItem(page, badge!).getByText(en('leads.scanner.photoAttached'), { exact: false }), 'the photo attached');
    await waitFor('the business card on the lead', async () => {
      const lead = await portal.app.db
        .selectFrom('leads')
        .select('business_card')
        .where('participation_id', '=', participationId)
        .where('badge_code', '=', badge!)
        .executeTakeFirst();
      return Boolean(lead?.business_card);
    });
    await scanItem(page, badge!).getByRole('link', { name: badge! }).click();
    await waitForPath(page, '/lead/lead-detail');
    await expectVisible(page.getByText('badge-card.jpg').first(), 'the business card on the lead detail');

    await openScanner(page, portal.url);
    await addCode(page, other!);
    // The photo is taken on a scan the server has answered (the item's actions are redrawn then).
    await expectVisible(scanItem(page, other!).getByText(en('leads.scanner.state.sent'), { exact: true }), 'the second scan sent', SYNC_TIMEOUT_MS);
    await scanItem(page, other!)
      .locator('input[type=file]')
      .setInputFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo at all') });
    const refused = scanItem(page, other!).getByText(en('leads.scanner.photoRefused', { reason: '' }), { exact: false });
    await expectVisible(refused, 'the refused photo with its reason');
    await scanItem(page, other!)
      .getByRole('button', { name: en('leads.scanner.photoRemove', { code: other! }) })
      .click();
    await waitFor('the refused photo removed', async () => (await refused.count()) === 0);
  });
});
