import { DUPLICATE_SUBMIT_SIZE_CAP_BYTES, DUPLICATE_SUBMIT_WINDOW_MS } from './constants';

// C4: a POST or PUT with the same URL and body within 1000 ms of the previous one is refused.
// The last request is remembered in a storage the caller supplies (session storage in the
// browser), so the rule survives a re-render or a double click across components.

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface GuardedRequest {
  method: string;
  url: string;
  body?: unknown;
  /** The body's size when `body` is only a description of it (files in a FormData). */
  bodyBytes?: number;
  /** Per-request opt-out. */
  skipDuplicateCheck?: boolean;
}

interface RememberedRequest {
  url: string;
  /** A hash of the body: a login or password body must never sit in storage in clear text. */
  body: string;
  time: number;
}

/** A 106-bit string hash (two cyrb53 lanes): the guard only needs "same body or not". */
export function hashText(text: string): string {
  const lane = (seed: number): string => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i += 1) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  return `${lane(1)}.${lane(2)}`;
}

function serialise(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

export type GuardVerdict = 'allow' | 'duplicate';

export function checkDuplicateSubmit(request: GuardedRequest, storage: KeyValueStorage, key: string, now: number): GuardVerdict {
  const method = request.method.toLowerCase();
  if (request.skipDuplicateCheck || (method !== 'post' && method !== 'put')) return 'allow';
  const text = serialise(request.body);
  if ((request.bodyBytes ?? byteLength(text)) > DUPLICATE_SUBMIT_SIZE_CAP_BYTES) return 'allow';
  const body = hashText(text);
  let previous: RememberedRequest | null = null;
  try {
    previous = JSON.parse(storage.getItem(key) ?? 'null') as RememberedRequest | null;
  } catch {
    previous = null;
  }
  if (previous && previous.url === request.url && previous.body === body && now - previous.time < DUPLICATE_SUBMIT_WINDOW_MS) {
    return 'duplicate';
  }
  try {
    storage.setItem(key, JSON.stringify({ url: request.url, body, time: now } satisfies RememberedRequest));
  } catch {
    // Storage full or blocked: never stop a submit for that.
  }
  return 'allow';
}
