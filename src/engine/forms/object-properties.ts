// The properties an object schema can have: its own, and those that its if/then/else and
// allOf/anyOf/oneOf branches define (a field that exists only when `then` applies). `if` and
// `not` only test, so they define nothing. The form checks and the browser's labels both read
// fields this way, so a field defined only inside `then` is checked and translated like any other.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Name → schema of every property the object can have, its own first (the first definition wins). */
export function objectProperties(node: unknown): Map<string, Node> {
  const found = new Map<string, Node>();
  const visit = (schema: unknown) => {
    if (!isObject(schema)) return;
    if (isObject(schema.properties)) for (const [name, child] of Object.entries(schema.properties)) if (isObject(child) && !found.has(name)) found.set(name, child);
    for (const key of ['then', 'else']) visit(schema[key]);
    for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach(visit);
  };
  visit(node);
  return found;
}
