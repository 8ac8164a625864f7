import { describe, expect, it } from 'vitest';
import { passwordChangeProblems, passwordLengthProblem } from './password-policy';

describe('H3 passwordLengthProblem', () => {
  it('H3 refuses fewer than 8 characters', () => {
    expect(passwordLengthProblem('')).toBe('passwordTooShort');
    expect(passwordLengthProblem('1234567')).toBe('passwordTooShort');
  });

  it('H3 accepts 8 to 64 characters', () => {
    expect(passwordLengthProblem('12345678')).toBeNull();
    expect(passwordLengthProblem('x'.repeat(64))).toBeNull();
  });

  it('H3 refuses more than 64 characters', () => {
    expect(passwordLengthProblem('x'.repeat(65))).toBe('passwordTooLong');
  });

  it('H3 counts characters (code points), not UTF-16 units', () => {
    // Each emoji is two UTF-16 units but one character.
    expect(passwordLengthProblem('😀'.repeat(4))).toBe('passwordTooShort');
    expect(passwordLengthProblem('😀'.repeat(8))).toBeNull();
    expect(passwordLengthProblem('😀'.repeat(64))).toBeNull();
    expect(passwordLengthProblem('😀'.repeat(65))).toBe('passwordTooLong');
    expect(passwordLengthProblem('密码密码密码密码')).toBeNull();
  });
});

describe('H3 passwordChangeProblems', () => {
  it('H3 has no problem for a valid change', () => {
    expect(passwordChangeProblems({ oldPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secret' })).toEqual({});
  });

  it('H3 requires the old password', () => {
    expect(passwordChangeProblems({ newPassword: 'new-secret', confirmPassword: 'new-secret' })).toEqual({
      oldPassword: 'oldPasswordRequired',
    });
    expect(passwordChangeProblems({ oldPassword: '', newPassword: 'new-secret', confirmPassword: 'new-secret' })).toEqual({
      oldPassword: 'oldPasswordRequired',
    });
  });

  it('H3 reports new and confirm that do not match (the two password inputs are inconsistent)', () => {
    expect(passwordChangeProblems({ oldPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secreT' })).toEqual({
      confirmPassword: 'passwordMismatch',
    });
    expect(passwordChangeProblems({ oldPassword: 'old-secret', newPassword: 'new-secret' })).toEqual({
      confirmPassword: 'passwordMismatch',
    });
  });

  it('H3 reports a new password that is too short or too long', () => {
    expect(passwordChangeProblems({ oldPassword: 'old-secret', newPassword: 'short', confirmPassword: 'short' })).toEqual({
      newPassword: 'passwordTooShort',
    });
    const long = 'y'.repeat(65);
    expect(passwordChangeProblems({ oldPassword: 'old-secret', newPassword: long, confirmPassword: long })).toEqual({
      newPassword: 'passwordTooLong',
    });
  });

  it('H3 reports a new password equal to the old one', () => {
    expect(passwordChangeProblems({ oldPassword: 'same-secret', newPassword: 'same-secret', confirmPassword: 'same-secret' })).toEqual({
      newPassword: 'passwordSameAsOld',
    });
  });

  it('H3 reports every problem of an empty form at once', () => {
    expect(passwordChangeProblems({})).toEqual({ oldPassword: 'oldPasswordRequired', newPassword: 'passwordTooShort' });
    expect(passwordChangeProblems({ confirmPassword: 'something' })).toEqual({
      oldPassword: 'oldPasswordRequired',
      newPassword: 'passwordTooShort',
      confirmPassword: 'passwordMismatch',
    });
  });
});
