import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from './canonical';

// sameJson answers what comparing the canonical JSON of both answers, for every kind of value
// form data holds (and the odd ones a request body may bring).

const VALUES: unknown[] = [
  null,
  undefined,
  0,
  1,
  1.5,
  -0,
  Number.NaN,
  '',
  '1',
  'Nguyễn',
  '叉车',
  true,
  false,
  [],
  [null],
  [undefined],
  [1, 2],
  [2, 1],
  {},
  { a: 1 },
  { a: 1, b: undefined },
  { b: undefined },
  { a: '1' },
  { b: 2, a: 1 },
  { a: 1, b: 2 },
  { a: { x: [1, { y: 'z' }] } },
  { a: { x: [1, { y: 'w' }] } },
  { toString: 1 },
  { constructor: undefined },
  { badges: [{ firstName: 'Aisyah', email: 'a@example.com' }] },
  { badges: [{ email: 'a@example.com', firstName: 'Aisyah' }] },
  { badges: [{ email: 'a@example.com', firstName: 'Aisyah', extra: undefined }] },
  { badges: [{ email: 'a@example.com', firstName: 'Aisyah', extra: false }] },
  new Date(0),
];

describe('sameJson', () => {
  it('answers as comparing canonical JSON does, for every pair of values', () => {
    for (const a of VALUES) for (const b of VALUES) expect([a, b, sameJson(a, b)]).toEqual([a, b, canonicalJson(a) === canonicalJson(b)]);
  });

  it('finds a change deep in a 2,000-item list, and none in the same list with keys in another order', () => {
    const badges = Array.from({ length: 2000 }, (_, index) => ({ firstName: `Name ${index}`, email: `b${index}@example.com`, extra: index % 2 === 0 }));
    const reordered = badges.map(({ firstName, email, extra }) => ({ extra, email, firstName }));
    expect(sameJson({ badges }, { badges: reordered })).toBe(true);
    reordered[1999]!.extra = !reordered[1999]!.extra;
    expect(sameJson({ badges }, { badges: reordered })).toBe(false);
  });
});
