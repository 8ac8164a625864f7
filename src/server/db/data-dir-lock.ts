import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

// The embedded database is one process's (PGlite keeps it in memory and writes it
// back; two processes on one directory both start and lose each other's writes). A lock file
// beside it records who holds it: pid, host and the process's start time (so a pid reused after
// a crash or a reboot — or pid 1 in every container — is not taken for the old holder). A lock
// whose holder is gone is stale and taken over; a live holder makes the second process stop
// with a message saying so.

export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's start time as the kernel counts it (Linux /proc), when known. */
  processStart?: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
    what: string,
  ) {
    super(
      `${what} is in use by process ${holder.pid} on ${holder.host} (since ${holder.since}). ` +
        'The embedded database serves one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL) for several instances. ' +
        (holder.host === hostname() ? '' : `If that machine no longer runs the portal, remove ${lockFile}.`),
    );
  }
}

/** A process's start time from /proc (Linux); undefined elsewhere or when it is gone. */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the command name (field 2) may hold spaces, so count after its ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the lock's holder still runs (on this host; another host's lock is taken as live). */
function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // The pid runs; it is the holder only if it started when the holder did.
  if (holder.processStart !== undefined) {
    const start = processStartOf(holder.pid);
    if (start !== undefined && start !== holder.processStart) return false;
  }
  return true;
}

function readHolder(lockFile: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockFile, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') return { since: '?', ...parsed } as LockHolder;
    return { pid: -1, host: hostname(), since: '?' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // A torn or unreadable lock (a crash while writing it) holds nothing.
    return { pid: -1, host: hostname(), since: '?' };
  }
}

/** The holder of the lock, when a live process holds it. */
export function liveHolder(lockFile: string): LockHolder | null {
  const holder = readHolder(lockFile);
  return holder && holderAlive(holder) ? holder : null;
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/**
 * Takes the lock or throws DataDirLockedError. `what` names the locked thing in the message.
 * Stale locks are moved aside (one rename: of two processes recovering at once, one wins).
 */
export function acquireDataDirLock(lockFile: string, what: string, log?: (message: string) => void): DataDirLock {
  const me: LockHolder = { pid: process.pid, host: hostname(), processStart: processStartOf(process.pid), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      writeFileSync(lockFile, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o600 });
      return {
        file: lockFile,
        release() {
          const holder = readHolder(lockFile);
          if (holder?.pid === me.pid && holder.host === me.host) unlinkSync(lockFile);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lockFile);
    if (!holder) continue;
    if (holderAlive(holder)) throw new DataDirLockedError(lockFile, holder, what);
    const aside = `${lockFile}.stale-${process.pid}`;
    try {
      renameSync(lockFile, aside);
    } catch {
      continue; // someone else moved it first
    }
    // What was moved must be the stale lock seen; a fresh lock taken meanwhile goes back.
    const moved = readHolder(aside);
    if (moved && holderAlive(moved)) {
      try {
        renameSync(aside, lockFile);
      } catch {
        /* the live holder keeps running either way */
      }
      throw new DataDirLockedError(lockFile, moved, what);
    }
    unlinkSync(aside);
    log?.(`took over the lock of ${what} from process ${holder.pid}, which no longer runs`);
  }
  throw new Error(`could not take the lock ${lockFile}`);
}
