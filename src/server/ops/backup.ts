import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite, defaultPgliteDir } from '../db/connection';
import { liveHolder } from '../db/data-dir-lock';
import { makePrivate } from '../db/private-files';

// Backups of the embedded database and the files beside it (uploads, exports, …), one
// tar file: db.tar.gz (PGlite's own dump of its data directory), files/<area>/…, manifest.json.
//  - online: the running server holds the database (one process), so `npm run backup` asks it
//    through DATA_DIR/control.sock (a Unix socket, private like the directory). The dump is taken
//    between two statements (PGlite runs one at a time) after a CHECKPOINT: a consistent state.
//    The files are hard-linked into a snapshot right after (they are written once, under unique
//    names), so a file deleted while the archive is written is still in it.
//  - offline: with no server running the command opens the database itself (taking its lock).
// With PostgreSQL (DATABASE_URL) use pg_dump and the file store instead (README "Backups").

export const BACKUP_FORMAT = 1;
export const CONTROL_SOCKET = 'control.sock';

/** DATA_DIR entries that are not files to keep: the database (dumped apart), mail already delivered, the lock and socket. */
const NOT_FILES = new Set(['db', 'outbox', CONTROL_SOCKET]);

export interface BackupManifest {
  format: number;
  createdAt: string;
  files: number;
}

function tar(args: string[], stdout?: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const piped = stdout ? pipeline(child.stdout!, stdout, { end: false }) : Promise.resolve();
    child.on('error', reject);
    child.on('close', (code) => {
      piped.then(() => (code === 0 ? resolve() : reject(new Error(`tar ${args[0]} failed (${code}): ${errors.trim()}`))), reject);
    });
  });
}

/** Hard-links every file under `from` into `to` (same file system: DATA_DIR); answers the count. */
function linkTree(from: string, to: string): number {
  let count = 0;
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // temporary files of a put in progress
    const source = join(from, entry.name);
    if (entry.isDirectory()) count += linkTree(source, join(to, entry.name));
    else if (entry.isFile()) {
      linkSync(source, join(to, entry.name));
      count += 1;
    }
  }
  return count;
}

/** Writes a backup of the open embedded database and DATA_DIR's files as a tar stream to `out`. */
export async function writeBackup(pglite: PGlite, dataDir: string, out: Writable): Promise<BackupManifest> {
  const staging = mkdtempSync(join(dataDir, '.backup-'));
  try {
    await pglite.exec('CHECKPOINT');
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(join(staging, 'db.tar.gz'), Buffer.from(await dump.arrayBuffer()));
    let files = 0;
    for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || NOT_FILES.has(entry.name)) continue;
      files += linkTree(join(dataDir, entry.name), join(staging, 'files', entry.name));
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), files };
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar(['-c', '-C', staging, '.'], out);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into DATA_DIR, which must hold no database yet (a fresh directory, or one
 * whose db was moved aside): the database is unpacked with PGlite itself, the files moved in.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupManifest> {
  const pgliteDir = defaultPgliteDir(dataDir);
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) {
    throw new Error(`${dataDir} already holds a database (${pgliteDir}): restore into a fresh DATA_DIR, or move that one aside first.`);
  }
  const holder = liveHolder(`${pgliteDir}.lock`);
  if (holder) throw new Error(`A server (process ${holder.pid}) is using ${dataDir}: stop it before restoring into it.`);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(join(dataDir, '.restore-'));
  try {
    await tar(['-x', '-f', file, '-C', staging]);
    const manifestFile = join(staging, 'manifest.json');
    if (!existsSync(manifestFile) || !existsSync(join(staging, 'db.tar.gz'))) throw new Error(`${file} is not a portal backup (no manifest.json or db.tar.gz in it).`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new Error(`${file} is a backup of format ${manifest.format}; this version reads format ${BACKUP_FORMAT}.`);
    mkdirSync(pgliteDir, { recursive: true, mode: 0o700 });
    const pglite = createPglite({ dataDir: pgliteDir, loadDataDir: new Blob([readFileSync(join(staging, 'db.tar.gz'))]) });
    await pglite.waitReady;
    await pglite.close();
    makePrivate(pgliteDir, { always: true });
    const filesDir = join(staging, 'files');
    if (existsSync(filesDir)) {
      for (const area of readdirSync(filesDir)) {
        const target = join(dataDir, area);
        if (!existsSync(target)) renameSync(join(filesDir, area), target);
        else for (const name of readdirSync(join(filesDir, area))) renameSync(join(filesDir, area, name), join(target, name));
      }
    }
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The running server's side of `npm run backup`: a Unix socket in DATA_DIR answering "backup"
 * with "OK\n" and the tar stream (or "ERR <why>\n").
 */
export async function listenForBackups(pglite: PGlite, dataDir: string, log: { error(o: object, m: string): void }): Promise<Server> {
  const path = join(dataDir, CONTROL_SOCKET);
  rmSync(path, { force: true }); // left by a server that crashed (the lock was free, so it is no one's)
  const server = createServer((socket: Socket) => {
    socket.once('data', (request) => {
      if (request.toString().trim() !== 'backup') {
        socket.end('ERR unknown command\n');
        return;
      }
      socket.write('OK\n');
      writeBackup(pglite, dataDir, socket).then(
        () => socket.end(),
        (error: unknown) => {
          log.error({ err: error }, 'backup failed');
          socket.destroy(error as Error);
        },
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}

/** Asks the server on DATA_DIR for a backup into `file` (written aside, renamed when whole). */
export async function requestBackup(dataDir: string, file: string): Promise<void> {
  const partial = `${file}.partial`;
  const socket = createConnection(join(dataDir, CONTROL_SOCKET));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write('backup\n');
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    await new Promise<void>((resolve, reject) => {
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const newline = head.indexOf(10);
        if (newline < 0) return;
        socket.off('data', onData);
        const status = head.subarray(0, newline).toString();
        if (status !== 'OK') return reject(new Error(`The server refused the backup: ${status.replace(/^ERR /, '')}`));
        out.write(head.subarray(newline + 1));
        pipeline(socket, out).then(resolve, reject);
      };
      socket.on('data', onData);
      socket.once('error', reject);
    });
    // A cut stream (the server stopped mid-way) fails here rather than leaving a broken backup.
    await tar(['-t', '-f', partial]);
    renameSync(partial, file);
  } catch (error) {
    socket.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Reads a backup's manifest without unpacking it. */
export async function readManifest(file: string): Promise<BackupManifest> {
  const parts: Buffer[] = [];
  await tar(['-x', '-O', '-f', file, './manifest.json'], new Writable({ write: (chunk: Buffer, _e, done) => (parts.push(chunk), done()) }));
  return JSON.parse(Buffer.concat(parts).toString()) as BackupManifest;
}
