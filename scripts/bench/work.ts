import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';

// On a machine shared by several engineers, wall-clock latency is mostly queueing.
// Next to it the benchmark prints the work done per operation: the portal process's CPU time
// (user + system, from /proc or process.cpuUsage) and, on PostgreSQL, the database's own
// execution time (pg_stat_statements), with the machine's load at the time.

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux everywhere we run). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) a process has used so far: another process's from /proc, ours from process.cpuUsage. */
export function cpuMs(pid?: number): number {
  if (pid === undefined || pid === process.pid) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 14th field, stime the 15th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The machine's load average over the last minute, as printed next to each figure. */
export function machineLoad(): string {
  return `load ${loadavg()[0]!.toFixed(1)}`;
}

/** Runs `work` and returns its result with the CPU ms the process `pid` spent meanwhile. */
export async function withCpu<T>(pid: number | undefined, work: () => Promise<T>): Promise<{ result: T; cpuMs: number; load: string }> {
  const before = cpuMs(pid);
  const result = await work();
  return { result, cpuMs: cpuMs(pid) - before, load: machineLoad() };
}

/**
 * The database's own execution time (pg_stat_statements, PostgreSQL started with it preloaded):
 * `reset()` before a case, `read()` after it gives the total ms of execution over the case.
 * Null when the extension is not loaded (then the figure is left out).
 */
export async function databaseTime(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
  } catch {
    await client.end();
    return null;
  }
  return {
    reset: async () => {
      await client.query('select pg_stat_statements_reset()');
    },
    /** Total execution ms of the portal's statements since the last reset (this client's own are left out). */
    read: async (): Promise<number> => {
      const result = await client.query<{ ms: string | null }>(
        `select sum(total_exec_time)::text as ms from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
            and query not ilike '%pg_stat_statements%'`,
      );
      return Number(result.rows[0]?.ms ?? 0);
    },
    close: () => client.end(),
  };
}

export type DatabaseTime = NonNullable<Awaited<ReturnType<typeof databaseTime>>>;

/** " CPU 1.23 ms/op" (+ " DB 0.45 ms/op") for a case that did `operations` operations. */
export function perOperation(operations: number, cpu: number, dbMs?: number | null): string {
  const db = dbMs === undefined || dbMs === null ? '' : `  DB ${(dbMs / operations).toFixed(2).padStart(6)} ms/op`;
  return `CPU ${(cpu / operations).toFixed(2).padStart(6)} ms/op${db}`;
}

/** Nearest-rank percentile of `values` (unsorted), `share` in 0–1 (0.95 = p95); NaN when there are none. */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
