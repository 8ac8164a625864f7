import { describe, expect, it } from 'vitest';
import { providedLabels, providerOf, providerProblems, providesProblems } from './provides';

const schema = {
  properties: {
    items: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, count: { type: 'integer' } } } },
    note: { type: 'string' },
  },
};

describe('provides (LD2: a form provides the lead interests)', () => {
  it('accepts a list and a text field of its items', () => {
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'items', label: 'label' } } }, schema)).toEqual([]);
  });

  it('names what is wrong: unknown provider, a field that is no list, an item field that is no text', () => {
    const where = 'schemas/forms/forms.yaml (f) provides';
    expect(providesProblems({ id: 'f', provides: { visitors: { list: 'items', label: 'label' } } as never }, schema)).toEqual([
      `${where}.visitors: unknown (known: leadInterests)`,
    ]);
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'note', label: 'label' } } }, schema)).toEqual([
      `${where}.leadInterests.list: "note" is not a list of the form`,
    ]);
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'items', label: 'count' } } }, schema)).toEqual([
      `${where}.leadInterests.label: "items" items have no text field "count"`,
    ]);
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'items' } } as never }, schema)).toEqual([
      `${where}.leadInterests: must be { list: <list property>, label: <item field> }`,
    ]);
  });

  it('refuses two forms providing the same list', () => {
    const provided = { leadInterests: { list: 'items', label: 'label' } };
    expect(providerProblems([{ id: 'a', provides: provided }, { id: 'b' }, { id: 'c', provides: provided }])).toEqual([
      'schemas/forms/forms.yaml provides.leadInterests: provided by more than one form (a, c)',
    ]);
  });

  it('finds the provider and reads the distinct non-blank labels in order', () => {
    const found = providerOf([{ id: 'a' }, { id: 'b', provides: { leadInterests: { list: 'items', label: 'label' } } }], 'leadInterests');
    expect(found?.form.id).toBe('b');
    expect(providedLabels(found!.provided, { items: [{ label: 'Tea' }, { label: ' ' }, { label: 'Honey' }, { label: 'Tea' }, { count: 1 }, 'x'] })).toEqual(['Tea', 'Honey']);
    expect(providedLabels(found!.provided, null)).toEqual([]);
    expect(providerOf([{ id: 'a' }], 'leadInterests')).toBeNull();
  });
});
