import { describe, expect, it } from 'vitest';
import { approvalSummary } from './approval-summary';
import type { FormDefinition } from './definitions';
import { formReferences, optionalNameProblems, patchPointOf, referenceProblems, referenceResolves, resolveField, showroomReferences } from './field-references';
import { mergePatch } from './merge-patch';

// F11: the fields forms.yaml names, resolved against a base form and against an
// event's patched form, each problem at its file and JSON pointer.

const badgeForm = {
  type: 'object',
  properties: {
    badges: {
      type: 'array',
      items: {
        type: 'object',
        properties: { firstName: { type: 'string' }, lastName: { type: 'string' }, email: { type: 'string' }, extra: { type: 'boolean' } },
        if: { properties: { extra: { const: true } } },
        then: { properties: { reason: { type: 'string' } } },
      },
    },
    boothHeight: { type: 'number' },
    note: { type: 'string' },
  },
};

const base: FormDefinition = {
  id: 'badgeForm',
  code: 'B1',
  title: 'forms.badgeForm.title',
  screen: null,
  mandatory: false,
  deadline: 'badges',
  audience: 'exhibitor',
  approval: { when: 'anyItemFlag', list: 'badges', flag: 'extra' },
  approvalSummary: [{ field: 'badges', show: ['firstName', 'lastName', 'reason'], optional: ['lastName'] }, { field: 'boothHeight' }],
  fee: { list: 'badges', flag: 'extra', price: '10.00', currency: 'MYR' },
  provides: { leadInterests: { list: 'badges', label: 'email' } },
  documents: [{ id: 'card', each: 'badges', name: 'firstName', summary: ['email'], fileName: 'card', text: 'card', particulars: ['lastName', 'email'], optional: ['lastName'] }],
};
const LIST = 'forms/forms.yaml';
const PATCH = 'events/EVT/badgeForm.patch.json';

describe('F11 field references of forms.yaml', () => {
  it('resolves every declared field of a good form, a field defined only inside then included', () => {
    const refs = formReferences(base, 2);
    expect(refs.length).toBeGreaterThan(10);
    expect(referenceProblems(refs, LIST, { schema: badgeForm })).toEqual([]);
    expect(resolveField(badgeForm, ['badges', 'reason'])).toEqual({ type: 'string' });
    expect(resolveField(badgeForm, ['badges', 'nope'])).toBeNull();
    expect(refs.every((ref) => referenceResolves(ref, badgeForm))).toBe(true);
    expect(referenceResolves({ ...refs[0]!, route: ['badges', 'nope'] }, badgeForm)).toBe(false);
  });

  it('names forms.yaml and the pointer of a name that points nowhere or at a field of the wrong kind', () => {
    const wrong: FormDefinition = {
      ...base,
      approval: { when: 'above', field: 'note', limit: 2 },
      approvalSummary: [{ field: 'badges', show: ['fristName'] }],
      fee: { ...base.fee!, flag: 'email' },
    };
    expect(referenceProblems(formReferences(wrong, 2), LIST, { schema: badgeForm })).toEqual([
      { file: LIST, path: '/forms/2/approval/field', message: '"note" is not a number field' },
      { file: LIST, path: '/forms/2/approvalSummary/0/show/0', message: '"badges.fristName" is not a field of the form' },
      { file: LIST, path: '/forms/2/fee/flag', message: '"badges.email" is not a yes/no field' },
    ]);
  });

  it('an optional name must still exist in the base form: optional excuses an event, never a typo', () => {
    const typo: FormDefinition = { ...base, approvalSummary: [{ field: 'badges', show: ['firstName', 'lastNme'], optional: ['lastNme'] }] };
    expect(referenceProblems(formReferences(typo, 0), LIST, { schema: badgeForm })).toEqual([
      { file: LIST, path: '/forms/0/approvalSummary/0/show/1', message: '"badges.lastNme" is not a field of the form' },
    ]);
    const stray: FormDefinition = { ...base, approvalSummary: [{ field: 'badges', show: ['firstName'], optional: ['lastName'] }] };
    expect(optionalNameProblems(stray, 1)).toEqual([{ file: LIST, path: '/forms/1/approvalSummary/0/optional/0', message: '"lastName" is not named by this entry' }]);
    expect(optionalNameProblems(base, 1)).toEqual([]);
  });

  it("an event's patch may remove a name declared optional; removing any other names the patch, where it removes the field, and forms.yaml's pointer", () => {
    const refs = formReferences(base, 3);
    const dropLastName = { properties: { badges: { items: { properties: { lastName: null } } } } };
    expect(referenceProblems(refs, LIST, { schema: mergePatch(badgeForm, dropLastName), patch: { file: PATCH, schema: dropLastName } })).toEqual([]);

    const dropEmail = { properties: { badges: { items: { properties: { email: null } } } } };
    const problems = referenceProblems(refs, LIST, { schema: mergePatch(badgeForm, dropEmail), patch: { file: PATCH, schema: dropEmail } });
    expect(problems.map((problem) => problem.path)).toEqual(Array(3).fill('/schema/properties/badges/items/properties/email'));
    expect(problems.every((problem) => problem.file === PATCH)).toBe(true);
    expect(problems[0]!.message).toBe(`${LIST} /forms/3/provides/leadInterests/label names "badges.email", which this event’s form does not have: keep the field as it is`);
    expect(problems[1]!.message).toBe(
      `${LIST} /forms/3/documents/0/summary/0 names "badges.email", which this event’s form does not have: keep the field, or list "email" under that entry's optional:`,
    );

    // A patch that keeps the field but changes its kind is refused too (the fee reads a yes/no).
    const textFlag = { properties: { badges: { items: { properties: { extra: { type: 'string' } } } } } };
    expect(referenceProblems(refs, LIST, { schema: mergePatch(badgeForm, textFlag), patch: { file: PATCH, schema: textFlag } })).toEqual([
      {
        file: PATCH,
        path: '/schema/properties/badges/items/properties/extra',
        message: `${LIST} /forms/3/approval/flag names "badges.extra", which here is not a yes/no field: keep the field as it is`,
      },
      {
        file: PATCH,
        path: '/schema/properties/badges/items/properties/extra',
        message: `${LIST} /forms/3/fee/flag names "badges.extra", which here is not a yes/no field: keep the field as it is`,
      },
    ]);
  });

  it('points at the top of the patch when the field goes with a whole replaced branch', () => {
    expect(patchPointOf({ properties: { badges: null } }, ['badges', 'email'])).toBe('/schema/properties/badges');
    expect(patchPointOf({ required: [] }, ['badges', 'email'])).toBe('/schema');
  });

  it("resolves the showroom's JSON pointers in the form it reads, a list's items entered on the way", () => {
    const showroom = {
      company: { form: 'other', fields: { name: '/company/name' } },
      products: { form: 'badgeForm', list: '/badges', fields: { name: '/firstName', brand: '/brand' } },
    };
    const refs = showroomReferences(showroom, 'badgeForm');
    expect(refs.map((ref) => ref.at)).toEqual(['/showroom/products/list', '/showroom/products/fields/name', '/showroom/products/fields/brand']);
    expect(referenceProblems(refs, LIST, { schema: badgeForm })).toEqual([
      { file: LIST, path: '/showroom/products/fields/brand', message: '"badges.brand" is not a field of the form' },
    ]);
  });

  it("the approval summary of an event whose patch removed an optional field shows what the event's form has", () => {
    const dropped = mergePatch(badgeForm, { properties: { boothHeight: null, badges: { items: { properties: { lastName: null } } } } }) as typeof badgeForm;
    const data = { badges: [{ firstName: 'Siti', lastName: 'Old', extra: true }], boothHeight: 3 };
    const summary = approvalSummary(
      {
        ...base,
        approvalSummary: [
          { field: 'badges', show: ['firstName', 'lastName'], optional: ['lastName'] },
          { field: 'boothHeight', optional: ['boothHeight'] },
        ],
      },
      dropped,
      data,
      'en',
    );
    expect(summary.map((entry) => entry.field)).toEqual(['badges']);
    expect(summary[0]!.items).toEqual([{ text: 'Siti', flagged: true }]);
  });
});
