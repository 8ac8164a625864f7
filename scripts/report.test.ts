import { describe, expect, it } from 'vitest';
import { castCount, codeOnly, duplicateBlocks, functionLengths } from './report';

describe('code measures', () => {
  it('reads code only: braces, casts and names in strings and comments do not count', () => {
    // The second line holds a template literal with a placeholder (written `$\{` so this file keeps it as text).
    const code = codeOnly(["const a = '{ as Foo }'; // x as Y {", `const b = \`$\{value as string} }\`;`, ''].join('\n'));
    expect(castCount(code)).toBe(1);
    expect(code.split('\n')).toHaveLength(3);
  });

  it('measures a function from its first line to its closing brace', () => {
    const text = [
      'export function long(a: number): string {',
      "  if (a) { return '}'; }",
      '  const inner = (b: number) => {',
      '    return b;',
      '  };',
      "  return '';",
      '}',
      '',
    ].join('\n');
    expect(functionLengths(codeOnly(text))).toEqual([
      { line: 1, name: 'long', lines: 7 },
      { line: 3, name: 'inner', lines: 3 },
    ]);
  });

  it('counts `as` casts but not `as const` or import renames', () => {
    expect(castCount(codeOnly("import { a as b } from 'x';\nconst c = d as Foo;\nconst e = [1] as const;\nconst f = (g as unknown) as H;\n"))).toBe(3);
  });

  it('finds an identical block of six code lines in two files, once however long it is', () => {
    const block = Array.from({ length: 8 }, (_, i) => `call(${i});`).join('\n');
    const blocks = duplicateBlocks([
      { path: 'a.ts', text: `first();\n${block}\n` },
      { path: 'b.ts', text: `${block}\nlast();\n` },
      { path: 'c.ts', text: 'other();\n' },
    ]);
    expect(blocks).toEqual([{ places: ['a.ts:2', 'b.ts:1'], lines: 8 }]);
  });

  it('leaves out imports written over several lines', () => {
    const imports = `import {\n${Array.from({ length: 8 }, (_, i) => `  name${i},`).join('\n')}\n} from 'x';\n`;
    expect(
      duplicateBlocks([
        { path: 'a.ts', text: `${imports}first();\n` },
        { path: 'b.ts', text: `${imports}second();\n` },
      ]),
    ).toEqual([]);
  });
});
