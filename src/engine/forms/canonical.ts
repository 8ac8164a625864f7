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

export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
