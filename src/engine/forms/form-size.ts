// F9: how much a form's data may hold, as JSON. A form holds file references, never
// file contents, so a small form needs little; a form whose lists declare a maximum (`maxItems`,
// such as S04's badges filled from a spreadsheet) may hold that many items of the largest size its
// schema allows. Anything beyond is refused (abuse), with a message in the user's language.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What any form may hold: its scalar fields and lists without a declared maximum. */
export const FORM_DATA_BASE_CHARS = 512 * 1024;
/** What no form may hold, whatever its lists declare (the draft and submit routes' body limit follows it). */
export const FORM_DATA_MAX_CHARS = 4 * 1024 * 1024;
/** A text field without `maxLength`: counted as this many characters. */
const UNBOUNDED_TEXT_CHARS = 2000;

/** The most characters one value of a schema takes as JSON (every text at its longest, escaping aside). */
export function valueBudget(node: unknown): number {
  if (!isObject(node)) return 0;
  if (Array.isArray(node.enum)) return Math.max(4, ...node.enum.map((value) => JSON.stringify(value).length));
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object') || isObject(node.properties)) {
    const properties = isObject(node.properties) ? node.properties : {};
    // {"name":value,…}
    return 2 + Object.entries(properties).reduce((sum, [name, child]) => sum + name.length + 4 + valueBudget(child), 0);
  }
  if (types.includes('array')) {
    const count = typeof node.maxItems === 'number' ? node.maxItems : 0;
    return 2 + count * (valueBudget(node.items) + 1);
  }
  if (types.includes('string')) return 2 + (typeof node.maxLength === 'number' ? node.maxLength : UNBOUNDED_TEXT_CHARS);
  if (types.includes('number') || types.includes('integer')) return 24;
  if (types.includes('boolean')) return 5;
  return 0;
}

/**
 * The largest JSON (in characters) a form's data may be: the base, plus for each top-level list
 * that declares `maxItems` room for that many items at their largest; never above the maximum.
 */
export function formDataLimit(schema: unknown): number {
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  let limit = FORM_DATA_BASE_CHARS;
  for (const node of Object.values(properties)) {
    if (isObject(node) && typeof node.maxItems === 'number' && isObject(node.items)) limit += node.maxItems * (valueBudget(node.items) + 1);
  }
  return Math.min(limit, FORM_DATA_MAX_CHARS);
}
