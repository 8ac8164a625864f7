import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('hides secret query values and keeps the rest', () => {
    expect(redactUrl('/oga/auth/password/reset?token=abc123&lang=en')).toBe('/oga/auth/password/reset?token=[redacted]&lang=en');
    expect(redactUrl('/?lang=ja&TOKEN=x')).toBe('/?lang=ja&TOKEN=[redacted]');
    expect(redactUrl('/?%74oken=x')).toBe('/?%74oken=[redacted]');
    expect(redactUrl('/oga/leads?page=2')).toBe('/oga/leads?page=2');
  });
});
