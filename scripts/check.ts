import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CLIENT_MESSAGES, ERRORS, SUCCESS_MESSAGES } from '../src/engine/errors';
import { flattenKeys, lookup, type LocaleTable } from '../src/engine/i18n';
import { LANGUAGES } from '../src/engine/language';
import { ROOT, loadCatalogue, readLocales } from './catalogue-source';
import { generatedFiles, staleGeneratedFiles } from './generate';
import { formProblems } from './check-forms';
import { formNamingProblems } from './check-form-names';
import { featureMapProblems } from './feature-map';
import { serverBoundaryProblems } from './check-server-boundaries';
import { openapiLintProblems } from './check-openapi';
import { printReport } from './report';

// The project's static checks, run by CI before any test: the catalogue, generated code,
// locale tables and the import rules of ARCHITECTURE.md. Prints every problem, then fails.

type Check = { name: string; run: () => string[] | Promise<string[]> };

/** Biome's findings (lint rules and formatting), one line each; `npx biome check --write` fixes most. */
function biomeProblems(): string[] {
  try {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['ci', '--colors=off', '--reporter=github'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    return [];
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    const lines = output.split('\n').filter((line) => line.startsWith('::error'));
    return lines.length > 0 ? lines : [output.trim() || String(error)];
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const sourceFiles = () => walk(join(ROOT, 'src')).filter((f) => /\.(ts|tsx)$/.test(f));
const rel = (path: string) => relative(ROOT, path);

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return base;
}

/** Which layer a file is in, for the one-way import rule engine → features → app. */
function layerOf(file: string): { layer: string; feature?: string } {
  const parts = rel(file).split('/');
  // The page loaders are generated, but they wire features into the router: app layer.
  if (rel(file) === 'src/generated/pages.ts' || rel(file) === 'src/main.tsx') return { layer: 'app' };
  if (parts[1] === 'features') return { layer: 'features', feature: parts[2] };
  return { layer: parts[1] ?? '' };
}

/** Libraries that run unchanged in the browser and in Node; everything else is off limits to the engine. */
// ajv's runtime files and ajv-formats' formats are what compiled form validators require (served-validators.ts).
// yaml is plain JavaScript (forms.yaml's loader); json-schema-to-ts is types only (form-list-schema.ts).
const ENGINE_LIBRARIES = new Set([
  'yaml',
  'json-schema-to-ts',
  'ajv',
  'ajv/dist/2020',
  'ajv-formats',
  'ajv/dist/runtime/equal',
  'ajv/dist/runtime/ucs2length',
  'ajv/dist/runtime/uri',
  'ajv-formats/dist/formats',
]);

const ALLOWED: Record<string, string[]> = {
  engine: ['engine'],
  generated: ['engine', 'generated'],
  lib: ['engine', 'lib', 'generated'],
  components: ['engine', 'lib', 'components', 'generated'],
  features: ['engine', 'lib', 'components', 'generated', 'features'],
  app: ['engine', 'lib', 'components', 'generated', 'features', 'app'],
  server: ['engine', 'generated', 'server'],
};

/**
 * Browser code reads the API through typedApi (src/lib/typed-api.ts), typed from the
 * route schemas; a call that names a hand-written answer type (`api.get<T>(…)`, or
 * `api[method]<T>(…)`, also split across lines) is refused. The API client's own file helpers (api.download) stay.
 */
/** What is wrong with the API calls in one browser file (`relPath` from the repository root), or null. */
export function untypedApiCallProblem(relPath: string, text: string): string | null {
  if (/\bapi\s*(\.\s*(get|post|put|patch|del|request)|\[[^\]]*\])\s*</.test(text))
    return `${relPath}: calls the API with a hand-written answer type (api.get<T>); call typedApi with the route's path instead`;
  // The untyped client is wired in src/lib; elsewhere every call, downloads included, names a
  // route of the OpenAPI document through typedApi so its path and query are checked.
  if (!relPath.startsWith('src/lib/') && /(?<![\w.])api\s*\.\s*(get|post|put|patch|del|request|download|upload)\s*\(/.test(text))
    return `${relPath}: calls the untyped API client (api.download(…), api.post(…)); call typedApi with the route's path instead`;
  return null;
}

export function untypedApiCallProblems(): string[] {
  return sourceFiles()
    .filter((path) => !/\.test\.tsx?$/.test(path) && !rel(path).startsWith('src/server/'))
    .map((file) => untypedApiCallProblem(rel(file), readFileSync(file, 'utf8')))
    .filter((problem): problem is string => problem !== null);
}

const checks: Check[] = [
  { name: 'screen catalogue (screens.yaml)', run: () => loadCatalogue().problems },
  {
    name: 'generated code is fresh (screens, pages, API types from the OpenAPI document, the columns of docs/features.md)',
    run: async () => {
      // --skip-api-types: for the tests that run this script to see another check (building the
      // app for the OpenAPI document takes seconds); CI and `npm run check` never pass it.
      const { files, problems } = await generatedFiles(ROOT, { skipApiTypes: process.argv.includes('--skip-api-types') });
      if (problems.length) return ['cannot generate until these are fixed:', ...problems];
      return staleGeneratedFiles(files);
    },
  },
  {
    name: 'locale tables complete in every language',
    run: () => {
      const locales = readLocales();
      const english = locales.en!;
      const englishKeys = flattenKeys(english);
      const placeholders = (text: string) =>
        [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)>/g)]
          .map((m) => m[1] ?? `<${m[2]}>`)
          .sort()
          .join(',');
      const problems: string[] = [];
      for (const language of LANGUAGES) {
        const table = locales[language]!;
        const keys = new Set(flattenKeys(table));
        for (const key of englishKeys) {
          const text = lookup(table, key);
          if (text === undefined) problems.push(`locales/${language}.json: missing "${key}"`);
          else if (text.trim() === '') problems.push(`locales/${language}.json: "${key}" is empty`);
          else if (placeholders(text) !== placeholders(lookup(english, key)!)) problems.push(`locales/${language}.json: "${key}" has other placeholders than English`);
        }
        for (const key of keys) if (lookup(english, key) === undefined) problems.push(`locales/${language}.json: "${key}" is not in en.json`);
      }
      return problems;
    },
  },
  {
    name: 'every coded message and every t("…") key exists',
    run: () => {
      const english = readLocales().en as LocaleTable;
      const keys = new Set<string>([...Object.values(ERRORS).map((e) => e.message), ...Object.values(CLIENT_MESSAGES), ...Object.values(SUCCESS_MESSAGES)]);
      const problems: string[] = [];
      for (const file of sourceFiles().filter((f) => !/\.test\.tsx?$/.test(f))) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z][\w]*(?:\.[\w]+)+)'/g)) keys.add(match[1]!);
        for (const match of text.matchAll(/i18nKey[=:]\s*\{?\s*'([\w.]+)'/g)) keys.add(match[1]!);
        for (const key of keys) {
          if (lookup(english, key) === undefined) problems.push(`${rel(file)}: key "${key}" is not in locales/en.json`);
        }
        keys.clear();
      }
      for (const key of [...Object.values(ERRORS).map((e) => e.message), ...Object.values(CLIENT_MESSAGES), ...Object.values(SUCCESS_MESSAGES)]) {
        if (lookup(english, key) === undefined) problems.push(`src/engine/errors.ts: "${key}" is not in locales/en.json`);
      }
      return [...new Set(problems)];
    },
  },
  {
    name: 'import rules (engine → features → app, no cross-feature imports, no cycles, no barrels)',
    run: () => {
      const problems: string[] = [];
      const graph = new Map<string, string[]>();
      for (const file of sourceFiles()) {
        const from = layerOf(file);
        const isTest = /\.test\.tsx?$/.test(file);
        const edges: string[] = [];
        for (const specifier of importsOf(file)) {
          if (from.layer === 'engine' && !isTest && !specifier.startsWith('.') && !ENGINE_LIBRARIES.has(specifier)) {
            problems.push(
              `${rel(file)}: the engine runs in the browser and on the server alike, so it may import only ${[...ENGINE_LIBRARIES].join(', ')}; it imports "${specifier}"`,
            );
            continue;
          }
          const target = resolveImport(file, specifier);
          if (!target) continue;
          if (!target.startsWith(join(ROOT, 'src'))) {
            const allowedOutside = target.startsWith(join(ROOT, 'locales'));
            if (!allowedOutside && !isTest) problems.push(`${rel(file)}: imports "${specifier}" from outside src/`);
            continue;
          }
          edges.push(target);
          const to = layerOf(target);
          if (!(ALLOWED[from.layer] ?? []).includes(to.layer)) problems.push(`${rel(file)}: ${from.layer} must not import ${to.layer} ("${specifier}")`);
          if (from.layer === 'features' && to.layer === 'features' && from.feature !== to.feature) {
            problems.push(`${rel(file)}: feature "${from.feature}" must not import feature "${to.feature}"`);
          }
        }
        graph.set(file, edges);
        const text = readFileSync(file, 'utf8');
        if (/\/index\.tsx?$/.test(file) && /^\s*export\s+(\*|\{[^}]*\})\s+from/m.test(text)) problems.push(`${rel(file)}: barrel file (re-exports); import modules directly`);
      }
      // Cycles, by depth-first search over relative imports (type-only imports included).
      const state = new Map<string, 'visiting' | 'done'>();
      const stack: string[] = [];
      const visit = (file: string) => {
        state.set(file, 'visiting');
        stack.push(file);
        for (const next of graph.get(file) ?? []) {
          if (state.get(next) === 'visiting') {
            const cycle = stack.slice(stack.indexOf(next)).concat(next).map(rel);
            problems.push(`import cycle: ${cycle.join(' → ')}`);
          } else if (!state.has(next) && graph.has(next)) visit(next);
        }
        stack.pop();
        state.set(file, 'done');
      };
      for (const file of graph.keys()) if (!state.has(file)) visit(file);
      return problems;
    },
  },
  {
    name: 'the OpenAPI document passes @redocly/cli lint (redocly.yaml) with no errors',
    run: () => (process.argv.includes('--skip-api-types') ? [] : openapiLintProblems()),
  },
  { name: "server boundaries (a module imports no other module's file, types included; plugins, lib and db import no module)", run: () => serverBoundaryProblems(ROOT) },
  { name: 'every requirement id used (LD1, F9, …) has its row in docs/features.md', run: () => featureMapProblems() },
  { name: 'participation forms (schemas/): registered keywords, locale keys, event patches', run: formProblems },
  { name: 'lint and format (Biome, biome.jsonc)', run: biomeProblems },
  { name: 'browser API calls typed from the route schemas', run: untypedApiCallProblems },
  { name: 'TypeScript names no form id, code or field (forms are data)', run: () => formNamingProblems() },
  {
    name: 'generated files are marked do-not-edit',
    run: () =>
      walk(join(ROOT, 'src', 'generated'))
        .filter((f) => !readFileSync(f, 'utf8').startsWith('// GENERATED'))
        .map((f) => `${rel(f)}: generated files must start with the GENERATED / DO NOT EDIT header`),
  },
];

export async function runChecks(): Promise<{ name: string; problems: string[] }[]> {
  const results = [];
  for (const check of checks) results.push({ name: check.name, problems: await check.run() });
  return results;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  let failed = 0;
  for (const { name, problems } of await runChecks()) {
    if (problems.length === 0) console.log(`ok   ${name}`);
    else {
      failed += 1;
      console.log(`FAIL ${name}\n${problems.map((p) => `       - ${p}`).join('\n')}`);
    }
  }
  // `--report` adds the code's measures (scripts/report.ts); they never fail the check.
  if (process.argv.includes('--report')) printReport();
  if (failed > 0) {
    console.error(`\n${failed} check(s) failed.`);
    process.exit(1);
  }
}
