import { describe, expect, it } from 'vitest';
import { emailProblem, initialPasswordProblem, leadQuotaProblem, loginProblem } from './members';

describe('member checks (LD5, P1)', () => {
  it('accepts an account ID of letters, digits and . _ @ - and refuses spaces, short or odd ones', () => {
    expect(loginProblem('scanner.2')).toBeNull();
    expect(loginProblem('ab')).toBe('memberLoginInvalid');
    expect(loginProblem('has space')).toBe('memberLoginInvalid');
    expect(loginProblem('-leading')).toBe('memberLoginInvalid');
  });
  it('refuses an e-mail with full-width characters (spec §5)', () => {
    expect(emailProblem('lee@borneo.example')).toBeNull();
    expect(emailProblem('ｌｅｅ@borneo.example')).toBe('emailInvalid');
    expect(emailProblem('not-an-email')).toBe('emailInvalid');
  });
  it('lets the initial password be empty, else applies the password policy', () => {
    expect(initialPasswordProblem('')).toBeNull();
    expect(initialPasswordProblem('short')).toBe('passwordTooShort');
  });
  it('takes no lead quota as no limit and refuses negative or fractional quotas', () => {
    expect(leadQuotaProblem(null)).toBeNull();
    expect(leadQuotaProblem(500)).toBeNull();
    expect(leadQuotaProblem(-1)).toBe('memberLeadQuotaInvalid');
    expect(leadQuotaProblem(1.5)).toBe('memberLeadQuotaInvalid');
  });
});
