import { hasFullWidth } from './forms/rules';

// One rule for an e-mail address everywhere the portal takes one (members, invitations, the
// organiser's exhibitors, a reset request): the `email` format of ajv-formats — what every form
// field of format email checks — with no full-width characters (spec V1) and at most 254 characters.

/** ajv-formats' `email` format ("fast" mode), the one the forms' validators run. */
const EMAIL_FORMAT = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export const EMAIL_MAX_LENGTH = 254;

/** Whether the text (surrounding spaces ignored) is an e-mail address the portal accepts. */
export function isEmailAddress(text: string): boolean {
  const value = text.trim();
  return value.length <= EMAIL_MAX_LENGTH && !hasFullWidth(value) && EMAIL_FORMAT.test(value);
}
