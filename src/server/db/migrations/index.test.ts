import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrations } from './index';

// Kysely applies migrations in name order and refuses one that sorts before an applied one, so the
// list must hold every file of this folder, in the order of their names, each number once.
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.ts$/;
const files = readdirSync(import.meta.dirname)
  .filter((file) => file !== 'index.ts' && !file.endsWith('.test.ts'))
  .sort();

describe('migrations list', () => {
  it('names every migration file of the folder, and only those', () => {
    expect(files.every((file) => MIGRATION_FILE.test(file))).toBe(true);
    expect(Object.keys(migrations).sort()).toEqual(files.map((file) => file.replace(/\.ts$/, '')));
  });

  it('lists them in the order they are applied (by name), each number once', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    const numbers = names.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('gives each name its own file’s migration', async () => {
    for (const name of Object.keys(migrations)) {
      const module = (await import(/* @vite-ignore */ `./${name}.ts`)) as { migration: unknown };
      expect(migrations[name]).toBe(module.migration);
    }
  });
});
