import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { preparePglite } from '../server/global-setup';

// The browser test files share one prepared database, so the run is shorter. It is migrated and seeded once
// per run and dumped; each spec file's portal loads a fresh copy (about half a second) instead
// of migrating and seeding its own.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the gzip-compressed, migrated and seeded PGlite data directory (browser tests). */
    e2ePgliteDumpFile: string;
  }
}

export default async function setup(project: TestProject) {
  const tempDir = mkdtempSync(join(tmpdir(), 'portal-e2e-tests-'));
  const dumpFile = join(tempDir, 'pglite-seeded.tar.gz');
  await preparePglite(dumpFile);
  project.provide('e2ePgliteDumpFile', dumpFile);
  return () => rmSync(tempDir, { recursive: true, force: true });
}
