import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES, FileTooLargeError, readWhole, type FileStoreKind } from '../../src/server/plugins/storage';
import { createTestApp, ENGINES, type TestApp } from './helpers';

// The file store on both backends (local disk, PostgreSQL chunks) and both databases:
// what is put is read back byte for byte, listed for sweeps, removed; a put that fails (too large,
// a broken source) leaves nothing behind; local files and folders are private (600/700).

const KINDS: FileStoreKind[] = ['local', 'database'];

const bytesOf = (length: number, seed = 7) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff));

async function* slowly(chunks: Buffer[], failAfter?: number) {
  for (const [index, chunk] of chunks.entries()) {
    if (failAfter !== undefined && index === failAfter) throw new Error('client went away');
    yield chunk;
  }
}

describe.each(ENGINES.flatMap((engine) => KINDS.map((kind) => [engine, kind] as const)))('file store on %s, %s', (engine, kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine, { fileStore: kind });
  });
  afterAll(() => t?.close());

  it('is the configured kind', () => {
    expect(t.app.storage.kind).toBe(kind);
  });

  it('gives back what was put, across chunk boundaries, and lists and deletes it', async () => {
    const body = bytesOf(CHUNK_BYTES * 2 + 12_345);
    // A stream in odd-sized pieces, as a network or a writer produces it.
    const pieces = [body.subarray(0, 1000), body.subarray(1000, CHUNK_BYTES + 3), body.subarray(CHUNK_BYTES + 3)];
    const { size } = await t.app.storage.put('uploads/roundtrip-1', Readable.from(slowly(pieces)));
    expect(size).toBe(body.length);
    expect((await readWhole(t.app.storage, 'uploads/roundtrip-1'))!.equals(body)).toBe(true);
    expect(await t.app.storage.stat('uploads/roundtrip-1')).toMatchObject({ key: 'uploads/roundtrip-1', size: body.length });

    await t.app.storage.put('uploads/roundtrip-2', Buffer.from('small'));
    const listed: string[] = [];
    for await (const file of t.app.storage.list('uploads')) listed.push(file.key);
    expect(listed).toEqual(expect.arrayContaining(['uploads/roundtrip-1', 'uploads/roundtrip-2']));

    await t.app.storage.delete('uploads/roundtrip-1');
    await t.app.storage.delete('uploads/roundtrip-1'); // a second delete is not an error
    expect(await t.app.storage.get('uploads/roundtrip-1')).toBeNull();
    expect(await t.app.storage.stat('uploads/roundtrip-1')).toBeNull();
    expect(await readWhole(t.app.storage, 'uploads/roundtrip-2')).toEqual(Buffer.from('small'));
  });

  it('refuses a file past its size limit and keeps nothing of it', async () => {
    await expect(t.app.storage.put('exports/too-big', bytesOf(CHUNK_BYTES + 10), { maxBytes: CHUNK_BYTES })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await t.app.storage.stat('exports/too-big')).toBeNull();
    const left: string[] = [];
    for await (const file of t.app.storage.list('exports')) left.push(file.key);
    expect(left).not.toContain('exports/too-big');
    if (kind === 'database') {
      const rows = await t.app.db.selectFrom('stored_file_chunks').select('key').where('key', '=', 'exports/too-big').execute();
      expect(rows).toEqual([]);
    }
  });

  it('keeps nothing when the source fails half-way', async () => {
    const pieces = [bytesOf(CHUNK_BYTES), bytesOf(CHUNK_BYTES), bytesOf(10)];
    await expect(t.app.storage.put('exports/broken', Readable.from(slowly(pieces, 2)))).rejects.toThrow('client went away');
    expect(await t.app.storage.get('exports/broken')).toBeNull();
    if (kind === 'local') {
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(join(t.config.dataDir, 'exports')).filter((name) => name.includes('broken') || name.startsWith('.partial'))).toEqual([]);
    } else {
      expect(await t.app.db.selectFrom('stored_files').select('key').where('key', '=', 'exports/broken').execute()).toEqual([]);
    }
  });

  it('takes every server-made name, including base64url ids that start with "-"', async () => {
    await t.app.storage.put('exports/-5sPevzOyF9lXmeApYiD_dD0VMIvBk0i.csv', Buffer.from('a,b'));
    expect(await readWhole(t.app.storage, 'exports/-5sPevzOyF9lXmeApYiD_dD0VMIvBk0i.csv')).toEqual(Buffer.from('a,b'));
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../etc/passwd', 'uploads/../../x', 'uploads/', '/abs/path', 'uploads/a/b', 'uploads/.hidden', 'uploads/..']) {
      await expect(t.app.storage.put(key, Buffer.from('x'))).rejects.toThrow('invalid storage key');
    }
  });

  it.runIf(kind === 'local')('keeps local files private to the service user (600, folders 700)', async () => {
    await t.app.storage.put('uploads/private-1', Buffer.from('secret'));
    expect(statSync(join(t.config.dataDir, 'uploads', 'private-1')).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.config.dataDir, 'uploads')).mode & 0o777).toBe(0o700);
  });
});
