import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Projects so the test script can run them as separate, clearly reported stages.
export default defineConfig({
  test: {
    projects: [
      {
        // Pure tests (the engine, the scripts) need no DOM: the node environment spares jsdom's start-up per file.
        test: {
          name: 'unit',
          include: ['src/engine/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'unit-dom',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/server/**', 'src/engine/**'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
