import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../lib/app-error';

// Every file the portal keeps — uploads, lead exports, generated documents — goes through one
// store, decorated as `app.storage`, so that several instances of the server can share it.
//  - local (default): files under DATA_DIR/<key>, private to the service user (600/700). One
//    instance only, or several sharing one directory.
//  - database: the bytes in PostgreSQL itself (table stored_files + chunks of 256 KiB in
//    stored_file_chunks), so several instances on one PostgreSQL serve each other's files.
// A key is "<area>/<name>" (e.g. uploads/<id>, exports/<name>): the area is a folder of the local
// store and a prefix to list for sweeps. A put is all or nothing: written aside (a temporary file,
// or chunks of a row marked incomplete), made visible only once whole, removed on any error.
// "Storage full" (ENOSPC, EDQUOT, PostgreSQL's disk_full) answers the coded error storageFull.

export type FileStoreKind = 'local' | 'database';

export interface StoredFile {
  key: string;
  size: number;
  createdAt: Date;
}

export interface PutOptions {
  /** Refuse (error `tooLarge`) once the stream passes this many bytes; nothing is kept. */
  maxBytes?: number;
}

export interface FileStorage {
  readonly kind: FileStoreKind;
  /** Stores the stream under the key (replacing nothing: keys are made unique by callers); answers its size. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>;
  /** The file's bytes, or null when there is no such (complete) file. */
  get(key: string): Promise<Readable | null>;
  stat(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Every complete file under the area, for sweeps (orphans, retention). */
  list(area: string): AsyncIterable<StoredFile>;
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

/** The keys of each kind of file, in one place (the sweeps list these areas). */
export const fileKey = {
  upload: (id: string) => `uploads/${id}`,
  leadExport: (storageName: string) => `exports/${storageName}`,
};

/** A whole (small) file in memory, or null. */
export async function readWhole(storage: FileStorage, key: string): Promise<Buffer | null> {
  const body = await storage.get(key);
  if (!body) return null;
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The stream grew past PutOptions.maxBytes. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file larger than ${maxBytes} bytes`);
  }
}

// Names are server-made (base64url ids, which may start with "-"); never "." first (no hidden or
// relative names) and no "/" (one level per area).
const KEY = /^[a-z][a-z0-9-]{0,31}\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$/;
const AREA = /^[a-z][a-z0-9-]{0,31}$/;

function checkKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
}

/** Storage-full errors of the disk and of PostgreSQL, answered as a coded "storage full". */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' || code === '53100' || code === '53000';
}

function asStorageError(error: unknown): unknown {
  return isStorageFull(error) ? new AppError('storageFull') : error;
}

/** Counts bytes and stops the pipeline past the limit. */
function byteLimit(maxBytes: number | undefined, counted: { size: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.size += chunk.length;
      if (maxBytes !== undefined && counted.size > maxBytes) done(new FileTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
}

const toStream = (body: Readable | Buffer): Readable => (Buffer.isBuffer(body) ? Readable.from([body]) : body);

export interface LocalStorageOptions {
  /** Opens the temporary file a put writes (tests point it at /dev/full to see a real ENOSPC). */
  openWrite?: (path: string) => NodeJS.WritableStream;
}

export function localStorage(root: string, options: LocalStorageOptions = {}): FileStorage {
  const openWrite = options.openWrite ?? ((path: string) => createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  const pathOf = (key: string) => {
    checkKey(key);
    return join(root, key);
  };
  const ensureDir = async (dir: string) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is masked by the umask and left alone on existing folders.
    await chmod(dir, 0o700).catch(() => undefined);
  };
  return {
    kind: 'local',
    async put(key, body, putOptions = {}) {
      const path = pathOf(key);
      await ensureDir(dirname(path)).catch((error) => {
        throw asStorageError(error);
      });
      // Written aside under a dot-name (never listed), renamed into place only when whole.
      const temporary = join(dirname(path), `.partial-${randomBytes(9).toString('base64url')}`);
      const counted = { size: 0 };
      try {
        await pipeline(toStream(body), byteLimit(putOptions.maxBytes, counted), openWrite(temporary));
        await rename(temporary, path);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw asStorageError(error);
      }
      return { size: counted.size };
    },
    async get(key) {
      const path = pathOf(key);
      const file = await stat(path).catch(() => null);
      if (!file?.isFile()) return null;
      return createReadStream(path);
    },
    async stat(key) {
      const file = await stat(pathOf(key)).catch(() => null);
      return file?.isFile() ? { key, size: file.size, createdAt: file.mtime } : null;
    },
    async delete(key) {
      await unlink(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    async *list(area) {
      if (!AREA.test(area)) throw new Error(`invalid storage area: ${area}`);
      const names = await readdir(join(root, area)).catch(() => [] as string[]);
      for (const name of names) {
        if (name.startsWith('.')) {
          // A temporary file left by a crash (older than a day) is removed here.
          const partial = await stat(join(root, area, name)).catch(() => null);
          if (partial && Date.now() - partial.mtimeMs > 86_400_000) await unlink(join(root, area, name)).catch(() => undefined);
          continue;
        }
        const file = await stat(join(root, area, name)).catch(() => null);
        if (file?.isFile()) yield { key: `${area}/${name}`, size: file.size, createdAt: file.mtime };
      }
    },
  };
}

/** Bytes per stored chunk in the database store. */
export const CHUNK_BYTES = 256 * 1024;

/** Regroups a stream into chunks of exactly CHUNK_BYTES (the last one shorter). */
async function* rechunk(source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const piece of source) {
    pending.push(piece);
    length += piece.length;
    while (length >= CHUNK_BYTES) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, CHUNK_BYTES);
      pending = [all.subarray(CHUNK_BYTES)];
      length = all.length - CHUNK_BYTES;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

function databaseStorage(db: Kysely<Database>): FileStorage {
  return {
    kind: 'database',
    async put(key, body, options = {}) {
      checkKey(key);
      // No transaction spans the upload (the embedded database is one connection): the row is
      // marked incomplete until every chunk is in, and removed with its chunks on any error.
      const counted = { size: 0 };
      let created = false;
      try {
        await db.insertInto('stored_files').values({ key, size: 0, complete: false }).execute();
        created = true;
        let seq = 0;
        const limited = toStream(body).pipe(byteLimit(options.maxBytes, counted));
        // An error of the source reaches the limiter's reader too.
        if (!Buffer.isBuffer(body)) body.once('error', (error) => limited.destroy(error));
        for await (const chunk of rechunk(limited)) {
          await db.insertInto('stored_file_chunks').values({ key, seq: seq++, data: chunk }).execute();
        }
        await db.updateTable('stored_files').set({ size: counted.size, complete: true }).where('key', '=', key).execute();
      } catch (error) {
        if (created)
          await db
            .deleteFrom('stored_files')
            .where('key', '=', key)
            .execute()
            .catch(() => undefined);
        throw asStorageError(error);
      }
      return { size: counted.size };
    },
    async get(key) {
      checkKey(key);
      const file = await db.selectFrom('stored_files').select(['size']).where('key', '=', key).where('complete', '=', true).executeTakeFirst();
      if (!file) return null;
      // One chunk read at a time, as the reader asks for it.
      async function* chunks() {
        for (let seq = 0; ; seq++) {
          const row = await db.selectFrom('stored_file_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
          if (!row) return;
          yield Buffer.from(row.data);
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },
    async stat(key) {
      checkKey(key);
      const row = await db.selectFrom('stored_files').select(['size', 'created_at']).where('key', '=', key).where('complete', '=', true).executeTakeFirst();
      return row ? { key, size: Number(row.size), createdAt: new Date(row.created_at) } : null;
    },
    async delete(key) {
      checkKey(key);
      await db.deleteFrom('stored_files').where('key', '=', key).execute();
    },
    async *list(area) {
      if (!AREA.test(area)) throw new Error(`invalid storage area: ${area}`);
      // Puts that never completed (a crashed instance) are removed after a day.
      await db.deleteFrom('stored_files').where('key', 'like', `${area}/%`).where('complete', '=', false).where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
      let after = '';
      for (;;) {
        const rows = await db
          .selectFrom('stored_files')
          .select(['key', 'size', 'created_at'])
          .where('key', 'like', `${area}/%`)
          .where('key', '>', after)
          .where('complete', '=', true)
          .orderBy('key')
          .limit(500)
          .execute();
        for (const row of rows) yield { key: row.key, size: Number(row.size), createdAt: new Date(row.created_at) };
        if (rows.length < 500) return;
        after = rows[rows.length - 1]!.key;
      }
    },
  };
}

export default fp(
  async (app, options: { kind: FileStoreKind; dataDir: string }) => {
    if (options.kind === 'local') {
      await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    }
    app.decorate('storage', options.kind === 'database' ? databaseStorage(app.db) : localStorage(options.dataDir));
  },
  { name: 'storage', dependencies: ['database'] },
);
