import { describe, expect, it } from 'vitest';
import { formDifference, listTitleOf, sampleData } from './gallery';
import { mergePatch } from './merge-patch';
import { PROJECT_UPLOADS } from '../../../tests/support/project-uploads';
import { createFormAjv, runValidator } from './validator';

// A patch's difference from the base form, and sample data that the
// form's own validator accepts.

const base = {
  type: 'object',
  required: ['people'],
  properties: {
    note: { type: 'string', title: 'forms.t.note' },
    people: {
      type: 'array',
      title: 'forms.t.people',
      minItems: 2,
      uniqueItemProperty: 'email',
      quota: 'people',
      items: {
        type: 'object',
        required: ['firstName', 'lastName', 'email'],
        properties: {
          firstName: { type: 'string', title: 'forms.t.firstName', realName: 'any', maxLength: 100 },
          lastName: { type: 'string', title: 'forms.t.lastName', realName: 'any' },
          email: { type: 'string', title: 'forms.t.email', format: 'email' },
          phone: { type: 'string', title: 'forms.t.phone' },
          kind: { type: 'string', title: 'forms.t.kind', enum: ['staff', 'guest'] },
          seats: { type: 'integer', title: 'forms.t.seats', minimum: 1 },
          photo: { type: 'object', title: 'forms.t.photo', file: 'productImage' },
        },
      },
    },
  },
};

describe('a patch’s difference from the base form', () => {
  it('names fields added, removed, now required and relabelled, by path', () => {
    const patched = mergePatch(base, {
      properties: {
        halal: { type: 'object', title: 'forms.t.halal', properties: { certified: { type: 'boolean', title: 'forms.t.certified' } } },
        people: {
          items: {
            required: ['firstName', 'email', 'phone'],
            properties: { lastName: null, email: { title: 'forms.t.workEmail' } },
          },
        },
      },
    }) as typeof base;
    expect(formDifference({ schema: base }, { schema: patched })).toEqual([
      { kind: 'relabelled', path: 'people[].email', from: 'forms.t.email', to: 'forms.t.workEmail' },
      { kind: 'nowRequired', path: 'people[].phone', title: 'forms.t.phone' },
      { kind: 'added', path: 'halal', title: 'forms.t.halal' },
      { kind: 'removed', path: 'people[].lastName', title: 'forms.t.lastName' },
    ]);
  });

  it('a relabel in the UI schema counts too, and no patch means no difference', () => {
    expect(formDifference({ schema: base, ui: {} }, { schema: base, ui: { note: { 'ui:title': 'forms.t.remark' } } })).toEqual([
      { kind: 'relabelled', path: 'note', from: 'forms.t.note', to: 'forms.t.remark' },
    ]);
    expect(formDifference({ schema: base }, { schema: base })).toEqual([]);
  });
});

describe('sample data', () => {
  it('fills every field but files, enough list items, unique where the list says so, and the form accepts it', () => {
    const data = sampleData(base) as { people: Record<string, unknown>[] };
    expect(data.people).toHaveLength(2);
    expect(data.people[0]).toEqual({ firstName: 'Aisyah', lastName: 'Aisyah', email: 'sample@example.com', phone: 'Sample', kind: 'staff', seats: 1 });
    expect(data.people[1]!.email).not.toBe(data.people[0]!.email);
    const validate = createFormAjv({ uploads: PROJECT_UPLOADS }).compile(base);
    expect(runValidator(validate, () => validate.errors, data, { flags: {}, quotas: { people: 10 } })).toEqual([]);
  });

  it('gives a country field a country code, which the country rule accepts', () => {
    const schema = { type: 'object', properties: { nationality: { type: 'string', country: true } } };
    const data = sampleData(schema) as { nationality: string };
    expect(data.nationality).toMatch(/^[A-Z]{2}$/);
    const validate = createFormAjv({ uploads: PROJECT_UPLOADS }).compile(schema);
    expect(runValidator(validate, () => validate.errors, data, { flags: {}, quotas: {} })).toEqual([]);
  });
});

describe('the list a changed field sits in', () => {
  const nested = {
    type: 'object',
    properties: {
      group: {
        type: 'object',
        properties: {
          teams: {
            type: 'array',
            title: 'forms.t.teams',
            items: { type: 'object', properties: { members: { type: 'array', title: 'forms.t.members', items: { type: 'object', properties: { name: { type: 'string' } } } } } },
          },
        },
      },
      untitled: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } },
    },
  };

  it('names the innermost list of an item field, by its title key', () => {
    expect(listTitleOf(base, 'people[].lastName')).toBe('forms.t.people');
    expect(listTitleOf(nested, 'group.teams[].members')).toBe('forms.t.teams');
    expect(listTitleOf(nested, 'group.teams[].members[].name')).toBe('forms.t.members');
  });

  it('answers null outside lists, for a list without a title, and for a path the schema does not have', () => {
    expect(listTitleOf(base, 'note')).toBeNull();
    expect(listTitleOf(nested, 'untitled[].x')).toBeNull();
    expect(listTitleOf(base, 'nothing[].x')).toBeNull();
  });
});
