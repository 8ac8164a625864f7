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

/**
 * Issue 13 (Lighthouse): how the app's libraries are split into chunks. Left to the automatic
 * splitting, MUI came in ~45 small shared chunks (a set per combination of lazy pages using
 * them): S04 started with 62 script requests, /home with 48. Over HTTP/1.1 (six connections a
 * host) each costs a round trip, and Lighthouse's simulated 40 ms RTT made the requests, not the
 * bytes, the bulk of S04's first paint. One chunk per library family instead: react (with the
 * entry), MUI with emotion and the popper (every signed-in page; a page that uses little of it
 * gets ~10 kB gzip more than it needs), and the form engine (rjsf and its validator runtime, on
 * form screens). React has the higher priority so that MUI's chunk does not take React (its
 * dependency) with it, which would make the entry, and /login, load MUI.
 */
const CHUNK_GROUPS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
  {
    name: 'mui',
    test: /node_modules[\\/](@mui|@emotion|stylis|react-is|hoist-non-react-statics|react-transition-group|@popperjs|clsx|prop-types|@babel[\\/]runtime)[\\/]/,
    priority: 1,
  },
  { name: 'form-engine', test: /node_modules[\\/](@rjsf|@x0k|markdown-to-jsx|ajv|ajv-formats|fast-uri|fast-equals|fast-deep-equal|jsonpointer)[\\/]/, priority: 1 },
];

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
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
  server: {
    port: 5173,
    proxy: { '/oga': 'http://localhost:8080' },
  },
});
