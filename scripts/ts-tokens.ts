// A small tokenizer of TypeScript source for the project's checks: string literals, template
// literals (their static parts and the code of their substitutions), identifiers, punctuation,
// with comments and regular expressions skipped. It needs no compiler (TypeScript 7 has no JS
// API) and is exact on the code this project writes; JSX text is read as punctuation and words.

export type Token =
  | { kind: 'string'; value: string; line: number }
  /** A template literal: its static parts around the substitutions (one more part than substitutions). */
  | { kind: 'template'; parts: string[]; line: number }
  | { kind: 'identifier'; value: string; line: number }
  | { kind: 'punct'; value: string; line: number }
  | { kind: 'other'; line: number };

const IDENTIFIER_START = /[A-Za-z_$\u00c0-\uffff]/;
const IDENTIFIER_PART = /[\w$\u00c0-\uffff]/;
/** After these words an expression starts: a `/` there opens a regular expression. */
const EXPRESSION_KEYWORDS = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let line = 1;

  /** Whether a `/` here divides (after a value) rather than opening a regular expression. */
  const divides = () => {
    const last = tokens[tokens.length - 1];
    if (!last) return false;
    if (last.kind === 'identifier') return !EXPRESSION_KEYWORDS.has(last.value);
    // `</` closes a JSX element.
    if (last.kind === 'punct') return last.value === ')' || last.value === ']' || last.value === '}' || last.value === '<';
    return true;
  };

  /** The escape at `at` (just after the backslash), its value, and the position after it. */
  const escape = (): string => {
    const char = text[at]!;
    at += 1;
    if (char === '\n') {
      line += 1;
      return '';
    }
    return ESCAPES[char] ?? char;
  };

  /** A quoted string from `at` (on its quote); null when the line ends first (an apostrophe in JSX text). */
  const quoted = (): string | null => {
    const quote = text[at]!;
    let value = '';
    const start = at;
    const startLine = line;
    at += 1;
    while (at < text.length) {
      const char = text[at]!;
      if (char === quote) {
        at += 1;
        return value;
      }
      if (char === '\n') break;
      if (char === '\\') {
        at += 1;
        value += escape();
        continue;
      }
      value += char;
      at += 1;
    }
    at = start + 1;
    line = startLine;
    return null;
  };

  /** Scans code until the end, or until the `}` closing a template substitution (then returns after it). */
  const code = (inSubstitution: boolean): void => {
    let depth = 0;
    while (at < text.length) {
      const char = text[at]!;
      const next = text[at + 1];
      if (char === '\n') {
        line += 1;
        at += 1;
      } else if (/\s/.test(char)) at += 1;
      else if (char === '/' && next === '/') {
        while (at < text.length && text[at] !== '\n') at += 1;
      } else if (char === '/' && next === '*') {
        const end = text.indexOf('*/', at + 2);
        const stop = end === -1 ? text.length : end + 2;
        for (let i = at; i < stop; i += 1) if (text[i] === '\n') line += 1;
        at = stop;
      } else if (char === '"' || char === "'") {
        const startLine = line;
        const value = quoted();
        tokens.push(value === null ? { kind: 'punct', value: char, line } : { kind: 'string', value, line: startLine });
      } else if (char === '`') template();
      else if (char === '/' && !divides()) regex();
      else if (IDENTIFIER_START.test(char)) {
        let end = at + 1;
        while (end < text.length && IDENTIFIER_PART.test(text[end]!)) end += 1;
        tokens.push({ kind: 'identifier', value: text.slice(at, end), line });
        at = end;
      } else if (/[0-9]/.test(char) || (char === '.' && next !== undefined && /[0-9]/.test(next))) {
        let end = at + 1;
        while (end < text.length && /[\w.]/.test(text[end]!)) end += 1;
        tokens.push({ kind: 'other', line });
        at = end;
      } else {
        if (char === '{') depth += 1;
        if (char === '}') {
          if (inSubstitution && depth === 0) {
            at += 1;
            return;
          }
          depth -= 1;
        }
        // `?.` and `...` are one token each: a member access and a spread read as such.
        const value = char === '?' && next === '.' ? '?.' : char === '.' && next === '.' && text[at + 2] === '.' ? '...' : char;
        tokens.push({ kind: 'punct', value, line });
        at += value.length;
      }
    }
  };

  const template = () => {
    const token: Token = { kind: 'template', parts: [''], line };
    tokens.push(token);
    at += 1;
    while (at < text.length) {
      const char = text[at]!;
      if (char === '`') {
        at += 1;
        break;
      }
      if (char === '\\') {
        at += 1;
        token.parts[token.parts.length - 1] += escape();
      } else if (char === '$' && text[at + 1] === '{') {
        at += 2;
        code(true);
        token.parts.push('');
      } else {
        if (char === '\n') line += 1;
        token.parts[token.parts.length - 1] += char;
        at += 1;
      }
    }
    // A template without substitutions is a string like any other.
    if (token.parts.length === 1) tokens.splice(tokens.indexOf(token), 1, { kind: 'string', value: token.parts[0]!, line: token.line });
  };

  const regex = () => {
    at += 1;
    let inClass = false;
    while (at < text.length && text[at] !== '\n') {
      const char = text[at]!;
      if (char === '\\') at += 2;
      else {
        if (char === '[') inClass = true;
        else if (char === ']') inClass = false;
        else if (char === '/' && !inClass) break;
        at += 1;
      }
    }
    at += 1;
    while (at < text.length && /[a-z]/.test(text[at]!)) at += 1;
    tokens.push({ kind: 'other', line });
  };

  code(false);
  return tokens;
}
