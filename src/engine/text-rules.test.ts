import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, nameHasForbiddenCharacters, textProblem, valueTextProblem } from './text-rules';

describe('text rules: odd input', () => {
  it('finds NUL and lone surrogates, accepts paired surrogates', () => {
    expect(textProblem('a\u0000b')).toBe('textNulCharacter');
    expect(textProblem('a\uD800b')).toBe('textInvalidUnicode');
    expect(textProblem('a\uDC00')).toBe('textInvalidUnicode');
    expect(textProblem('emoji 😀 日本')).toBeNull();
  });

  it('walks nested values and keys', () => {
    expect(valueTextProblem({ a: [{ b: 'ok' }, { c: ['x\u0000'] }] })).toBe('textNulCharacter');
    expect(valueTextProblem({ 'k\uD83D': 1 })).toBe('textInvalidUnicode');
    expect(valueTextProblem({ a: [1, true, null, 'fine'] })).toBeNull();
  });

  it('refuses control characters and direction overrides in names only', () => {
    expect(nameHasForbiddenCharacters('invoice\u202Efdp.exe')).toBe(true);
    expect(nameHasForbiddenCharacters('line\nbreak')).toBe(true);
    expect(nameHasForbiddenCharacters('Nguyễn Văn A – 株式会社')).toBe(false);
  });

  it('measures JSON depth without parsing, ignoring brackets in strings', () => {
    expect(jsonDepthExceeds('['.repeat(5000) + ']'.repeat(5000), 64)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(100)}"}`, 64)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\"[[[[[["}`, 3)).toBe(false);
  });
});
