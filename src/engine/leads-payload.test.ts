import { describe, expect, it } from 'vitest';
import { leadPayload, type LeadRecord } from './leads-payload';

const lead: LeadRecord = {
  id: 7,
  badge_code: 'B-1',
  badge_known: true,
  visitor_name: 'Wei Ming Tan',
  salutation: 'Mr',
  company: 'Golden Harvest',
  business_nature: 'Importer',
  job_title: 'Buyer',
  country: 'MY',
  mobile: '+60 12',
  email: 'wei@example.com',
  phone: '+60 3',
  address: 'Kuala Lumpur',
  notes: 'Call back',
  lead_type: 'buyer',
  temperature: 'warm',
  follow_up: 'call',
  tag_answers: { 1: ['a'] },
  interested_products: ['Tea'],
  scanned_by: 3,
  scanned_at: new Date('2026-11-01T10:00:00Z'),
  updated_at: null,
  scan_count: 2,
};

describe('leadPayload (LD)', () => {
  it('carries the lead with ISO times', () => {
    expect(leadPayload(lead)).toMatchObject({ id: 7, visitorName: 'Wei Ming Tan', scannedAt: '2026-11-01T10:00:00.000Z', updatedAt: null, tagAnswers: { 1: ['a'] } });
  });

  it("empties the visitor fields the organiser withholds and adds the exhibitor's CRM columns", () => {
    const payload = leadPayload(lead, {
      hiddenVisitorFields: ['phone', 'mobile'],
      crmColumns: [
        { field: 'firstName', header: 'First Name' },
        { field: 'lastName', header: 'Last Name' },
        { field: 'phone', header: 'Phone' },
        { field: 'email', header: 'Email' },
      ],
    });
    expect(payload).toMatchObject({ phone: '', mobile: '', visitorName: 'Wei Ming Tan' });
    expect(payload.crm).toEqual({ 'First Name': 'Wei Ming', 'Last Name': 'Tan', Phone: '', Email: 'wei@example.com' });
  });

  it('carries no crm record without a mapping', () => {
    expect(leadPayload(lead, { hiddenVisitorFields: ['email'] })).not.toHaveProperty('crm');
  });
});
