import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email';
import { validateForm } from './forms/validator';

// The one e-mail rule agrees with what a form field of format email accepts.

const SAMPLES = [
  'client@example.com',
  'first.last+tag@sub.example.co',
  'a..b@example.com',
  '.a@example.com',
  'a.@example.com',
  'client@example',
  'client@-example.com',
  'two@@example.com',
  'with space@example.com',
  'ｃlient@example.com',
  `${'a'.repeat(250)}@x.co`,
];

describe('one e-mail rule', () => {
  it('accepts ordinary addresses and refuses broken ones', () => {
    expect(isEmailAddress('client@example.com')).toBe(true);
    expect(isEmailAddress(' first.last+tag@sub.example.co ')).toBe(true);
    for (const broken of ['a..b@example.com', 'client@example', 'ｃlient@example.com', 'two@@example.com', `${'a'.repeat(250)}@x.co`])
      expect(isEmailAddress(broken), broken).toBe(false);
  });

  it('says what a form field of format email says about every sample', () => {
    const schema = { type: 'object', properties: { email: { type: 'string', format: 'email', noFullWidth: true, maxLength: 254 } } };
    for (const sample of SAMPLES) expect(isEmailAddress(sample), sample).toBe(validateForm(schema, { email: sample }, { flags: {}, quotas: {} }).length === 0);
  });
});
