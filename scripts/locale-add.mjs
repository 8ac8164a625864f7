#!/usr/bin/env node
// Adds or replaces locale strings in all four languages at once:
//   node scripts/locale-add.mjs strings.json
// where strings.json is { "en": { "leads": { "title": "…" } }, "cn": {…}, "ja": {…}, "vi": {…} }.
// Nested objects are merged key by key; the files keep their two-space layout.
import { readFileSync, writeFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/locale-add.mjs <strings.json>');
  process.exit(2);
}
const patch = JSON.parse(readFileSync(file, 'utf8'));
const merge = (target, source) => {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      merge(target[key], value);
    } else target[key] = value;
  }
};
for (const [language, strings] of Object.entries(patch)) {
  const path = new URL(`../locales/${language}.json`, import.meta.url);
  const table = JSON.parse(readFileSync(path, 'utf8'));
  merge(table, strings);
  writeFileSync(path, `${JSON.stringify(table, null, 2)}\n`);
}
