import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';
import pg from 'pg';

// Starts a throw-away PostgreSQL server for the test run (initdb refuses root, so the cluster
// belongs to the postgres user when we are root). TEST_DATABASE_URL skips all of this.

function findBin(name: string): string {
  const candidates = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/18/bin'].map((d) => join(d, name));
  const found = candidates.find((c) => existsSync(c));
  if (found) return found;
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`PostgreSQL's ${name} was not found. Install it with: apt-get install -y postgresql`);
  }
}

/** Creates the database `name` on the server of `adminUrl` and answers its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface RunningPostgres {
  /** URL of the `postgres` maintenance database; tests create their own databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * `statStatements` loads pg_stat_statements (the benchmark reads the database's own time per
 * statement from it, apart from time spent queueing on a busy machine); tests do without.
 */
export async function startPostgres(options: { statStatements?: boolean; keepDir?: string; extraArgs?: string[] } = {}): Promise<RunningPostgres> {
  const asRoot = process.getuid?.() === 0;
  // `keepDir`: the cluster lives there and stays after stop (a benchmark's cached data set); made when absent.
  const dir = options.keepDir ?? mkdtempSync(join(tmpdir(), 'portal-pg-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  const dataDir = join(dir, 'data');
  const run = (bin: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' }) : execFileSync(bin, args, { stdio: 'pipe' });
  if (!options.keepDir || !existsSync(join(dataDir, 'PG_VERSION')))
    run(findBin('initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dir,
    '-h',
    '127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
    ...(options.statStatements ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : []),
    // Later settings win: a benchmark's own (e.g. production's durability settings).
    ...(options.extraArgs ?? []),
  ];
  const postgresBin = findBin('postgres');
  const child: ChildProcess = asRoot ? spawn('runuser', ['-u', 'postgres', '--', postgresBin, ...args], { stdio: 'ignore' }) : spawn(postgresBin, args, { stdio: 'ignore' });
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  const started = Date.now();
  for (;;) {
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() - started > 20_000) throw new Error(`PostgreSQL did not start: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    adminUrl,
    async stop() {
      // runuser does not pass signals on to postgres: stop the server itself with pg_ctl.
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      try {
        run(findBin('pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch {
        child.kill('SIGKILL');
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
