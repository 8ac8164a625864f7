import type { Page } from 'playwright-core';
import { en } from './locales';
import { demoParticipationId, type Portal } from './portal';

/** The form page's own submit button (not the dialog's). */
export const submitButton = (page: Page) => page.getByRole('button', { name: en('formRuntime.submit'), exact: true });

/** F9: the confirmation asked before a valid form is submitted. */
export const confirmSubmit = (page: Page) =>
  page
    .getByRole('dialog')
    .getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true })
    .click();

/** Every form entry of the demo exhibitor removed (each test starts from empty forms). */
export async function clearDemoEntries(portal: Portal): Promise<void> {
  await portal.app.db
    .deleteFrom('form_entries')
    .where('participation_id', '=', await demoParticipationId(portal))
    .execute();
}
