import type { ErrorId } from './errors';
import { hasFullWidth } from './forms/rules';
import { passwordLengthProblem } from './password-policy';

// The checks on a member (team user, contractor login) the exhibitor enters: one definition,
// run by the members page before sending and by the server on what it receives.

/** An account ID: 3–64 letters, digits, dot, underscore, hyphen or @, starting with a letter or digit. */
export const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const LEAD_QUOTA_MAX = 1_000_000;

export function loginProblem(login: string): ErrorId | null {
  return LOGIN_PATTERN.test(login) ? null : 'memberLoginInvalid';
}

/** Spec §5: a valid address, no full-width characters. */
export function emailProblem(email: string): ErrorId | null {
  return EMAIL_PATTERN.test(email) && !hasFullWidth(email) && email.length <= 254 ? null : 'emailInvalid';
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
