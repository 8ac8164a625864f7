import { describe, expect, it } from 'vitest';
import { providedLabels, providerOf, providerProblems, providesProblems } from './provides';

describe('provides (LD2: a form provides the lead interests)', () => {
  it('accepts a list and a text field of its items', () => {
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'items', label: 'label' } } })).toEqual([]);
  });

  it('names what is wrong: unknown provider, a malformed entry (its fields: field-references.test.ts)', () => {
    const where = 'schemas/forms/forms.yaml (f) provides';
    expect(providesProblems({ id: 'f', provides: { visitors: { list: 'items', label: 'label' } } as never })).toEqual([`${where}.visitors: unknown (known: leadInterests)`]);
    expect(providesProblems({ id: 'f', provides: { leadInterests: { list: 'items' } } as never })).toEqual([
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
