import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { BRAND_COLOURS } from './src/app/brand.js';
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
  // Vite's preload helper rides with React: left alone it became a chunk of its own (one more
  // request on /login) once a lazy chunk without the API client (the scanner's) needed it.
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|vite[\\/]preload-helper/, priority: 2 },
  {
    name: 'mui',
    test: /node_modules[\\/](@mui|@emotion|stylis|react-is|hoist-non-react-statics|react-transition-group|@popperjs|clsx|prop-types|@babel[\\/]runtime)[\\/]/,
    priority: 1,
  },
  { name: 'form-engine', test: /node_modules[\\/](@rjsf|@x0k|markdown-to-jsx|ajv|ajv-formats|fast-uri|fast-equals|fast-deep-equal|jsonpointer)[\\/]/, priority: 1 },
];

/** The files this build wrote (earlier builds' assets stay in dist/web/assets, see above). */
const filesOfThisBuild = new Set<string>();

function recordBuildFiles(): Plugin {
  return {
    name: 'record-build-files',
    apply: 'build',
    writeBundle(_options, bundle) {
      filesOfThisBuild.clear();
      for (const name of Object.keys(bundle)) filesOfThisBuild.add(name);
    },
  };
}

/**
 * Issue 22 (LD1): the installable scanner. A web app manifest (start on the scanner, the portal's
 * colours and icons) and a Workbox service worker (/sw.js, registered by the scanner screen only)
 * that precaches this build's app shell: index.html, every script and style (the scanner's chunks
 * among them), the ZXing WebAssembly reader, the locales and the icons, so the scanner opens
 * offline once it was opened once (~0.7 MB compressed scripts plus the 1.1 MB reader, once).
 * Navigations fall back to the cached index.html, except the API's paths. No API answer is cached:
 * they carry personal data (leads, visitors) and the scanner keeps what it needs in its own queue.
 * A new version waits until no page of the portal is open (no skipWaiting): never mid-scan.
 */
const installableApp = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  // The manifest's icons are added by the plugin; the home-screen icon iOS reads from index.html too.
  includeAssets: ['icons/apple-touch-icon-180.png'],
  manifest: {
    id: '/digital-tools/scanner',
    name: 'Exhibitor Portal — LeadGrab scanner',
    short_name: 'LeadGrab',
    description: 'Scan visitor badges at your booth, online or offline.',
    start_url: '/digital-tools/scanner',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: BRAND_COLOURS.primary,
    background_color: BRAND_COLOURS.background,
    icons: [
      { src: '/icons/app-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/app-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/app-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['index.html', 'favicon.svg', 'assets/*.{js,css,wasm,woff2}'],
    globIgnores: ['**/*.br', '**/*.gz', 'demo/**'],
    // Earlier builds' assets are still in the folder: precache only what this build wrote.
    manifestTransforms: [
      async (entries) => ({
        manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || filesOfThisBuild.has(entry.url)),
        warnings: [],
      }),
    ],
    // The reader's WebAssembly is ~1.1 MB.
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/oga(\/|$)/, /\.[a-z0-9]{1,8}$/i],
    cleanupOutdatedCaches: true,
    clientsClaim: false,
    skipWaiting: false,
    runtimeCaching: [],
  },
});

// The API lives on the same origin (Fastify serves the built app), so the dev server proxies /oga.
export default defineConfig({
  plugins: [react(), keepEarlierAssets(), routePreloads(), recordBuildFiles(), installableApp, precompress()],
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
