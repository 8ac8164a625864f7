import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './catalogue-source';

// The code's measures (`npm run report`, or `npm run check -- --report`): files over 400 lines,
// functions over 100 lines, identical blocks repeated in src/features, `as` casts in the forms'
// browser and server code, and hand-written types whose properties are those of a JSON Schema of
// the code base. It reports and never fails: the numbers say where to look, not what is wrong.

export const FILE_LINES_MAX = 400;
export const FUNCTION_LINES_MAX = 100;
/** How many identical lines (blank lines, comments and imports left out) make a repeated block. */
export const DUPLICATE_WINDOW = 6;
const CAST_FOLDERS = ['src/features/forms', 'src/components/form-runtime', 'src/server/modules/forms'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const rel = (path: string) => relative(ROOT, path);
const codeFiles = (dir: string) =>
  walk(join(ROOT, dir)).filter((file) => /\.(ts|tsx)$/.test(file) && !file.includes(`${join('src', 'generated')}`) && !/\.(test|spec)\.tsx?$/.test(file));

/**
 * The text with strings, template literals and comments blanked (same length, newlines kept), so
 * braces, `as` and property names are only read from code. Regular expression literals are not
 * recognised (a brace in one may shift a function's end; the measures are estimates).
 */
export function codeOnly(text: string): string {
  let out = '';
  let at = 0;
  const templateDepths: number[] = [];
  let braceDepth = 0;
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, ' ');
  while (at < text.length) {
    const char = text[at]!;
    const next = text[at + 1];
    if (char === '/' && next === '/') {
      const end = text.indexOf('\n', at);
      const stop = end === -1 ? text.length : end;
      out += blank(at, stop);
      at = stop;
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', at + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(at, stop);
      at = stop;
    } else if (char === "'" || char === '"' || char === '`' || (char === '}' && templateDepths.at(-1) === braceDepth)) {
      // A string, or the rest of a template literal after a `${…}`.
      if (char === '}') templateDepths.pop();
      else if (char !== '`') {
        let end = at + 1;
        while (end < text.length && text[end] !== char && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
        // A quote with no closing one on its line (one inside a regular expression literal) ends at
        // the line's end, which is kept: the lines after it keep their numbers.
        const closed = text[end] === char;
        out += `${char}${blank(at + 1, end)}${closed ? char : ''}`;
        at = closed ? end + 1 : end;
        continue;
      }
      let end = at + 1;
      while (end < text.length && text[end] !== '`' && !(text[end] === '$' && text[end + 1] === '{')) end += text[end] === '\\' ? 2 : 1;
      out += `${char}${blank(at + 1, end)}`;
      if (text[end] === '$') {
        templateDepths.push(braceDepth);
        out += '${';
        at = end + 2;
      } else {
        out += '`';
        at = end + 1;
      }
    } else {
      if (char === '{') braceDepth++;
      else if (char === '}') braceDepth--;
      out += char;
      at++;
    }
  }
  return out;
}

/** The offset of the brace that closes the one at `open`, in code-only text. */
function closingBrace(code: string, open: number): number {
  let depth = 0;
  for (let at = open; at < code.length; at++) {
    if (code[at] === '{') depth++;
    else if (code[at] === '}' && --depth === 0) return at;
  }
  return code.length - 1;
}

const lineAt = (code: string, offset: number) => code.slice(0, offset).split('\n').length;

/** Functions (declarations, arrow functions with a body, methods) and their length in lines. */
export function functionLengths(code: string): { line: number; name: string; lines: number }[] {
  const found: { line: number; name: string; lines: number }[] = [];
  const starts =
    /(?:\bfunction\s*\*?\s*(\w*)\s*(?:<[^>{]*>)?\s*\(|(\w+)\s*(?::[^=\n]*)?=\s*(?:async\s*)?(?:<[^>]*>)?\([^)]*\)[^\n{]*=>\s*\{|^\s*(?:async\s+)?(\w+)\s*\([^)\n]*\)\s*(?::[^{\n]*)?\{\s*$)/gm;
  for (const match of code.matchAll(starts)) {
    const name = match[1] || match[2] || match[3] || '(anonymous)';
    if (['if', 'for', 'while', 'switch', 'catch', 'return'].includes(name)) continue;
    let open = code.indexOf('{', match.index + match[0].length - (match[0].trimEnd().endsWith('{') ? match[0].length - match[0].trimEnd().length + 1 : 0));
    // A declaration's body opens at the first brace that ends a line after its parameters.
    const bodyOpen = /\{\s*\n/g;
    bodyOpen.lastIndex = match[0].trimEnd().endsWith('{') ? match.index + match[0].trimEnd().length - 1 : match.index;
    const body = bodyOpen.exec(code);
    if (body) open = body.index;
    if (open < 0) continue;
    const first = lineAt(code, match.index);
    found.push({ line: first, name, lines: lineAt(code, closingBrace(code, open)) - first + 1 });
  }
  return found;
}

/** Identical runs of DUPLICATE_WINDOW code lines standing in more than one place, as blocks. */
export function duplicateBlocks(files: { path: string; text: string }[]): { places: string[]; lines: number }[] {
  const windows = new Map<string, { path: string; line: number; index: number }[]>();
  for (const { path, text } of files) {
    // A multi-line import's names are imports too: blanked, so two files importing alike repeat nothing.
    const lines = text
      .replace(/^import\b[^;]*;/gm, (statement) => statement.replace(/[^\n]/g, ''))
      .split('\n')
      .map((line, index) => ({ text: line.trim().replace(/\s+/g, ' '), line: index + 1 }))
      .filter(({ text }) => text !== '' && !/^(import|\/\/|\/\*|\*)/.test(text) && !/^[\])};,(]+$/.test(text));
    for (let index = 0; index + DUPLICATE_WINDOW <= lines.length; index++) {
      const key = lines
        .slice(index, index + DUPLICATE_WINDOW)
        .map((l) => l.text)
        .join('\n');
      const list = windows.get(key) ?? [];
      list.push({ path, line: lines[index]!.line, index });
      windows.set(key, list);
    }
  }
  // A window repeated where the window before it is repeated in the same places continues a block.
  const repeated = new Map<string, string>();
  for (const [key, places] of windows) if (places.length > 1) for (const p of places) repeated.set(`${p.path}#${p.index}`, key);
  const blocks: { places: string[]; lines: number }[] = [];
  for (const places of windows.values()) {
    if (places.length < 2) continue;
    const previous = places.map((p) => repeated.get(`${p.path}#${p.index - 1}`));
    if (previous[0] !== undefined && previous.every((k) => k === previous[0])) continue;
    let length = DUPLICATE_WINDOW;
    while (
      places.every(
        (p) =>
          repeated.get(`${p.path}#${p.index + length - DUPLICATE_WINDOW + 1}`) === repeated.get(`${places[0]!.path}#${places[0]!.index + length - DUPLICATE_WINDOW + 1}`) &&
          repeated.has(`${p.path}#${p.index + length - DUPLICATE_WINDOW + 1}`),
      )
    )
      length++;
    blocks.push({ places: places.map((p) => `${p.path}:${p.line}`), lines: length });
  }
  return blocks;
}

/** `as` type assertions in code (not `as const`, not import/export renames). */
export function castCount(code: string): number {
  return code
    .split('\n')
    .filter((line) => !/^\s*(import|export)\b.*\bfrom\b/.test(line))
    .reduce((sum, line) => sum + [...line.matchAll(/[\w)\]}'"`>]\s+as\s+(?!const\b)[\w{[(<'"]/g)].length, 0);
}

/** Top-level property names of each `{ … }` after `at`-style openers in code-only text. */
function topLevelKeys(code: string, open: number): string[] {
  const close = closingBrace(code, open);
  const keys: string[] = [];
  let depth = 0;
  let lineStart = true;
  for (let at = open + 1; at < close; at++) {
    const char = code[at]!;
    if ('{[('.includes(char)) depth++;
    else if ('}])'.includes(char)) depth--;
    else if (depth === 0 && (lineStart || code[at - 1] === ',' || code[at - 1] === ';' || code[at - 1] === ' ')) {
      const key = /^(?:readonly\s+)?['"]?(\w+)['"]?\??\s*:/.exec(code.slice(at, at + 80));
      if (key && (lineStart || /[,;{]\s*$/.test(code.slice(open, at)))) {
        keys.push(key[1]!);
        at += key[0].length - 1;
      }
    }
    if (char === '\n') lineStart = true;
    else if (char !== ' ') lineStart = false;
  }
  return keys;
}

/** Property-name sets of JSON Schemas in TypeScript: `properties: { … }`. */
function schemaPropertySets(sources: { path: string; code: string }[]): { where: string; keys: string[] }[] {
  const sets: { where: string; keys: string[] }[] = [];
  for (const { path, code } of sources)
    for (const match of code.matchAll(/\bproperties\s*:\s*\{/g))
      sets.push({ where: `${path}:${lineAt(code, match.index)}`, keys: topLevelKeys(code, match.index + match[0].length - 1) });
  return sets;
}

/** Property-name sets of the JSON Schemas in schemas/ files (`properties` at any depth). */
function schemaFileSets(): { where: string; keys: string[] }[] {
  const sets: { where: string; keys: string[] }[] = [];
  const visit = (node: unknown, where: string) => {
    if (Array.isArray(node)) for (const item of node) visit(item, where);
    else if (node && typeof node === 'object') {
      const properties = (node as Record<string, unknown>).properties;
      if (properties && typeof properties === 'object' && !Array.isArray(properties)) sets.push({ where, keys: Object.keys(properties) });
      for (const value of Object.values(node)) visit(value, where);
    }
  };
  for (const file of walk(join(ROOT, 'schemas')).filter((f) => /\.(json|ya?ml)$/.test(f))) {
    try {
      visit(parseYaml(readFileSync(file, 'utf8')), rel(file));
    } catch {
      // A file that is not data is no schema.
    }
  }
  return sets;
}

/**
 * The comment that says a type only shares its property names with a schema of another entity (a
 * country choice `{ code, name }` is no event reference `{ code, name }`). It names that schema and
 * the reason, on the line just above the type, so a reader can check the claim.
 */
export const OTHER_ENTITY_MARK = /^\s*\/\/\s*report: not the schema at (\S+): \S.*$/;

/** Interfaces and object type aliases whose property names are exactly those of a schema. */
export function typesRepeatingSchemas(sources: { path: string; code: string; text?: string }[], extraSchemas: { where: string; keys: string[] }[] = schemaFileSets()): string[] {
  const schemas = [...schemaPropertySets(sources), ...extraSchemas].filter((s) => s.keys.length >= 2);
  const bySet = new Map<string, string>();
  for (const schema of schemas) bySet.set([...schema.keys].sort().join(','), schema.where);
  const found: string[] = [];
  for (const { path, code, text } of sources) {
    const lines = (text ?? code).split('\n');
    for (const match of code.matchAll(/\b(?:interface\s+(\w+)[^{\n]*|type\s+(\w+)\s*(?:<[^=]*>)?\s*=\s*)\{/g)) {
      const keys = topLevelKeys(code, match.index + match[0].length - 1);
      if (keys.length < 2) continue;
      const schema = bySet.get([...keys].sort().join(','));
      // Marked as another entity's shape, naming exactly the schema it coincides with.
      const mark = OTHER_ENTITY_MARK.exec(lines[lineAt(code, match.index) - 2] ?? '');
      if (schema && mark && (schema === mark[1] || schema.startsWith(`${mark[1]}:`))) continue;
      if (schema) found.push(`${path}:${lineAt(code, match.index)} ${match[1] ?? match[2]} repeats the schema at ${schema}`);
    }
  }
  return found;
}

export interface Measures {
  longFiles: string[];
  longFunctions: string[];
  duplicateBlocks: string[];
  casts: string[];
  typesRepeatingSchemas: string[];
}

export function measure(): Measures {
  const sources = codeFiles('src').map((file) => {
    const text = readFileSync(file, 'utf8');
    return { path: rel(file), text, code: codeOnly(text) };
  });
  const longFiles = sources
    .map(({ path, text }) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
    .filter((f) => f.lines > FILE_LINES_MAX)
    .sort((a, b) => b.lines - a.lines)
    .map((f) => `${f.path}: ${f.lines} lines`);
  const longFunctions = sources
    .flatMap(({ path, code }) => functionLengths(code).map((f) => ({ ...f, path })))
    .filter((f) => f.lines > FUNCTION_LINES_MAX)
    .sort((a, b) => b.lines - a.lines)
    .map((f) => `${f.path}:${f.line} ${f.name}: ${f.lines} lines`);
  const features = sources.filter((s) => s.path.startsWith(join('src', 'features')));
  const blocks = duplicateBlocks(features.map(({ path, text }) => ({ path, text })))
    .sort((a, b) => b.lines - a.lines)
    .map((b) => `${b.lines}+ lines: ${b.places.join(' ~ ')}`);
  const casts = sources
    .filter((s) => CAST_FOLDERS.some((folder) => s.path.startsWith(join(...folder.split('/')))))
    .map(({ path, code }) => ({ path, count: castCount(code) }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count)
    .map((c) => `${c.path}: ${c.count}`);
  return { longFiles, longFunctions, duplicateBlocks: blocks, casts, typesRepeatingSchemas: typesRepeatingSchemas(sources) };
}

export function printReport(measures = measure()): void {
  const total = (list: string[], counted: boolean) => (counted ? list.reduce((sum, line) => sum + Number(line.split(': ').at(-1)), 0) : list.length);
  const sections: [string, string[], boolean][] = [
    [`files over ${FILE_LINES_MAX} lines`, measures.longFiles, false],
    [`functions over ${FUNCTION_LINES_MAX} lines`, measures.longFunctions, false],
    [`identical blocks (${DUPLICATE_WINDOW}+ code lines) repeated in src/features`, measures.duplicateBlocks, false],
    [`\`as\` casts in ${CAST_FOLDERS.join(' and ')}`, measures.casts, true],
    ['hand-written types repeating a JSON Schema', measures.typesRepeatingSchemas, false],
  ];
  console.log('\nMeasures (report only):');
  for (const [title, list, counted] of sections) {
    console.log(`  ${String(total(list, counted)).padStart(4)}  ${title}`);
    for (const line of list) console.log(`          ${line}`);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) printReport();
