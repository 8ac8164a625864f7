// Structural sharing for form data: rjsf rebuilds the whole form data on every change (defaults
// are recomputed, the state is cloned), so every array item arrives as a new object even when
// the user changed one field of one item. Handing the array field the previous objects where
// nothing changed lets its memoised items skip rendering: a keystroke renders one item, not 50.

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `next`, with every part that is deeply equal to the same part of `previous` replaced by that
 * part of `previous`: the result equals `next`, and is `previous` itself when nothing changed.
 * One pass over `next`; plain objects and arrays only (anything else is compared with Object.is).
 */
export function share<T>(previous: unknown, next: T): T {
  if (Object.is(previous, next)) return previous as T;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const out = next.map((item, index) => {
      const shared = index < previous.length ? share(previous[index], item) : item;
      if (!Object.is(shared, previous[index])) same = false;
      return shared;
    });
    return (same ? previous : out) as T;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const shared = share(previous[key], next[key]);
      out[key] = shared;
      if (!Object.is(shared, previous[key]) || !(key in previous)) same = false;
    }
    return (same ? previous : out) as T;
  }
  return next;
}
