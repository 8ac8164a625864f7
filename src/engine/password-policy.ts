import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import type { ErrorId } from './errors';
import type { PasswordChange } from './schemas/password-change';

// H3 and S-rules: the password checks the account page and the server both apply.

/** Length counts characters (code points), so a 64-character password of any script is allowed. */
export function passwordLengthProblem(password: string): ErrorId | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'passwordTooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'passwordTooLong';
  return null;
}

/** Per-field problems of a password change; an empty object when it may be sent. */
export function passwordChangeProblems(change: PasswordChange): Partial<Record<keyof PasswordChange, ErrorId>> {
  const problems: Partial<Record<keyof PasswordChange, ErrorId>> = {};
  if (!change.oldPassword) problems.oldPassword = 'oldPasswordRequired';
  const lengthProblem = passwordLengthProblem(change.newPassword ?? '');
  if (lengthProblem) problems.newPassword = lengthProblem;
  else if (change.oldPassword && change.newPassword === change.oldPassword) problems.newPassword = 'passwordSameAsOld';
  if ((change.confirmPassword ?? '') !== (change.newPassword ?? '')) problems.confirmPassword = 'passwordMismatch';
  return problems;
}
