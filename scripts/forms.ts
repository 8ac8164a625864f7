import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultPgliteDir, migrateToLatest, openDatabase } from '../src/server/db/connection';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { exportVersion, importFolder } from '../src/server/plugins/forms/transfer';
import { listVersions } from '../src/server/plugins/forms/versions';
import { loadCommandConfig } from './command-config';

// F11: the form set's versions in the database, to and from files (git):
// `npm run forms -- export <dir> [--version N]`, `npm run forms -- import <dir>`, `npm run forms -- list`.
// They use the database the server would (DATABASE_URL, else the embedded one under DATA_DIR;
// stop the server first for the embedded one). A running server on PostgreSQL serves an
// imported version within seconds.

const USAGE = `Usage:
  npm run forms -- export <dir> [--version N]
  npm run forms -- import <dir> [--comment <text>]
  npm run forms -- list

export  Writes a version (default: the one in use) as files: <dir>/forms/, <dir>/events/ (replaced
        whole) and the strings beside them in <dir>/../locales/. \`FORMS_DIR=<dir> npm run check\`
        checks it; importing <dir> again gives the same version.
import  Checks the forms in <dir> (and the locales beside it) as the server does and stores them as
        the next published version when they differ from the one in use.
list    The versions, newest first.

Environment: DATABASE_URL or DATA_DIR (database), FORMS_DIR (the strings other than the forms').`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'export' && command !== 'import' && command !== 'list') {
    const asked = !command || command === '--help' || command === 'help';
    console.error(asked ? USAGE : `Unknown command "${command}".\n\n${USAGE}`);
    return asked ? 0 : 2;
  }
  let values: { version?: string; comment?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: { version: { type: 'string' }, comment: { type: 'string' } }, allowPositionals: true, strict: true }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const dir = positionals[0] ? resolve(positionals[0]) : null;
  if (command !== 'list' && !dir) {
    console.error(`${command} needs a folder.\n\n${USAGE}`);
    return 2;
  }
  const number = values.version === undefined ? undefined : Number(values.version);
  if (number !== undefined && !(Number.isInteger(number) && number > 0)) {
    console.error(`--version must be a version number (1, 2, …), got "${values.version}".`);
    return 2;
  }
  const config = loadCommandConfig();
  if (!config) return 2;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.databaseUrl ? undefined : defaultPgliteDir(config.dataDir) });
  try {
    await migrateToLatest(database.db);
    if (command === 'list') {
      for (const version of await listVersions(database.db))
        console.log(`${version.number}\t${version.status}\t${version.createdAt.toISOString()}\t${version.source}\t${version.authorName}\t${version.comment}`);
      return 0;
    }
    if (command === 'export') {
      const exported = await exportVersion(database.db, dir!, { number, formsDir: config.formsDir });
      if (exported === null) {
        console.error(number === undefined ? 'No version is stored yet: start the server once, or import a folder.' : `There is no version ${number}.`);
        return 1;
      }
      console.log(`Version ${exported} written to ${dir} (strings in ${resolve(dir!, '..', 'locales')}).`);
      return 0;
    }
    const outcome = await importFolder(database.db, dir!, { id: null, name: process.env.USER ?? '' }, values.comment);
    if (outcome.kind === 'problems') {
      console.error(`The forms in ${dir} have problems; nothing was stored:\n${outcome.problems.map((p) => `  - ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
      return 1;
    }
    if (outcome.kind === 'published') console.log(`Stored as version ${outcome.version.number}.`);
    else console.log(`Unchanged: version ${outcome.current} has these forms already.`);
    return 0;
  } catch (error) {
    console.error(error instanceof DataDirLockedError ? error.message : `forms ${command} failed: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
