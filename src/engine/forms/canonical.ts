// JSON compared by value: two form data with equal content compare equal whatever their key order
// (PostgreSQL's jsonb reorders keys, the browser does not).

type Data = Record<string, unknown>;

/** JSON with object keys sorted and undefined members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Data)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Data)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const isObject = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How many members an object has that its canonical JSON keeps (undefined ones are left out). */
function definedCount(value: Data): number {
  let count = 0;
  for (const key of Object.keys(value)) if (value[key] !== undefined) count += 1;
  return count;
}

/**
 * Whether the canonical JSON of both is the same, found without writing it: member by member,
 * stopping at the first difference (a 2,000-badge list is compared on every form list).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b) || definedCount(a) !== definedCount(b)) return false;
    for (const key of Object.keys(a)) {
      if (a[key] === undefined) continue;
      if (!Object.hasOwn(b, key) || b[key] === undefined || !sameJson(a[key], b[key])) return false;
    }
    return true;
  }
  return canonicalJson(a) === canonicalJson(b);
}
