import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

// CI speed: vitest starts the files it knows nothing about (a fresh clone: no results
// cache) largest first, by bytes. The browser tests that walk the whole screen catalogue (one
// test per screen and language) are short files that take the longest, so they ran last and the
// two workers ended a few minutes apart. Those files start first; with a results cache, vitest's
// own order (longest first, from the last run's times) is kept.

/** A spec file that registers a walk over every screen of the catalogue. */
const CATALOGUE_WALK = /\b(axeWalkOf|eachScreenOnce|openScreenInApp)\(/;

class CatalogueWalksFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const walks = (spec: TestSpecification) =>
      !this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`) && CATALOGUE_WALK.test(readFileSync(spec.moduleId, 'utf8'));
    const first = sorted.filter(walks);
    return [...first, ...sorted.filter((spec) => !first.includes(spec))];
  }
}

// Projects so the test script can run them as separate, clearly reported stages.
// maxWorkers: vitest's default in a run is one worker fewer than the cores, which on CI's two
// cores ran the unit and server files one at a time (the whole CI run is faster with two). The
// projects of one command need the same value.
const WORKERS = Math.max(2, availableParallelism() - 1);

// expect.poll's own default (1 s) is a wall-clock bet that a busy CI machine loses: a condition
// that waits for a mail, a log line or a row gets the time `eventually` gives it.
const POLL = { poll: { timeout: 10_000 } };

export default defineConfig({
  test: {
    sequence: { sequencer: CatalogueWalksFirst },
    projects: [
      {
        // Pure tests (the engine, the scripts) need no DOM: the node environment spares jsdom's start-up per file.
        test: {
          name: 'unit',
          include: ['src/engine/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          maxWorkers: WORKERS,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'unit-dom',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/server/**', 'src/engine/**'],
          environment: 'jsdom',
          maxWorkers: WORKERS,
          // A whole form or editor rendered in jsdom takes seconds on a busy 2-core machine; the
          // default 5 s made such tests fail on load alone.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/global-setup.ts'],
          expect: POLL,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: WORKERS,
          // A test file's time was mostly importing the server (Fastify, ajv, PGlite, exceljs…)
          // afresh in a new fork. Every file builds its own app on its own database copy
          // (helpers.ts); the modules they share hold no per-app state (only lazily loaded
          // fonts, sharp and a dummy password hash), so a worker keeps them between files.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          expect: POLL,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
          // Each spec file starts its own portal (app, database copy, SMTP sink) and browser in
          // beforeAll, so nothing is shared through modules; importing the server afresh per file
          // cost about 5 s of each file's time on two cores.
          isolate: false,
        },
      },
    ],
  },
});
