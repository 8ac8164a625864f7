// Rules about characters that text may hold, shared by the server's input guard, route schemas
// and the browser. PostgreSQL cannot store NUL in text or jsonb; a lone UTF-16 surrogate is
// half of a character that no encoding can store; control characters and bidirectional
// overrides in names let one name pass for another ("invoice\u202Efdp.exe").

/** Whole numbers in ids and versions are PostgreSQL `integer`s. */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

/** Deeper JSON than this is refused before parsing (no form nests anywhere near it). */
export const JSON_MAX_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** C0/C1 controls (tab, line breaks included), bidi embeddings/overrides/isolates and marks. */
export const NAME_FORBIDDEN_PATTERN = '[\\u0000-\\u001F\\u007F-\\u009F\\u200E\\u200F\\u061C\\u202A-\\u202E\\u2066-\\u2069]';
const NAME_FORBIDDEN = new RegExp(NAME_FORBIDDEN_PATTERN);

export type TextProblem = 'textNulCharacter' | 'textInvalidUnicode';

export function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return 'textNulCharacter';
  if (LONE_SURROGATE.test(text)) return 'textInvalidUnicode';
  return null;
}

/** A name (person, company, file) must not hold control characters or direction overrides. */
export function nameHasForbiddenCharacters(name: string): boolean {
  return NAME_FORBIDDEN.test(name);
}

/** The first text problem anywhere in a parsed value (strings and object keys), or null. */
export function valueTextProblem(value: unknown): TextProblem | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return problem;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push(item);
      }
    }
  }
  return null;
}

/** The nesting depth of JSON text, counted without parsing (brackets inside strings ignored); stops past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92 /* \ */) index += 1;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 /* { */ || char === 91 /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 125 /* } */ || char === 93 /* ] */) depth -= 1;
  }
  return false;
}
