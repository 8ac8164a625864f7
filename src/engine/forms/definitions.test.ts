import { describe, expect, it } from 'vitest';
import { feeTotal, formStatus, hasUnsubmittedChanges, helpParams, needsApproval } from './definitions';

describe('O1 needsApproval', () => {
  it('O1 always: every submission waits', () => {
    expect(needsApproval({ when: 'always' }, {})).toBe(true);
  });
  it('F5 O1 anyItemFlag: only when an item carries the flag', () => {
    const rule = { when: 'anyItemFlag', list: 'badges', flag: 'extra' } as const;
    expect(needsApproval(rule, { badges: [{ extra: false }, {}] })).toBe(false);
    expect(needsApproval(rule, { badges: [{}, { extra: true }] })).toBe(true);
    expect(needsApproval(rule, {})).toBe(false);
  });
  it('F4 O1 above: strictly above the limit (2.44 m itself needs no approval)', () => {
    const rule = { when: 'above', field: 'boothHeight', limit: 2.44 } as const;
    expect(needsApproval(rule, { boothHeight: 2.44 })).toBe(false);
    expect(needsApproval(rule, { boothHeight: 2.45 })).toBe(true);
    expect(needsApproval(rule, {})).toBe(false);
  });
  it('no rule: never', () => {
    expect(needsApproval(undefined, { anything: true })).toBe(false);
  });
});

describe('F1 formStatus', () => {
  const now = new Date('2027-01-10T00:00:00Z');
  const future = new Date('2027-02-01T00:00:00Z');
  const past = new Date('2026-12-01T00:00:00Z');
  it('F1 not started, draft, closed by deadline', () => {
    expect(formStatus(null, future, now)).toBe('notStarted');
    expect(formStatus({ status: 'draft' }, future, now)).toBe('draft');
    expect(formStatus(null, past, now)).toBe('closed');
    expect(formStatus({ status: 'draft' }, past, now)).toBe('closed');
  });
  it('F1 O1 submitted, pending approval, approved, rejected (a decision outlives the deadline)', () => {
    expect(formStatus({ status: 'submitted' }, past, now)).toBe('submitted');
    expect(formStatus({ status: 'submitted', approval_status: 'pending' }, future, now)).toBe('pendingApproval');
    expect(formStatus({ status: 'submitted', approval_status: 'approved' }, past, now)).toBe('approved');
    expect(formStatus({ status: 'submitted', approval_status: 'rejected' }, future, now)).toBe('rejected');
  });
});

describe('F5 feeTotal', () => {
  const fee = { list: 'badges', flag: 'extra', price: '10.00', currency: 'MYR' };
  it('F5 counts the flagged items and adds their fee without float drift', () => {
    expect(feeTotal(fee, { badges: [{ extra: true }, {}, { extra: true }, { extra: false }] })).toEqual({ count: 2, total: '20.00' });
    expect(feeTotal({ ...fee, price: '0.10' }, { badges: [{ extra: true }, { extra: true }, { extra: true }] })).toEqual({ count: 3, total: '0.30' });
    expect(feeTotal(fee, {})).toEqual({ count: 0, total: '0.00' });
  });
});

describe('F9 hasUnsubmittedChanges', () => {
  it('F9 only a submitted form whose working copy differs from its submission (key order aside)', () => {
    expect(hasUnsubmittedChanges(null)).toBe(false);
    expect(hasUnsubmittedChanges({ status: 'draft', data: { a: 1 }, submitted_data: null })).toBe(false);
    expect(hasUnsubmittedChanges({ status: 'submitted', data: { a: 1, b: [1, { c: 2, d: 3 }] }, submitted_data: { b: [1, { d: 3, c: 2 }], a: 1 } })).toBe(false);
    expect(hasUnsubmittedChanges({ status: 'submitted', data: { a: 2 }, submitted_data: { a: 1 } })).toBe(true);
  });
});

describe("F5 O1 helpParams: what help texts mention comes from the form's declarations", () => {
  it('takes the fee of a flagged item and the limit of an `above` rule', () => {
    expect(helpParams({ fee: { list: 'items', flag: 'extra', price: '7.50', currency: 'SGD' } })).toEqual({ price: '7.50', currency: 'SGD' });
    expect(helpParams({ approval: { when: 'above', field: 'height', limit: 3.1 } })).toEqual({ limit: 3.1 });
    expect(helpParams({ approval: { when: 'always' } })).toEqual({});
    expect(helpParams({})).toEqual({});
  });
});
