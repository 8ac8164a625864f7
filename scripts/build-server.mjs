#!/usr/bin/env node
// Bundles the server (src/server/main.ts and everything it imports from src/) into plain
// JavaScript under dist/server, so production runs `node dist/server/main.js` without a
// TypeScript loader: about 85 MB less resting memory and a faster start (measured: an export
// process at 83 MB instead of 168 MB). Packages stay in node_modules (not bundled).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/server', { recursive: true, force: true });

await build({
  entryPoints: ['src/server/main.ts'],
  outdir: 'dist/server',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled packages that are CommonJS need require() in an ES module.
  plugins: [
    {
      // The served form validators' runtime imports ajv's and ajv-formats' files without an extension,
      // which Node's ES module loader refuses: name the file.
      name: 'ajv-file-extension',
      setup(builder) {
        builder.onResolve({ filter: /^ajv(-formats)?\/dist\/[\w/-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
      },
    },
  ],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log('wrote dist/server/main.js');
