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
  /** Per-request opt-out. */
  skipDuplicateCheck?: boolean;
}

interface RememberedRequest {
  url: string;
  body: string;
  time: number;
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
  const body = serialise(request.body);
  if (byteLength(body) > DUPLICATE_SUBMIT_SIZE_CAP_BYTES) return 'allow';
  let previous: RememberedRequest | null = null;
  try {
    previous = JSON.parse(storage.getItem(key) ?? 'null') as RememberedRequest | null;
  } catch {
    previous = null;
  }
  if (previous && previous.url === request.url && previous.body === body && now - previous.time < DUPLICATE_SUBMIT_WINDOW_MS) {
    return 'duplicate';
  }
  storage.setItem(key, JSON.stringify({ url: request.url, body, time: now } satisfies RememberedRequest));
  return 'allow';
}
