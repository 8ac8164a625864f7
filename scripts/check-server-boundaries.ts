import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Server modules own their domain: a module imports no other module's file, types included (what
// modules share lives in src/server/lib or is a service decorated on the app), and the
// infrastructure (plugins, lib, db) imports no module at all.

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** A file's relative imports and re-exports, value or type-only alike. */
function relativeImportsOf(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\s+[\s\S]*?\sfrom\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm)].map((match) => (match[1] ?? match[2])!);
}

function resolveImport(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return base;
}

/** The boundary problems of the server under `root` (src/server), one line each. */
export function serverBoundaryProblems(root: string): string[] {
  const server = join(root, 'src', 'server');
  const modules = join(server, 'modules');
  const moduleOf = (path: string) => (path.startsWith(`${modules}/`) ? relative(modules, path).split('/')[0] : undefined);
  const problems: string[] = [];
  for (const file of walk(server).filter((path) => /\.tsx?$/.test(path) && !/\.test\.ts$/.test(path))) {
    const from = moduleOf(file);
    const infrastructure = ['plugins', 'lib', 'db'].some((part) => file.startsWith(join(server, part, '/')));
    const name = relative(root, file);
    for (const specifier of relativeImportsOf(readFileSync(file, 'utf8'))) {
      const to = moduleOf(resolveImport(file, specifier));
      if (!to) continue;
      if (from && from !== to) problems.push(`${name}: module "${from}" imports module "${to}"'s file ("${specifier}"): share it through src/server/lib or a service on the app`);
      if (infrastructure) problems.push(`${name}: infrastructure imports module "${to}" ("${specifier}")`);
    }
  }
  return problems;
}
