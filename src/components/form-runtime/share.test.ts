import { describe, expect, it } from 'vitest';
import { share } from './share';

describe('share (structural sharing of form data)', () => {
  const badge = (n: number, extra: Record<string, unknown> = {}) => ({ firstName: 'Aisyah', lastName: 'Rahman', email: `a${n}@borneo.example`, extra: false, ...extra });

  it('answers the previous value itself when nothing changed', () => {
    const previous = { badges: [badge(1), badge(2)] };
    const next = structuredClone(previous);
    expect(share(previous, next)).toBe(previous);
  });

  it('keeps the unchanged items and takes the changed one', () => {
    const previous = { badges: [badge(1), badge(2), badge(3)] };
    const next = structuredClone(previous);
    next.badges[2]!.firstName = 'Aisyah N';
    const result = share(previous, next);
    expect(result).toEqual(next);
    expect(result).not.toBe(previous);
    expect(result.badges[0]).toBe(previous.badges[0]);
    expect(result.badges[1]).toBe(previous.badges[1]);
    expect(result.badges[2]).not.toBe(previous.badges[2]);
  });

  it('sees added, removed and undefined keys, and added or removed items', () => {
    const previous = { a: 1, items: [badge(1)] } as Record<string, unknown>;
    expect(share(previous, { a: 1, items: [badge(1)], b: undefined })).toEqual({ a: 1, items: [badge(1)], b: undefined });
    expect(share(previous, { a: 1, items: [badge(1)], b: undefined })).not.toBe(previous);
    expect(share({ a: 1, b: undefined }, { a: 1 })).toEqual({ a: 1 });
    const grown = share(previous, { a: 1, items: [badge(1), badge(2)] });
    expect(grown.items).toEqual([badge(1), badge(2)]);
    expect((grown.items as unknown[])[0]).toBe((previous.items as unknown[])[0]);
    expect(share(previous, { a: 1, items: [] })).toEqual({ a: 1, items: [] });
  });

  it('compares leaves by value, with NaN equal to itself and 0 apart from -0', () => {
    expect(share({ n: NaN }, { n: NaN })).toEqual({ n: NaN });
    const previous = { n: 0 };
    expect(share(previous, { n: -0 })).not.toBe(previous);
    expect(share([1, 'a', null], [1, 'a', null])).toEqual([1, 'a', null]);
    expect(share(undefined, [1])).toEqual([1]);
    expect(share([1], undefined)).toBeUndefined();
  });

  it('treats an array and an object with the same keys as different', () => {
    expect(share({ 0: 'a' }, ['a'])).toEqual(['a']);
    expect(Array.isArray(share(['a'], { 0: 'a' }))).toBe(false);
  });
});
