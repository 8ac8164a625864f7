import { describe, expect, it } from 'vitest';
import { castCount, codeOnly, duplicateBlocks, functionLengths, typesRepeatingSchemas } from './report';

describe('code measures', () => {
  it('reads code only: braces, casts and names in strings and comments do not count', () => {
    // The second line holds a template literal with a placeholder (written `$\{` so this file keeps it as text).
    const code = codeOnly(["const a = '{ as Foo }'; // x as Y {", `const b = \`$\{value as string} }\`;`, ''].join('\n'));
    expect(castCount(code)).toBe(1);
    expect(code.split('\n')).toHaveLength(3);
  });

  it('keeps every line when a quote is left open on its line (a quote inside a regular expression literal)', () => {
    const text = "const fold = (s: string) => s.replace(/[.,'’]+/g, '');\nexport interface Next {\n  a: string;\n}\n";
    const code = codeOnly(text);
    expect(code.split('\n')).toHaveLength(text.split('\n').length);
    expect(code.split('\n')[1]).toBe('export interface Next {');
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

  it("reports a type whose property names are a schema's, unless a comment names that schema as another entity's, with a reason", () => {
    const schema = { path: 'src/server/routes.ts', text: "const event = { type: 'object', properties: { code: { type: 'string' }, name: { type: 'string' } } } as const;\n" };
    const typeWith = (comment: string) => ({ path: 'src/engine/country.ts', text: `${comment}\nexport interface CountryChoice {\n  code: string;\n  name: string;\n}\n` });
    const found = (comment: string) =>
      typesRepeatingSchemas(
        [schema, typeWith(comment)].map(({ path, text }) => ({ path, text, code: codeOnly(text) })),
        [],
      );
    expect(found('// A country the picker offers.')).toEqual(['src/engine/country.ts:2 CountryChoice repeats the schema at src/server/routes.ts:1']);
    expect(found('// report: not the schema at src/server/routes.ts: an event reference, not a country')).toEqual([]);
    // The mark must name the schema it coincides with, and say why.
    expect(found('// report: not the schema at src/server/other.ts: an event reference, not a country')).toHaveLength(1);
    expect(found('// report: not the schema at src/server/routes.ts:')).toHaveLength(1);
  });
});
