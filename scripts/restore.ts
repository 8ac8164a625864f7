import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../src/server/config';
import { createPrivately } from '../src/server/db/private-files';
import { restoreBackup } from '../src/server/ops/backup';

// `npm run restore -- <file>` (issue 15): a backup made by `npm run backup` into DATA_DIR, which
// must not hold a database yet (a fresh directory, or move the old one aside first). Start the
// server on it afterwards: it applies any newer migrations.

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] === '--help') {
    console.error('Usage: DATA_DIR=<fresh directory> npm run restore -- <backup file>');
    return 2;
  }
  let config;
  try {
    config = loadConfig(process.env, { seedDemo: false });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: restore PostgreSQL with pg_restore (README "Backups"); this restores the embedded database.');
    return 2;
  }
  createPrivately();
  const manifest = await restoreBackup(resolve(args[0]!), config.dataDir);
  console.log(`Restored the backup of ${manifest.createdAt} (database and ${manifest.files} files) into ${config.dataDir}.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Restore failed: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  },
);
