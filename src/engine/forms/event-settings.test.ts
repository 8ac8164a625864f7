import { describe, expect, it } from 'vitest';
import { eventSettingNames, eventSettingProblem, eventSettingProblems, withEventSettings } from './event-settings';

// O2 F5 O1: a form's fee and approval limit as the event sets them, forms.yaml's where it sets none.

const s04 = { id: 'badgesForm', fee: { list: 'badges', flag: 'extra', price: '10.00', currency: 'MYR', setting: 'extraBadgeFee' } };
const s03 = { id: 'boothForm', approval: { when: 'above' as const, field: 'height', limit: 2.44, setting: 'heightLimit' } };
const plain = { id: 'plainForm', approval: { when: 'always' as const } };

describe('event settings of forms', () => {
  it('lists the names forms.yaml gives, with defaults, kinds and the forms using them', () => {
    expect(eventSettingNames([s04, s03, plain, { ...s04, id: 'other' }])).toEqual([
      { name: 'extraBadgeFee', kind: 'money', default: '10.00', currency: 'MYR', forms: ['badgesForm', 'other'] },
      { name: 'heightLimit', kind: 'number', default: '2.44', forms: ['boothForm'] },
    ]);
  });

  it('refuses one name used as a price and as a limit', () => {
    expect(eventSettingProblems([s04, { ...s03, approval: { ...s03.approval, setting: 'extraBadgeFee' } }])).toEqual([
      'setting "extraBadgeFee" is a price elsewhere and a limit here',
    ]);
    expect(eventSettingProblems([s04, s03])).toEqual([]);
  });

  it('applies the event’s price (in its currency) and limit, and keeps forms.yaml’s where the event set none', () => {
    expect(withEventSettings(s04, { values: { extraBadgeFee: '12.5' }, currency: 'SGD' }).fee).toEqual({ ...s04.fee, price: '12.50', currency: 'SGD' });
    expect(withEventSettings(s03, { values: { heightLimit: '3' }, currency: 'SGD' }).approval).toEqual({ ...s03.approval, limit: 3 });
    expect(withEventSettings(s04, { values: { heightLimit: '3' }, currency: 'SGD' })).toBe(s04);
    expect(withEventSettings(plain, { values: { heightLimit: '3', toString: '1' }, currency: 'SGD' })).toBe(plain);
  });

  it('takes prices with at most two decimals from 0, and limits above 0', () => {
    expect(['0', '10', '12.5', '12.50'].map((value) => eventSettingProblem('money', value))).toEqual([null, null, null, null]);
    expect(['-1', '12.505', 'ten', '', '1e3'].map((value) => eventSettingProblem('money', value))).toEqual(Array(5).fill('organiser.validation.fee'));
    expect(['2.44', '3'].map((value) => eventSettingProblem('number', value))).toEqual([null, null]);
    expect(['0', '0.000', '-2', 'x'].map((value) => eventSettingProblem('number', value))).toEqual(Array(4).fill('organiser.validation.settingNumber'));
  });
});
