import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress.js';

// The API lives on the same origin (Fastify serves the built app), so the dev server proxies /oga.
export default defineConfig({
  plugins: [react(), precompress()],
  root: '.',
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    proxy: { '/oga': 'http://localhost:8080' },
  },
});
