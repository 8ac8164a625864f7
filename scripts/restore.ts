import { resolve } from 'node:path';
import { embeddedOnly, loadCommandConfig } from './command-config';
import { createPrivately } from '../src/server/db/private-files';
import { restoreBackup } from '../src/server/ops/backup';

// `npm run restore -- <file>`: a backup made by `npm run backup` into DATA_DIR, which
// must not hold a database yet (a fresh directory, or move the old one aside first). Start the
// server on it afterwards: it applies any newer migrations.

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] === '--help') {
    console.error('Usage: DATA_DIR=<fresh directory> npm run restore -- <backup file>');
    return 2;
  }
  const config = loadCommandConfig();
  if (!config || !embeddedOnly(config, 'restore PostgreSQL with pg_restore')) return 2;
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
