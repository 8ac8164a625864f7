import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { embeddedOnly, loadCommandConfig } from './command-config';
import { defaultPgliteDir, openDatabase } from '../src/server/db/connection';
import { DataDirLockedError, liveHolder } from '../src/server/db/data-dir-lock';
import { createPrivately } from '../src/server/db/private-files';
import { readManifest, requestBackup, writeBackup } from '../src/server/ops/backup';

// `npm run backup [-- <file>]`: the embedded database and DATA_DIR's files in one
// tar file (default portal-backup-<time>.tar), made while the server runs (through its control
// socket) or with it stopped. With DATABASE_URL: pg_dump and the file store (README "Backups").

async function main(args: string[]): Promise<number> {
  if (args.includes('--help')) {
    console.log('Usage: npm run backup [-- <file>]   (DATA_DIR names the data directory; default ./data)');
    return 0;
  }
  const config = loadCommandConfig();
  if (!config || !embeddedOnly(config, 'back up PostgreSQL with pg_dump and the file store')) return 2;
  createPrivately();
  const file = resolve(args[0] ?? `portal-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar`);
  const pgliteDir = defaultPgliteDir(config.dataDir);
  const holder = liveHolder(`${pgliteDir}.lock`);
  if (holder) {
    console.log(`The server (process ${holder.pid}) is running: asking it for the backup…`);
    await requestBackup(config.dataDir, file);
  } else {
    const opened = await openDatabase({ pgliteDir });
    const partial = `${file}.partial`;
    try {
      const out = createWriteStream(partial, { mode: 0o600 });
      await writeBackup(opened.pglite!, config.dataDir, out);
      await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
      renameSync(partial, file);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    } finally {
      await opened.close();
    }
  }
  const manifest = await readManifest(file);
  console.log(`Backup written to ${file} (database and ${manifest.files} files, ${manifest.createdAt}). Restore it with: npm run restore -- ${file}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof DataDirLockedError ? error.message : `Backup failed: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  },
);
