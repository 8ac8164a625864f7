import { describe, expect, it } from 'vitest';
import { leadConsent } from './lead-consent';

describe('leadConsent', () => {
  it('is given while no withdrawal is recorded, withdrawn with its time after', () => {
    expect(leadConsent('manualEntry', null)).toEqual({ state: 'given', withdrawnAt: null, source: 'manualEntry' });
    expect(leadConsent('businessCard', '2027-03-18T09:00:00Z')).toEqual({ state: 'withdrawn', withdrawnAt: '2027-03-18T09:00:00.000Z', source: 'businessCard' });
  });

  it('reads an unknown source as a badge scan', () => {
    expect(leadConsent('fax', null).source).toBe('badgeScan');
  });
});
