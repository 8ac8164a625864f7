import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyListings, optionalListingOf, withListings } from './patch-editor-listings';

// F11: the forms.yaml fix the editor offers for a removed question an approval summary or a
// document names: which listing fixes which reference, and forms.yaml's text changed only there.

const reference = { route: ['badges', 'companyOnBadge'], at: '/forms/3/approvalSummary/0/show/3', name: 'badges.companyOnBadge', optional: false, optionable: true };

describe('optional: listings', () => {
  it('names the entry and the name that fix a reference; none for one the declaration cannot list or already lists', () => {
    expect(optionalListingOf(reference)).toEqual({ entry: '/forms/3/approvalSummary/0', name: 'companyOnBadge' });
    expect(optionalListingOf({ ...reference, at: '/forms/3/fee/flag', optionable: false })).toBeNull();
    expect(optionalListingOf({ ...reference, optional: true })).toBeNull();
    expect(withListings([reference], [{ entry: '/forms/3/approvalSummary/0', name: 'companyOnBadge' }])[0]!.optional).toBe(true);
    expect(withListings([reference], [{ entry: '/forms/3/approvalSummary/1', name: 'companyOnBadge' }])[0]!.optional).toBe(false);
  });

  it('adds to flow and block lists and maps, keeping the rest of the text byte for byte; refuses an entry that is not there', () => {
    const block =
      '# the forms\nforms:\n  - id: a\n    documents:\n      - each: x\n        summary: [a]\n      - each: y\n        optional:\n          - b\n  - id: c\n    approvalSummary: [{ field: d }]\n';
    const listed = applyListings(block, [
      { entry: '/forms/0/documents/0', name: 'a' },
      { entry: '/forms/0/documents/1', name: 'c' },
      { entry: '/forms/0/documents/1', name: 'b' },
      { entry: '/forms/1/approvalSummary/0', name: 'd' },
    ]);
    expect(listed).toEqual({
      ok: true,
      text: '# the forms\nforms:\n  - id: a\n    documents:\n      - each: x\n        summary: [a]\n        optional: [a]\n      - each: y\n        optional:\n          - b\n          - c\n  - id: c\n    approvalSummary: [{ field: d, optional: [d] }]\n',
    });
    expect(parse((listed as { text: string }).text).forms[0].documents[1].optional).toEqual(['b', 'c']);
    expect(applyListings(block, [{ entry: '/forms/1/approvalSummary/3', name: 'd' }])).toEqual({ ok: false, entry: '/forms/1/approvalSummary/3' });
    expect(applyListings(block, [{ entry: '/forms/1/approvalSummary/0', name: 'd: x' }])).toEqual({ ok: false, entry: '/forms/1/approvalSummary/0' });
  });
});
