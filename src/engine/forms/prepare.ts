import type { FormContext } from './context';

// The schema a given exhibitor sees: sections behind a flag (showIf) and local-language fields
// (secondLanguage) are removed when the flag is off, from `properties` and from `required`, so
// the browser neither shows nor demands them and the server refuses them (additionalProperties).

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hiddenBy(schema: unknown, flags: Record<string, boolean>): boolean {
  if (!isObject(schema)) return false;
  for (const keyword of ['showIf', 'secondLanguage'] as const) {
    const flag = schema[keyword];
    if (typeof flag === 'string' && flags[flag] !== true) return true;
  }
  return false;
}

export function prepareSchema<T extends Schema>(schema: T, context: FormContext): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const copy: Schema = {};
    for (const [key, value] of Object.entries(node)) copy[key] = visit(value);
    if (isObject(copy.properties)) {
      const properties: Schema = {};
      const removed = new Set<string>();
      for (const [name, property] of Object.entries(copy.properties)) {
        if (hiddenBy(property, context.flags)) removed.add(name);
        else properties[name] = property;
      }
      copy.properties = properties;
      if (Array.isArray(copy.required)) copy.required = copy.required.filter((name) => !removed.has(String(name)));
    }
    return copy;
  };
  return visit(schema) as T;
}

/** A short, stable signature of what prepareSchema depends on, for caching compiled validators. */
export function contextSignature(context: FormContext): string {
  const flags = Object.keys(context.flags).filter((k) => context.flags[k]).sort().join(',');
  const quotas = Object.keys(context.quotas).sort().map((k) => `${k}=${context.quotas[k]}`).join(',');
  return `${flags}|${quotas}`;
}
