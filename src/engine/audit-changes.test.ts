import { describe, expect, it } from 'vitest';
import { fieldChanges } from './audit-changes';

describe('fieldChanges', () => {
  it('keeps only the fields that changed, with their values before and after', () => {
    const before = { name: 'Minh Phú', contactName: 'Siti Aminah', flags: { eventShow: true, s04SubmitOnceOnly: false }, modules: ['Forms'] };
    const after = { name: 'Minh Phú', contactName: 'Trần Văn Bình', flags: { eventShow: true, s04SubmitOnceOnly: true }, modules: ['Forms'] };
    expect(fieldChanges(before, after)).toEqual({
      before: { contactName: 'Siti Aminah', 'flags.s04SubmitOnceOnly': false },
      after: { contactName: 'Trần Văn Bình', 'flags.s04SubmitOnceOnly': true },
    });
  });

  it('compares lists item by item; an added or removed field is null on the other side', () => {
    const before = { badges: [{ firstName: 'Aisyah', email: 'a@x.example' }] };
    const after = { badges: [{ firstName: 'Nur', email: 'a@x.example' }, { firstName: 'Lim' }], note: 'new' };
    expect(fieldChanges(before, after)).toEqual({
      before: { 'badges.0.firstName': 'Aisyah', 'badges.1': null, note: null },
      after: { 'badges.0.firstName': 'Nur', 'badges.1': { firstName: 'Lim' }, note: 'new' },
    });
  });

  it('nothing changed, nothing recorded; a first value is all "after"', () => {
    expect(fieldChanges({ a: [1, 2] }, { a: [1, 2] })).toEqual({ before: {}, after: {} });
    expect(fieldChanges({ modules: ['Forms', 'Support'] }, { modules: ['Forms'] })).toEqual({ before: { modules: ['Forms', 'Support'] }, after: { modules: ['Forms'] } });
    expect(fieldChanges(null, { a: 1 })).toEqual({ before: { '.': null }, after: { '.': { a: 1 } } });
  });
});
