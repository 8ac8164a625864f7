import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress.js';
import { routePreloads } from './scripts/vite-route-preloads.js';

/** How long the assets of an earlier build stay beside the new ones. */
const EARLIER_BUILDS_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Issue 11 item 8: a build next to a running server must not break its pages. The server keeps
 * serving the index.html it started with, which names that build's assets, so the build does not
 * empty dist/web: it adds its own files beside the earlier ones and removes only assets no build
 * of the last day wrote (an asset whose content did not change is rewritten with the same name).
 */
function keepEarlierAssets(): Plugin {
  let outDir = '';
  return {
    name: 'keep-earlier-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const assetsDir = join(outDir, 'assets');
      const written = new Set(Object.keys(bundle).map((name) => resolve(outDir, name)));
      const cutoff = Date.now() - EARLIER_BUILDS_KEPT_MS;
      let names: string[] = [];
      try {
        names = readdirSync(assetsDir);
      } catch {
        return;
      }
      for (const name of names) {
        const path = join(assetsDir, name);
        if (!written.has(path) && statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
      }
    },
  };
}

// The API lives on the same origin (Fastify serves the built app), so the dev server proxies /oga.
export default defineConfig({
  plugins: [react(), keepEarlierAssets(), routePreloads(), precompress()],
  root: '.',
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    // Never emptied: a running server's pages name the previous build's assets (see above).
    emptyOutDir: false,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    proxy: { '/oga': 'http://localhost:8080' },
  },
});
