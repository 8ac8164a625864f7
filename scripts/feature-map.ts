import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { parse } from 'yaml';
import { type OpenApiDocument, withBuiltApp } from './api-types';
import { loadCatalogue, pagePath, ROOT } from './catalogue-source';

// docs/features.md, the requirement map: one table row per requirement id (H1, LD4, …) with a
// hand-written description and four columns found in the code base: the screens (screens.yaml),
// the API routes, the server modules and the test files that name the id. `npm run generate`
// rewrites the four columns (the descriptions, headings and prose stay as written), and
// `npm run check` fails when an id used anywhere in the code, tests or docs has no row, or when
// the columns are stale. The map is how a newcomer goes from an id in an issue to the code.

export const FEATURE_MAP = 'docs/features.md';

/** A requirement id as the code writes it: a group prefix of docs/features.md and a number without a leading zero. */
export function idPattern(prefixes: readonly string[]): RegExp {
  // Longest prefix first, so LD1 is LD1 and not L + D1. A number with a leading zero is a form
  // code (S01 … S08), not a requirement. `%E5` (URL escapes), `#E1` (colours) and `\E2` are not ids.
  const alternatives = [...prefixes].sort((a, b) => b.length - a.length).join('|');
  return new RegExp(`(?<![\\w%#\\\\])(${alternatives})([1-9]\\d?)(?!\\w)(?:\\s?[-–]\\s?(?:\\1)?([1-9]\\d?)(?!\\w))?`, 'g');
}

export interface IdUse {
  id: string;
  line: number;
}

/**
 * The requirement ids a text names, with their lines. A range ("LD1-LD4", "S3–S6") names every id
 * in it. Not an id: a whole string literal such as a booth number ('R1') and a code followed by a
 * dash and digits ('H1-01').
 */
export function idsIn(text: string, pattern: RegExp): IdUse[] {
  const uses: IdUse[] = [];
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) {
    const [whole, prefix, first, last] = match;
    const start = match.index;
    const end = start + whole.length;
    const before = text[start - 1];
    const after = text[end];
    if (before && `'"\``.includes(before) && after === before) continue;
    if (last === undefined && /^-\d/.test(text.slice(end, end + 2))) continue;
    const from = Number(first);
    const to = last !== undefined && Number(last) > from && Number(last) - from <= 20 ? Number(last) : from;
    for (let number = from; number <= to; number += 1) uses.push({ id: `${prefix}${number}`, line: lineOf(start) });
    // A second number that is no range end ("F4-2") was not an id: nothing more to record.
  }
  return uses;
}

// ---- docs/features.md --------------------------------------------------------------------------

export interface MapRow {
  id: string;
  description: string;
  /** Index of the row's line in the file. */
  line: number;
}

export interface ParsedMap {
  lines: string[];
  prefixes: string[];
  rows: MapRow[];
}

const GROUP_HEADING = /^## ([A-Z]+) — /;
const ROW = /^\| ([A-Z]+[1-9]\d?) \| (.*?) \|(?: .* \|)?$/;

/** The groups (their id prefixes, from the `## LD — leads` headings) and the rows of the map. */
export function parseFeatureMap(text: string): ParsedMap {
  const lines = text.split('\n');
  const prefixes: string[] = [];
  const rows: MapRow[] = [];
  lines.forEach((line, index) => {
    const heading = GROUP_HEADING.exec(line);
    if (heading) prefixes.push(heading[1]!);
    const row = ROW.exec(line);
    if (row) rows.push({ id: row[1]!, description: row[2]!.split(' | ')[0]!, line: index });
  });
  return { lines, prefixes, rows };
}

// ---- what the code base says about each id -------------------------------------------------------

export interface SourceFile {
  /** Path from the project root, with forward slashes. */
  path: string;
  text: string;
}

export interface RouteFact {
  method: string;
  url: string;
  /** The screen whose permission the route checks (route config `screen`). */
  screen?: string;
  /** The route file and the line of the call that registered it. */
  file: string;
  line: number;
  /** The route's OpenAPI summary and description. */
  summary: string;
}

export interface Facts {
  files: SourceFile[];
  routes: RouteFact[];
  /** Screen ids by page (`leads/LeadsPage`) and by form (`s01`), with their paths. */
  screens: Array<{ id: string; path: string; page?: string; form?: string }>;
  /** Form code (S01, VIP) → form id (s01, vip), from forms.yaml. */
  formCodes: Record<string, string>;
}

export interface Columns {
  screens: string[];
  routes: string[];
  modules: string[];
  tests: string[];
}

const isTestFile = (path: string) => /\.(test|spec)\.tsx?$/.test(path);

/** `modules/leads`, `plugins/forms`, `plugins/auth` for a server file; undefined elsewhere. */
export function serverModuleOf(path: string): string | undefined {
  const match = /^src\/server\/(modules|plugins)\/([^/.]+)/.exec(path);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/** Lines that carry no code: blank lines and comments. */
const isCommentOrBlank = (line: string) => /^\s*($|\/\/|\/\*|\*)/.test(line);

/** Where the comments right above line `line` (1-based) begin. */
function commentStart(lines: string[], line: number): number {
  let start = line;
  while (start > 1 && isCommentOrBlank(lines[start - 2]!)) start -= 1;
  return start;
}

/**
 * Each route's own text: the comments of its file's head (above the first route: what the file's
 * routes are for), the comments above its registration, the call itself and what follows it up
 * to the comments of the next route in the same file.
 */
export function routeTexts(routes: RouteFact[], fileText: (path: string) => string): Map<RouteFact, string> {
  const texts = new Map<RouteFact, string>();
  const byFile = new Map<string, RouteFact[]>();
  for (const route of routes) byFile.set(route.file, [...(byFile.get(route.file) ?? []), route]);
  for (const [file, fileRoutes] of byFile) {
    const lines = fileText(file).split('\n');
    const starts = [...new Set(fileRoutes.map((route) => route.line))].sort((a, b) => a - b);
    const head = lines
      .slice(0, commentStart(lines, starts[0]!) - 1)
      .filter((line) => /^\s*(\/\/|\/\*|\*)/.test(line))
      .join('\n');
    for (const route of fileRoutes) {
      const next = starts.find((line) => line > route.line);
      const from = commentStart(lines, route.line);
      const to = next === undefined ? lines.length : commentStart(lines, next) - 1;
      texts.set(route, `${head}\n${lines.slice(from - 1, to).join('\n')}\n${route.summary}`);
    }
  }
  return texts;
}

/** Relative imports of a browser file, resolved to project paths. */
function localImports(file: SourceFile, known: Set<string>): string[] {
  const found: string[] = [];
  for (const match of file.text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    const base = join(dirname(file.path), match[1] ?? match[2]!);
    const target = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) => known.has(candidate));
    if (target) found.push(target);
  }
  return found;
}

/** For each feature file, the screens whose page imports it (directly or through other feature files). */
function screensByFeatureFile(facts: Facts): Map<string, Set<string>> {
  const features = facts.files.filter((file) => file.path.startsWith('src/features/') && !isTestFile(file.path));
  const known = new Set(features.map((file) => file.path));
  const imports = new Map(features.map((file) => [file.path, localImports(file, known)]));
  const result = new Map<string, Set<string>>();
  for (const screen of facts.screens) {
    if (!screen.page) continue;
    const [feature, name] = screen.page.split('/');
    const seen = new Set<string>();
    const stack = [`src/features/${feature}/pages/${name}.tsx`];
    while (stack.length > 0) {
      const path = stack.pop()!;
      if (seen.has(path) || !known.has(path)) continue;
      seen.add(path);
      stack.push(...(imports.get(path) ?? []));
    }
    for (const path of seen) {
      if (!result.has(path)) result.set(path, new Set());
      result.get(path)!.add(screen.id);
    }
  }
  return result;
}

const byText = (a: string, b: string) => a.localeCompare(b, 'en');

/** The four generated columns of every id the code base names. */
export function columnsOf(facts: Facts, pattern: RegExp, descriptions: Map<string, string>): Map<string, Columns> {
  const columns = new Map<string, { screens: Set<string>; routes: Set<string>; modules: Set<string>; tests: Set<string> }>();
  const entry = (id: string) => {
    if (!columns.has(id)) columns.set(id, { screens: new Set(), routes: new Set(), modules: new Set(), tests: new Set() });
    return columns.get(id)!;
  };
  const screenById = new Map(facts.screens.map((screen) => [screen.id, screen]));
  const featureScreens = screensByFeatureFile(facts);
  for (const file of facts.files) {
    const ids = new Set(idsIn(file.text, pattern).map((use) => use.id));
    const module = serverModuleOf(file.path);
    for (const id of ids) {
      if (isTestFile(file.path)) entry(id).tests.add(file.path);
      else if (module) entry(id).modules.add(module);
      for (const screen of featureScreens.get(file.path) ?? []) entry(id).screens.add(screen);
    }
  }
  const texts = routeTexts(facts.routes, (path) => facts.files.find((file) => file.path === path)?.text ?? '');
  for (const [route, text] of texts) {
    for (const { id } of idsIn(text, pattern)) {
      const columnsOfId = entry(id);
      columnsOfId.routes.add(`${route.method} ${route.url}`);
      const module = serverModuleOf(route.file);
      if (module) columnsOfId.modules.add(module);
      if (route.screen && screenById.has(route.screen)) columnsOfId.screens.add(route.screen);
    }
  }
  // A requirement about a form (its description names the form's code: "S03 booth info") has the form's screens.
  for (const [id, description] of descriptions) {
    for (const [code, form] of Object.entries(facts.formCodes)) {
      if (!new RegExp(`(?<!\\w)${code}(?!\\w)`).test(description)) continue;
      for (const screen of facts.screens) if (screen.form === form) entry(id).screens.add(screen.id);
    }
  }
  const result = new Map<string, Columns>();
  for (const [id, sets] of columns) {
    result.set(id, {
      screens: [...sets.screens].sort(byText).map((screenId) => `\`${screenId}\` ${screenById.get(screenId)?.path ?? ''}`.trim()),
      routes: [...sets.routes].sort((a, b) => byText(a.split(' ')[1]!, b.split(' ')[1]!) || byText(a, b)).map((route) => `\`${route}\``),
      modules: [...sets.modules].sort(byText).map((module) => `\`${module}\``),
      tests: [...sets.tests].sort(byText).map((path) => `\`${path}\``),
    });
  }
  return result;
}

/** The map with every row's four columns as the code base has them now. */
export function renderFeatureMap(current: string, facts: Facts): string {
  const map = parseFeatureMap(current);
  const pattern = idPattern(map.prefixes);
  const columns = columnsOf(facts, pattern, new Map(map.rows.map((row) => [row.id, row.description])));
  const lines = [...map.lines];
  for (const row of map.rows) {
    const found = columns.get(row.id);
    const cell = (values: string[] | undefined) => (values && values.length > 0 ? values.join(', ') : '—');
    lines[row.line] = `| ${row.id} | ${row.description} | ${cell(found?.screens)} | ${cell(found?.routes)} | ${cell(found?.modules)} | ${cell(found?.tests)} |`;
  }
  return lines.join('\n');
}

/** Ids used in the files that the map has no row for, and ids with two rows. */
export function unlistedIdProblems(mapText: string, files: SourceFile[]): string[] {
  const map = parseFeatureMap(mapText);
  const pattern = idPattern(map.prefixes);
  const listed = new Set<string>();
  const problems: string[] = [];
  for (const row of map.rows) {
    if (listed.has(row.id)) problems.push(`${FEATURE_MAP}:${row.line + 1}: ${row.id} has a second row`);
    listed.add(row.id);
  }
  for (const file of files) {
    for (const use of idsIn(file.text, pattern)) {
      if (!listed.has(use.id))
        problems.push(`${file.path}:${use.line}: requirement ${use.id} is not in ${FEATURE_MAP}: correct the id, or add its row there (then \`npm run generate\`)`);
    }
  }
  return problems;
}

// ---- reading the project --------------------------------------------------------------------------

/** Where requirement ids are used: the code, its tests, scripts, forms, docs (not the map itself, locales or generated code). */
const SCANNED_DIRS = ['src', 'tests', 'scripts', 'schemas', 'docs'];
const SCANNED_ROOT_FILES = ['screens.yaml', 'README.md', 'ARCHITECTURE.md', 'CODE_STYLE.md', 'vite.config.ts', 'vitest.config.ts', 'index.html'];
const SCANNED_EXTENSIONS = /\.(ts|tsx|mjs|js|json|yaml|yml|md|sh|css|html)$/;
/** The map itself, and this script and its test, whose ids are examples. */
const NOT_SCANNED = new Set([FEATURE_MAP, 'scripts/feature-map.ts', 'scripts/feature-map.test.ts']);

function walk(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules' || path === 'src/generated') return [];
    return statSync(join(root, path)).isDirectory() ? walk(root, path) : [path];
  });
}

export function readSourceFiles(root = ROOT): SourceFile[] {
  const paths = [...SCANNED_DIRS.flatMap((dir) => walk(root, dir)), ...SCANNED_ROOT_FILES.filter((path) => existsSync(join(root, path)))];
  return paths
    .filter((path) => SCANNED_EXTENSIONS.test(path) && !NOT_SCANNED.has(path))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** The caller's place in the project for a route being registered: the first stack frame under src/server. */
function registrationSite(stack: string, root: string): { file: string; line: number } | undefined {
  for (const match of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):\d+/g)) {
    const path = relative(root, resolve(match[1]!));
    if (path.startsWith('src/server/') && !path.includes('node_modules')) return { file: path, line: Number(match[2]) };
  }
  return undefined;
}

/**
 * The app as built from this source: its OpenAPI document, and every API route with the file and
 * line that registered it. One build serves both (it takes seconds).
 */
/** One build per run and root: the generated-code check and the OpenAPI lint of `npm run check` share it. */
const builtApps = new Map<string, Promise<{ openapi: OpenApiDocument; routes: RouteFact[] }>>();

export function readBuiltApp(root = ROOT): Promise<{ openapi: OpenApiDocument; routes: RouteFact[] }> {
  let built = builtApps.get(root);
  if (!built) {
    built = buildAndRead(root);
    builtApps.set(root, built);
    built.catch(() => builtApps.delete(root));
  }
  return built;
}

async function buildAndRead(root: string): Promise<{ openapi: OpenApiDocument; routes: RouteFact[] }> {
  const routes: RouteFact[] = [];
  const onRoute = (route: RouteOptions) => {
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    const schema = (route.schema ?? {}) as { summary?: string; description?: string; hide?: boolean };
    const site = registrationSite(new Error().stack ?? '', root);
    if (!site || schema.hide || methods.length === 0) return;
    const screen = (route.config as { screen?: string } | undefined)?.screen;
    for (const method of methods)
      routes.push({ method, url: route.url, file: site.file, line: site.line, summary: `${schema.summary ?? ''}\n${schema.description ?? ''}`, ...(screen ? { screen } : {}) });
  };
  // Fastify announces each new instance on this channel: the hook is on before any route is added.
  const onInstance = (message: unknown) => (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
  subscribe('fastify.initialization', onInstance);
  try {
    const openapi = await withBuiltApp(async (app) => app.swagger() as unknown as OpenApiDocument);
    return { openapi, routes };
  } finally {
    unsubscribe('fastify.initialization', onInstance);
  }
}

export function readFacts(root: string, routes: RouteFact[]): Facts {
  const { catalogue } = loadCatalogue(root);
  const forms = (parse(readFileSync(join(root, 'schemas', 'forms', 'forms.yaml'), 'utf8')) as { forms?: Array<{ id: string; code: string }> }).forms ?? [];
  return {
    files: readSourceFiles(root),
    routes,
    screens: catalogue.screens.map((screen) => ({
      id: screen.id,
      path: screen.path,
      ...(screen.page && existsSync(pagePath(screen.page, root)) ? { page: screen.page } : {}),
      ...(screen.form ? { form: screen.form } : {}),
    })),
    formCodes: Object.fromEntries(forms.map((form) => [form.code, form.id])),
  };
}

/** docs/features.md as `npm run generate` writes it (none while the map is missing: the check says so). */
export function generatedFeatureMap(root: string, routes: RouteFact[]): Record<string, string> {
  if (!existsSync(join(root, FEATURE_MAP))) return {};
  return { [FEATURE_MAP]: renderFeatureMap(readFileSync(join(root, FEATURE_MAP), 'utf8'), readFacts(root, routes)) };
}

/** Ids used in the project but not listed in docs/features.md (no build needed). */
export function featureMapProblems(root = ROOT): string[] {
  if (!existsSync(join(root, FEATURE_MAP))) return [`${FEATURE_MAP} is missing`];
  return unlistedIdProblems(readFileSync(join(root, FEATURE_MAP), 'utf8'), readSourceFiles(root));
}
