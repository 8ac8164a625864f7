import { describe, expect, it } from 'vitest';
import { fieldIdOf } from './field-ids';

describe('F9 fieldIdOf: the input a problem in the summary moves focus to', () => {
  it('nested objects, list items and bracketed names', () => {
    expect(fieldIdOf('.company.companyName')).toBe('root_company_companyName');
    expect(fieldIdOf('.badges.0.email')).toBe('root_badges_0_email');
    expect(fieldIdOf(".badges[1]['email']")).toBe('root_badges_1_email');
    expect(fieldIdOf('')).toBe('root');
  });
});
