import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPgliteDir, openDatabase } from '../../src/server/db/connection';
import { writeExport } from '../../src/server/modules/leads/export';

// One XLSX export in a process of its own (the benchmark's child): what the export itself
// needs, without the portal's resting memory. Prints one JSON line.
//   node --import tsx scripts/bench/export-alone.ts <participationId> <offsetMinutes> <scannedBy>
// with DATABASE_URL, or DATA_DIR for the embedded database (no portal may hold it open).

const [participationId, offsetMinutes, scannedBy] = process.argv.slice(2).map(Number);
const opened = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { pgliteDir: defaultPgliteDir(process.env.DATA_DIR!) });
const dir = mkdtempSync(join(tmpdir(), 'portal-export-'));
try {
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const path = join(dir, 'leads.xlsx');
  const output = createWriteStream(path, { mode: 0o600 });
  const rows = await writeExport({
    db: opened.db,
    scope: { participationId: participationId!, offsetMinutes: offsetMinutes! },
    filters: { scannedBy },
    format: 'xlsx',
    language: 'en',
    tags: [],
    output,
  });
  await finished(output);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ rows, seconds, bytes: statSync(path).size, rssBeforeMb: rssBefore / 1048576, rssPeakMb: peak / 1048576 }));
} finally {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
}
