import { beforeEach, describe, test } from 'vitest';
import { expectVisible, field, loginAndLand, useBrowser, waitForPath } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, demoParticipationId, usePortal } from './support/portal';
import { clearDemoEntries, submitButton } from './support/form-page';

// O2 F5: the extra-badge fee is the event's setting. The organiser changes it
// in the console; the exhibitor's S04 shows the new total before submitting, in the event's
// currency, without any change to the forms.

const portal = usePortal();
const session = useBrowser();

const S04 = '/myParticipation/exhibitorBadges';

const demoParticipation = () => demoParticipationId(portal);

beforeEach(() => clearDemoEntries(portal));

describe('forms as data: event settings', () => {
  test("O2 F5: the organiser sets the extra-badge fee; the exhibitor's S04 confirmation totals it", async () => {
    const { page } = session;
    // Six badges, two of them extra (beyond the demo's quota of five).
    const badges = ['Aisyah', 'Wei Ling', 'Ravi', 'Siti', 'Daniel', 'Mei'].map((first, index) => ({
      firstName: first,
      lastName: 'Tan',
      email: `badge${index}@borneo-botanica.example`,
      extra: index >= 4,
    }));
    await portal.app.db
      .insertInto('form_entries')
      .values({ participation_id: await demoParticipation(), form_id: 's04', data: JSON.stringify({ badges }), status: 'draft' })
      .execute();
    const event = await portal.app.db.selectFrom('events').select(['id', 'currency']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();

    await loginAndLand(page, portal.url, 'organiser', DEMO_PASSWORD, '/organiser');
    await page.goto(`${portal.url}/organiser/events/edit?id=${event.id}`);
    const fee = field(page, `${en('organiser.names.extraBadgeFee')} (${event.currency})`);
    await expectVisible(fee, 'the extra badge fee of the event');
    await expectVisible(page.getByText(en('organiser.event.settingDefault', { value: `10.00 ${event.currency}` }), { exact: true }), "forms.yaml's default beside it");
    await fee.fill('12.50');
    await page.getByRole('button', { name: en('organiser.event.save') }).click();
    await waitForPath(page, '/organiser/events');

    const exhibitor = await (await session.newContext()).newPage();
    await loginAndLand(exhibitor, portal.url, 'demo', DEMO_PASSWORD);
    await exhibitor.goto(`${portal.url}${S04}`);
    await expectVisible(submitButton(exhibitor), 'the S04 form');
    const total = en('formRuntime.quota.fee', { flag: en('forms.s04.extra'), count: 2, total: `${event.currency}25.00` });
    await expectVisible(exhibitor.getByText(total, { exact: true }), 'the fee of the two extra badges at the new price, under the list');
    await submitButton(exhibitor).click();
    const dialog = exhibitor.getByRole('dialog', { name: en('formRuntime.confirm.title', { form: en('forms.s04.title') }) });
    await expectVisible(dialog.getByText(total, { exact: true }), 'the new fee total in the confirmation');
  });
});
