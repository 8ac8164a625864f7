import type { ErrorId } from './errors';
import { isEmailAddress } from './email';
import { passwordLengthProblem } from './password-policy';

// The checks on a member (team user, contractor login) the exhibitor enters: one definition,
// run by the members page before sending and by the server on what it receives.

/** An account ID: 3–64 letters, digits, dot, underscore, hyphen or @, starting with a letter or digit. */
export const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$/;
/**
 * A member's login lives under its exhibitor's, `<exhibitor login>/<chosen ID>`. No other
 * login may hold a '/', so a chosen ID can only be taken inside the same exhibitor: trying names tells
 * an exhibitor nothing about anyone else's logins.
 */
export const MEMBER_LOGIN_SEPARATOR = '/';

/** The full login of a member an exhibitor names `chosen`; an ID typed with the exhibitor's own prefix keeps it once. */
export function memberLogin(exhibitorLogin: string, chosen: string): string {
  const prefix = `${exhibitorLogin}${MEMBER_LOGIN_SEPARATOR}`;
  const own = chosen.toLowerCase().startsWith(prefix.toLowerCase()) ? chosen.slice(prefix.length) : chosen;
  return `${prefix}${own}`;
}

/** The part of a member's login its exhibitor chose (the whole login for anyone else). */
export function chosenLoginPart(login: string): string {
  const at = login.indexOf(MEMBER_LOGIN_SEPARATOR);
  return at < 0 ? login : login.slice(at + 1);
}

export const LEAD_QUOTA_MAX = 1_000_000;

export function loginProblem(login: string): ErrorId | null {
  return LOGIN_PATTERN.test(login) ? null : 'memberLoginInvalid';
}

/** Spec §5: a valid address, no full-width characters (the portal's one rule, see email.ts). */
export function emailProblem(email: string): ErrorId | null {
  return isEmailAddress(email) ? null : 'emailInvalid';
}

/** An initial password is optional; when given it follows the portal's password policy. */
export function initialPasswordProblem(password: string | undefined): ErrorId | null {
  if (password === undefined || password === '') return null;
  return passwordLengthProblem(password);
}

export function leadQuotaProblem(quota: number | null | undefined): ErrorId | null {
  if (quota === null || quota === undefined) return null;
  return Number.isInteger(quota) && quota >= 0 && quota <= LEAD_QUOTA_MAX ? null : 'memberLeadQuotaInvalid';
}
