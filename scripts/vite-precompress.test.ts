import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDirectory } from './vite-precompress';

// The built folder keeps earlier builds' assets, so a build compresses only what is new or rewritten.
describe('precompressDirectory', () => {
  const text = (word: string) => `export const words = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `${word} ${i}`))};\n`;

  it('compresses new files, leaves files whose twins are fresh, and redoes a rewritten file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-precompress-'));
    writeFileSync(join(dir, 'old-A1.js'), text('old'));
    writeFileSync(join(dir, 'index.html'), text('first'));
    expect(precompressDirectory(dir).files).toBe(2);
    // The first build was a while ago (file times have coarse resolution on some file systems).
    const earlier = new Date(Date.now() - 60_000);
    for (const name of readdirSync(dir)) utimesSync(join(dir, name), earlier, earlier);

    // The next build adds an asset and rewrites index.html (not hashed); its twins must follow.
    writeFileSync(join(dir, 'new-B2.js'), text('new'));
    writeFileSync(join(dir, 'index.html'), text('second'));
    expect(precompressDirectory(dir).files).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'index.html.br'))).toString()).toBe(text('second'));
    expect(precompressDirectory(dir).files).toBe(0);
  });
});
