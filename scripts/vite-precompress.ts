import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

// Every text file of the built web app gets a brotli (.br, quality 11) and a gzip
// (.gz, level 9) twin next to it, once at build, so the server sends compressed bytes without
// compressing per request (@fastify/static `preCompressed` picks the twin by Accept-Encoding).
// A twin is written only when it is smaller; fonts, images and other compressed formats are left.

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|xml|webmanifest|ico|wasm)$/i;
const MIN_BYTES = 1024;

export interface PrecompressResult {
  files: number;
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

function isFresh(twin: string, sourceModified: number): boolean {
  const twinStats = statSync(twin, { throwIfNoEntry: false });
  return twinStats !== undefined && twinStats.mtimeMs >= sourceModified;
}

export function precompressDirectory(root: string): PrecompressResult {
  const result: PrecompressResult = { files: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stats = statSync(path);
      if (stats.isDirectory()) {
        walk(path);
        continue;
      }
      if (!COMPRESSIBLE.test(name) || stats.size < MIN_BYTES) continue;
      // Earlier builds' assets stay in the folder (a running server may still name them), and
      // quality-11 brotli is slow: a twin at least as new as its file is not written again.
      if (isFresh(`${path}.br`, stats.mtimeMs) && isFresh(`${path}.gz`, stats.mtimeMs)) continue;
      const raw = readFileSync(path);
      const br = brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } });
      const gz = gzipSync(raw, { level: 9 });
      result.files += 1;
      result.rawBytes += raw.length;
      if (br.length < raw.length) writeFileSync(`${path}.br`, br);
      if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
      result.brotliBytes += Math.min(br.length, raw.length);
      result.gzipBytes += Math.min(gz.length, raw.length);
    }
  };
  walk(root);
  return result;
}

/**
 * The vite plugin: precompresses the output directory once the bundle is written and the
 * plugins that write after it (the service worker, at closeBundle) are done: a twin left from an
 * earlier build would otherwise be served in place of the new sw.js.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const { files, rawBytes, brotliBytes, gzipBytes } = precompressDirectory(outDir);
        const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
        this.info(`precompressed ${files} files: ${kib(rawBytes)} raw, ${kib(gzipBytes)} gzip, ${kib(brotliBytes)} brotli`);
      },
    },
  };
}
