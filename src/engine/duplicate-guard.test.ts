import { describe, expect, it } from 'vitest';
import { DUPLICATE_SUBMIT_SIZE_CAP_BYTES } from './constants';
import { checkDuplicateSubmit, hashText, type KeyValueStorage } from './duplicate-guard';

const KEY = 'oem_last_request';

function mapStorage(initial: Record<string, string> = {}): KeyValueStorage & { map: Map<string, string>; writes: number } {
  const map = new Map(Object.entries(initial));
  const storage = {
    map,
    writes: 0,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => {
      storage.writes += 1;
      map.set(key, value);
    },
  };
  return storage;
}

describe('C4 duplicate-submit guard', () => {
  const save = { method: 'post', url: '/oga/forms/s01', body: { name: 'ACME', booth: 'A1' } };

  it('C4 refuses the same url and body within 1000 ms', () => {
    const storage = mapStorage();
    expect(checkDuplicateSubmit(save, storage, KEY, 10_000)).toBe('allow');
    expect(checkDuplicateSubmit({ ...save }, storage, KEY, 10_001)).toBe('duplicate');
    expect(checkDuplicateSubmit({ ...save }, storage, KEY, 10_999)).toBe('duplicate');
  });

  it('C4 allows the same request again at exactly 1000 ms', () => {
    const storage = mapStorage();
    expect(checkDuplicateSubmit(save, storage, KEY, 10_000)).toBe('allow');
    expect(checkDuplicateSubmit(save, storage, KEY, 11_000)).toBe('allow');
  });

  it('C4 compares bodies by content, not by object identity', () => {
    const storage = mapStorage();
    checkDuplicateSubmit({ method: 'put', url: '/oga/x', body: { a: 1, b: [1, 2] } }, storage, KEY, 0);
    expect(checkDuplicateSubmit({ method: 'put', url: '/oga/x', body: { a: 1, b: [1, 2] } }, storage, KEY, 500)).toBe('duplicate');
  });

  it('C4 allows a different body within the window', () => {
    const storage = mapStorage();
    checkDuplicateSubmit(save, storage, KEY, 0);
    expect(checkDuplicateSubmit({ ...save, body: { name: 'ACME', booth: 'A2' } }, storage, KEY, 100)).toBe('allow');
  });

  it('C4 allows a different url within the window', () => {
    const storage = mapStorage();
    checkDuplicateSubmit(save, storage, KEY, 0);
    expect(checkDuplicateSubmit({ ...save, url: '/oga/forms/s02' }, storage, KEY, 100)).toBe('allow');
  });

  it('C4 remembers only the last request: A, B, A within the window are all allowed', () => {
    const storage = mapStorage();
    const other = { ...save, url: '/oga/other' };
    expect(checkDuplicateSubmit(save, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit(other, storage, KEY, 100)).toBe('allow');
    expect(checkDuplicateSubmit(save, storage, KEY, 200)).toBe('allow');
    expect(checkDuplicateSubmit(save, storage, KEY, 300)).toBe('duplicate');
  });

  it('C4 treats put like post and ignores the method case', () => {
    const storage = mapStorage();
    expect(checkDuplicateSubmit({ ...save, method: 'PUT' }, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit({ ...save, method: 'POST' }, storage, KEY, 10)).toBe('duplicate');
  });

  it('C4 never checks GET (or other methods) and does not touch storage for them', () => {
    const storage = mapStorage();
    for (const method of ['get', 'GET', 'delete', 'patch']) {
      expect(checkDuplicateSubmit({ ...save, method }, storage, KEY, 0)).toBe('allow');
      expect(checkDuplicateSubmit({ ...save, method }, storage, KEY, 1)).toBe('allow');
    }
    expect(storage.writes).toBe(0);
    expect(storage.map.has(KEY)).toBe(false);
  });

  it('C4 skipDuplicateCheck lets a request through and does not record it', () => {
    const storage = mapStorage();
    checkDuplicateSubmit(save, storage, KEY, 0);
    expect(checkDuplicateSubmit({ ...save, skipDuplicateCheck: true }, storage, KEY, 10)).toBe('allow');
    expect(checkDuplicateSubmit({ ...save, skipDuplicateCheck: true }, storage, KEY, 20)).toBe('allow');
    expect(storage.writes).toBe(1);
    // The earlier, checked request is still what is remembered.
    expect(checkDuplicateSubmit(save, storage, KEY, 30)).toBe('duplicate');
  });

  it('C4 records the last request in the given storage key as url, body hash and time', () => {
    const storage = mapStorage();
    checkDuplicateSubmit(save, storage, KEY, 1234);
    expect(JSON.parse(storage.map.get(KEY)!)).toEqual({ url: '/oga/forms/s01', body: hashText(JSON.stringify(save.body)), time: 1234 });
  });

  it('C4 never keeps a body in clear text in storage (a password must not sit there)', () => {
    const storage = mapStorage();
    checkDuplicateSubmit({ method: 'POST', url: '/oga/auth/login', body: { account: 'demo', password: 'Demo-pass-2026' } }, storage, KEY, 1);
    expect(storage.map.get(KEY)).not.toContain('Demo-pass-2026');
  });

  it('C4 a storage that refuses writes does not block the submit', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(checkDuplicateSubmit(save, full, KEY, 1)).toBe('allow');
  });

  it('C4 bodyBytes given by the caller decides the 5 MB cap (files described, not read)', () => {
    const storage = mapStorage();
    const upload = { method: 'POST', url: '/oga/upload', body: 'form:file=blob:a.pdf', bodyBytes: 6 * 1024 * 1024 };
    expect(checkDuplicateSubmit(upload, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit(upload, storage, KEY, 10)).toBe('allow');
  });

  it('C4 keeps separate requests under separate storage keys', () => {
    const storage = mapStorage();
    checkDuplicateSubmit(save, storage, 'oem_a', 0);
    expect(checkDuplicateSubmit(save, storage, 'oem_b', 10)).toBe('allow');
    expect(checkDuplicateSubmit(save, storage, 'oem_a', 20)).toBe('duplicate');
  });

  it('C4 treats a string body as-is and an absent body like an empty one', () => {
    const storage = mapStorage();
    checkDuplicateSubmit({ method: 'post', url: '/oga/a', body: 'k=v' }, storage, KEY, 0);
    expect(checkDuplicateSubmit({ method: 'post', url: '/oga/a', body: 'k=v' }, storage, KEY, 10)).toBe('duplicate');
    checkDuplicateSubmit({ method: 'post', url: '/oga/b' }, storage, KEY, 2000);
    expect(checkDuplicateSubmit({ method: 'post', url: '/oga/b', body: null }, storage, KEY, 2010)).toBe('duplicate');
  });

  it('C4 skips the check for a body over 5 MB', () => {
    const storage = mapStorage();
    const big = { method: 'post', url: '/oga/upload', body: 'a'.repeat(DUPLICATE_SUBMIT_SIZE_CAP_BYTES + 1) };
    expect(checkDuplicateSubmit(big, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit(big, storage, KEY, 10)).toBe('allow');
    expect(storage.writes).toBe(0);
  });

  it('C4 still checks a body of exactly 5 MB', () => {
    const storage = mapStorage();
    const edge = { method: 'post', url: '/oga/upload', body: 'a'.repeat(DUPLICATE_SUBMIT_SIZE_CAP_BYTES) };
    expect(checkDuplicateSubmit(edge, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit(edge, storage, KEY, 10)).toBe('duplicate');
  });

  it('C4 measures the 5 MB cap in bytes, not characters', () => {
    const storage = mapStorage();
    // Two million 3-byte characters: 6 MB of UTF-8, though fewer than 5 Mi characters.
    const wide = { method: 'post', url: '/oga/upload', body: '中'.repeat(2_000_000) };
    expect(wide.body.length).toBeLessThan(DUPLICATE_SUBMIT_SIZE_CAP_BYTES);
    expect(checkDuplicateSubmit(wide, storage, KEY, 0)).toBe('allow');
    expect(checkDuplicateSubmit(wide, storage, KEY, 10)).toBe('allow');
  });

  it('C4 tolerates a corrupted stored value and overwrites it', () => {
    const storage = mapStorage({ [KEY]: '{not json' });
    expect(checkDuplicateSubmit(save, storage, KEY, 0)).toBe('allow');
    expect(JSON.parse(storage.map.get(KEY)!).time).toBe(0);
    expect(checkDuplicateSubmit(save, storage, KEY, 10)).toBe('duplicate');
  });

  it('C4 tolerates a stored value of the wrong shape', () => {
    for (const stored of ['42', '"text"', 'null', '[]', '{}']) {
      const storage = mapStorage({ [KEY]: stored });
      expect(checkDuplicateSubmit(save, storage, KEY, 0)).toBe('allow');
    }
  });
});
