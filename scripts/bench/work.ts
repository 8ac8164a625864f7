import { readdirSync, readFileSync } from 'node:fs';
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
    /** The statements that took most execution time since the last reset: calls, total and mean ms, the text's start. */
    statements: async (limit = 6): Promise<Array<{ calls: number; totalMs: number; meanMs: number; text: string }>> => {
      const result = await client.query<{ calls: string; total: string; mean: string; query: string }>(
        `select calls::text, total_exec_time::text as total, mean_exec_time::text as mean, query from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
            and query not ilike '%pg_stat_statements%'
          order by total_exec_time desc limit $1`,
        [limit],
      );
      return result.rows.map((row) => ({
        calls: Number(row.calls),
        totalMs: Number(row.total),
        meanMs: Number(row.mean),
        text: row.query.replace(/\s+/g, ' ').slice(0, 70),
      }));
    },
    /** CPU ms of the whole PostgreSQL server so far (postgresCpuMs). */
    serverCpuMs: postgresCpuMs(Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid)),
    close: () => client.end(),
  };
}

export type DatabaseTime = NonNullable<Awaited<ReturnType<typeof databaseTime>>>;

/** A process's parent pid and CPU ms (its own, and its waited-for children's), from /proc. */
function procStat(pid: number): { ppid: number; ownMs: number; childrenMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (ticks: string | undefined) => (Number(ticks) * 1000) / TICKS_PER_SECOND;
    return { ppid: Number(fields[1]), ownMs: ms(fields[11]) + ms(fields[12]), childrenMs: ms(fields[13]) + ms(fields[14]) };
  } catch {
    return null; // the process ended meanwhile
  }
}

/**
 * CPU ms used so far by a whole PostgreSQL server (the postmaster, its backends, WAL writer,
 * checkpointer, autovacuum, and its children that ended), found from one of its backends' pids
 * (`select pg_backend_pid()`): what the database costs in core time, lock waits left out.
 */
export function postgresCpuMs(backendPid: number): () => number {
  const postmaster = procStat(backendPid)?.ppid;
  if (!postmaster) return () => 0;
  return () => {
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      const stat = pid === postmaster || procStat(pid)?.ppid === postmaster ? procStat(pid) : null;
      if (!stat) continue;
      total += stat.ownMs + (pid === postmaster ? stat.childrenMs : 0);
    }
    return total;
  };
}

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
