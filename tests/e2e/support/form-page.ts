import type { Page } from 'playwright-core';
import { en } from './locales';

/** The form page's own submit button (not the dialog's). */
export const submitButton = (page: Page) => page.getByRole('button', { name: en('formRuntime.submit'), exact: true });

/** F9: the confirmation asked before a valid form is submitted. */
export const confirmSubmit = (page: Page) =>
  page
    .getByRole('dialog')
    .getByRole('button', { name: en('formRuntime.confirm.submit'), exact: true })
    .click();
