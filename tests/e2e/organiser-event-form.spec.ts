import { describe, expect, test } from 'vitest';
import { expectVisible, field, loginAs, useBrowser, waitForPath } from './support/browser';
import { text, translated } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';

// O2: the event's edit page is rendered by the form runtime from the event schema, and the
// browser validates with that schema: a value the schema refuses is said beside its field in the
// organiser's language, with the message exhibitors' forms give, and nothing is sent.

const portal = usePortal();
const session = useBrowser();

const ja = (key: string, params: Record<string, string | number> = {}) => translated('ja', key, params);

describe('the console edits entities through the form runtime', () => {
  test('O2: a venue longer than the event schema allows is refused beside the field, in Japanese, before anything is sent', async () => {
    const { page } = session;
    const event = await portal.app.db.selectFrom('events').select(['id', 'venue']).where('code', '=', 'AFHE2027').executeTakeFirstOrThrow();
    await page.goto(`${portal.url}/login?lang=ja`);
    await loginAs(page, portal.url, 'organiser', DEMO_PASSWORD, { account: text('ja', 'auth.account'), password: text('ja', 'auth.password'), submit: text('ja', 'auth.login') });
    await waitForPath(page, '/organiser');
    await page.goto(`${portal.url}/organiser/events/edit?id=${event.id}`);
    const general = page.getByRole('region', { name: ja('organiser.event.general') });
    const venue = field(general, ja('organiser.event.venue'));
    await expectVisible(venue, 'the venue field, labelled in Japanese');
    await venue.fill('x'.repeat(301));
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/organiser/events/')) saves.push(request.url());
    });
    await page.getByRole('button', { name: ja('organiser.event.save') }).click();
    await expectVisible(general.getByText(ja('validation.maxLength', { limit: 300 })), "the schema's length message beside the venue, in Japanese");
    expect(saves).toEqual([]);
    const stored = await portal.app.db.selectFrom('events').select('venue').where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(stored.venue).toBe(event.venue);
  });
});
