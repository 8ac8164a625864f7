import { API_BASE, DUPLICATE_SUBMIT_SIZE_CAP_BYTES, STORAGE_KEYS, TOAST_DURATION_MS } from '../engine/constants';
import { checkDuplicateSubmit, type KeyValueStorage } from '../engine/duplicate-guard';
import { BODY_CODE, CLIENT_MESSAGES, ERRORS, isErrorId, type ErrorId } from '../engine/errors';
import { DEFAULT_LANGUAGE, isLanguage } from '../engine/language';
import type { ApiEnvelope } from '../engine/schemas/envelope';

// The browser's one way to call the API (spec §7, §8):
// - C1 base path /oga, bearer token unless `auth: false`, language header, GET params in the
//   query string, no default timeout (only the caller's signal);
// - C3 blob / arraybuffer responses returned raw, and a download helper;
// - C4 duplicate-submit guard and "busy" guard for POST/PUT;
// - E1 body codes and E2 transport errors turned into toasts, a navigation callback and an
//   ApiError rejection.
// Plain TypeScript over an injected fetch, so every rule is testable without React.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type ToastKind = 'error' | 'warning' | 'success';
export type SessionInvalidReason = 'invalidSession' | 'sessionInactive' | 'loginRequired';
export type ResponseType = 'json' | 'blob' | 'arraybuffer';

export interface ToastOptions {
  durationMs: number;
  /** The message is HTML, already sanitised by sanitizeHtml: render it as HTML. */
  html?: boolean;
}

export interface ApiClientDeps {
  /** Injected for tests; called unbound (a browser's fetch refuses another `this`). */
  fetch: typeof fetch;
  /** The login token (local storage key STORAGE_KEYS.token), or null. */
  getToken(): string | null;
  /** The stored language; anything other than en|cn|ja|vi is sent as 'en'. */
  getLanguage(): string | null | undefined;
  /** Session storage, where the duplicate guard keeps the last POST/PUT (STORAGE_KEYS.lastRequest). */
  session: KeyValueStorage;
  notify(kind: ToastKind, message: string, options: ToastOptions): void;
  translate(key: string, params?: Record<string, string | number>): string;
  /** The session is over: the app clears it and goes to /login. May be called by several requests at once. */
  onSessionInvalid(reason: SessionInvalidReason): void;
  now?: () => number;
}

export interface RequestOptions {
  params?: Record<string, unknown>;
  body?: unknown;
  /** Default true; false sends no bearer token. */
  auth?: boolean;
  /** POST/PUT only: skip the duplicate-submit and busy guards (e.g. parallel uploads to one URL). */
  skipDuplicateCheck?: boolean;
  /** Default 'json' (an envelope); 'blob' and 'arraybuffer' return the raw body. */
  responseType?: ResponseType;
  /** The only timeout there is: pass AbortSignal.timeout(ms) to get the timeout message. */
  signal?: AbortSignal;
  /** No toast; the promise still rejects (forms show errors inline). Navigation still happens. */
  silent?: boolean;
  /**
   * The request outlives the page: a reload or a navigation away right after it does not cut it off
   * (fetch's keepalive; small bodies only, the browser caps them at 64 KiB in all).
   */
  keepalive?: boolean;
}

export type ApiErrorKind =
  /** A response envelope with a body code other than 200. */
  | 'body'
  /** Network failure, timeout, HTTP status failure, or a response that is not an envelope. */
  | 'transport'
  /** C4: same POST/PUT within the duplicate window. */
  | 'duplicate'
  /** C4: a POST/PUT to the same URL is still in flight. */
  | 'busy'
  /** The caller aborted the request (not a timeout): no toast. */
  | 'aborted';

/** The client's own reasons for a failure that carries no error id of the server's table. */
export type ClientErrorId = 'network' | 'timeout' | 'status' | 'backend' | 'resubmit' | 'aborted' | 'unknownError';

export interface ApiErrorInit {
  message: string;
  kind: ApiErrorKind;
  /** Body code for 'body'; HTTP status for a status failure; otherwise 0. */
  code: number;
  errorId?: ErrorId | ClientErrorId;
  status?: number;
  data?: unknown;
  html?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number;
  /** `error` of the envelope (an id of the server's error table), or the client's own reason. */
  readonly errorId?: ErrorId | ClientErrorId;
  /** HTTP status, when there was a response. */
  readonly status?: number;
  /** `data` of the envelope. */
  readonly data?: unknown;
  /** The sanitised HTML that was shown (body code 500); `message` is its text. */
  readonly html?: string;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code;
    this.errorId = init.errorId;
    this.status = init.status;
    this.data = init.data;
    this.html = init.html;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  del<T>(path: string, options?: RequestOptions): Promise<T>;
  /** C3: GET as a blob and save it under `fileName` through an <a download>. */
  download(path: string, fileName: string, options?: RequestOptions): Promise<void>;
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** C4: a POST/PUT to this path (and params) is in flight. */
  isBusy(path: string, params?: Record<string, unknown>): boolean;
  /** Called whenever a POST/PUT starts or ends, for useSyncExternalStore. Returns an unsubscribe. */
  subscribeBusy(listener: () => void): () => void;
}

/** How long the object URL of a download lives after the click (some browsers read it late). */
export const DOWNLOAD_REVOKE_DELAY_MS = 1000;

// ---------------------------------------------------------------------------------------------
// URLs

function paramValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** GET params as a query string: undefined/null skipped, arrays repeated (`a=1&a=2`). */
export function toQueryString(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) search.append(name, paramValue(item));
    } else {
      search.append(name, paramValue(value));
    }
  }
  return search.toString();
}

/** API_BASE + path (+ query string). */
export function buildApiUrl(path: string, params?: Record<string, unknown>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  const query = toQueryString(params);
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

// ---------------------------------------------------------------------------------------------
// Bodies

function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function blobDescription(blob: Blob): string {
  const file = blob as Partial<File>;
  return `blob:${file.name ?? ''}:${blob.size}:${blob.type}:${file.lastModified ?? ''}`;
}

/**
 * What the duplicate guard compares, and the body's size: files in a FormData are described
 * (name, size, type, date) rather than read, and their sizes count towards the 5 MB cap.
 */
function bodyFingerprint(body: unknown): { text: string; bytes: number } {
  if (body === undefined || body === null) return { text: '', bytes: 0 };
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    let bytes = 0;
    const parts: string[] = [];
    body.forEach((value, name) => {
      if (typeof value === 'string') {
        bytes += utf8Length(value);
        parts.push(`${name}=${value}`);
      } else {
        bytes += value.size;
        parts.push(`${name}=${blobDescription(value)}`);
      }
    });
    return { text: `form:${parts.join('&')}`, bytes };
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob) return { text: blobDescription(body), bytes: body.size };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const view = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    if (view.length > DUPLICATE_SUBMIT_SIZE_CAP_BYTES) return { text: '', bytes: view.length };
    let text = 'bytes:';
    for (const byte of view) text += String.fromCharCode(byte);
    return { text, bytes: view.length };
  }
  if (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) {
    const text = body.toString();
    return { text, bytes: utf8Length(text) };
  }
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) {
    // A stream cannot be compared; treat it as unique.
    return { text: `stream:${Math.random()}`, bytes: 0 };
  }
  const text = JSON.stringify(body) ?? '';
  return { text, bytes: utf8Length(text) };
}

// ---------------------------------------------------------------------------------------------
// Responses

function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { code?: unknown }).code === 'number';
}

function parseEnvelope(text: string): ApiEnvelope<unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isEnvelope(value) ? value : null;
  } catch {
    return null;
  }
}

function isJsonContentType(response: Response): boolean {
  return /[/+]json\b/i.test(response.headers.get('content-type') ?? '');
}

function isTimeout(error: unknown, signal: AbortSignal | undefined): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return true;
  return name === 'AbortError' && (signal?.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

// ---------------------------------------------------------------------------------------------
// The client

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const doFetch = deps.fetch;
  const now = deps.now ?? (() => Date.now());
  /** POST/PUT in flight, by URL. */
  const inFlight = new Map<string, number>();
  const busyListeners = new Set<() => void>();

  function changeInFlight(url: string, delta: 1 | -1): void {
    const count = (inFlight.get(url) ?? 0) + delta;
    if (count > 0) inFlight.set(url, count);
    else inFlight.delete(url);
    for (const listener of [...busyListeners]) listener();
  }

  function toast(options: RequestOptions, kind: ToastKind, message: string, html = false): void {
    if (options.silent) return;
    deps.notify(kind, message, html ? { durationMs: TOAST_DURATION_MS, html: true } : { durationMs: TOAST_DURATION_MS });
  }

  function language(): string {
    let stored: string | null | undefined;
    try {
      stored = deps.getLanguage();
    } catch {
      stored = null;
    }
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  }

  function token(): string | null {
    try {
      return deps.getToken()?.trim() || null;
    } catch {
      return null;
    }
  }

  function resubmitError(kind: 'duplicate' | 'busy', options: RequestOptions): ApiError {
    const message = deps.translate(CLIENT_MESSAGES.resubmit);
    toast(options, 'warning', message);
    return new ApiError({ message, kind, code: 0, errorId: 'resubmit' });
  }

  /** E1: a body code other than 200. */
  async function bodyError(envelope: ApiEnvelope<unknown>, status: number, options: RequestOptions): Promise<ApiError> {
    const { code } = envelope;
    const serverMessage = typeof envelope.msg === 'string' && envelope.msg.trim() !== '' ? envelope.msg : undefined;
    const generic = () => deps.translate(CLIENT_MESSAGES.genericCode, { code });
    const fail = (message: string, html?: string) =>
      new ApiError({ message, kind: 'body', code, errorId: isErrorId(envelope.error) ? envelope.error : 'unknownError', status, data: envelope.data, html });

    switch (code) {
      case BODY_CODE.invalidSession: {
        const reason = envelope.error === 'sessionInactive' ? 'sessionInactive' : 'invalidSession';
        deps.onSessionInvalid(reason);
        return fail(deps.translate(ERRORS[reason].message));
      }
      case BODY_CODE.loginRequired: {
        deps.onSessionInvalid('loginRequired');
        return fail(serverMessage ?? deps.translate(ERRORS.invalidSession.message));
      }
      case BODY_CODE.noPermission: {
        const message = serverMessage ?? deps.translate(ERRORS.noPermission.message);
        toast(options, 'error', message);
        return fail(message);
      }
      case BODY_CODE.notFound: {
        const message = serverMessage ?? deps.translate(ERRORS.notFound.message);
        toast(options, 'error', message);
        return fail(message);
      }
      case BODY_CODE.serverError: {
        // Loaded on demand: the sanitiser (DOMPurify) is only needed on this rare path, and
        // keeping it out of the first download keeps /login small.
        const { htmlToText, sanitizeHtml } = await import('./sanitize-html');
        const html = serverMessage ? sanitizeHtml(serverMessage) : '';
        const text = html ? htmlToText(html) : '';
        if (!text) {
          const message = generic();
          toast(options, 'error', message);
          return fail(message);
        }
        toast(options, 'error', html, true);
        return fail(text, html);
      }
      case BODY_CODE.businessWarning: {
        const message = serverMessage ?? generic();
        toast(options, 'warning', message);
        return fail(message);
      }
      default: {
        const message = serverMessage ?? generic();
        toast(options, 'warning', message);
        return fail(message);
      }
    }
  }

  /** E2: fetch itself failed (or reading the body did). */
  function fetchError(error: unknown, options: RequestOptions): ApiError {
    if (isApiError(error)) return error;
    if (isTimeout(error, options.signal)) {
      const message = deps.translate(CLIENT_MESSAGES.timeout);
      toast(options, 'error', message);
      return new ApiError({ message, kind: 'transport', code: 0, errorId: 'timeout', cause: error });
    }
    if (isAbort(error)) {
      // The caller gave up (navigation, unmount): not something to tell the user.
      return new ApiError({ message: (error as Error).message || 'Aborted', kind: 'aborted', code: 0, errorId: 'aborted', cause: error });
    }
    const message = deps.translate(CLIENT_MESSAGES.network);
    toast(options, 'error', message);
    return new ApiError({ message, kind: 'transport', code: 0, errorId: 'network', cause: error });
  }

  /** E2: an HTTP status failure without an envelope ("…timeout. 502"). */
  function statusError(status: number, options: RequestOptions): ApiError {
    const message = `${deps.translate(CLIENT_MESSAGES.timeout)} ${status}`;
    toast(options, 'error', message);
    return new ApiError({ message, kind: 'transport', code: status, errorId: 'status', status });
  }

  /** An OK answer that is not an envelope (an HTML page where JSON was expected). */
  function backendError(status: number, options: RequestOptions): ApiError {
    const message = deps.translate(CLIENT_MESSAGES.backend);
    toast(options, 'error', message);
    return new ApiError({ message, kind: 'transport', code: 0, errorId: 'backend', status });
  }

  async function readResponse<T>(response: Response, options: RequestOptions): Promise<T> {
    const responseType = options.responseType ?? 'json';
    const status = response.status;

    if (responseType !== 'json' && response.ok) {
      // C3: raw body; only a JSON envelope carrying an error code is treated as an error.
      const blob = await response.blob();
      if (isJsonContentType(response)) {
        const envelope = parseEnvelope(await blob.text());
        if (envelope && envelope.code !== BODY_CODE.ok) throw await bodyError(envelope, status, options);
      }
      return (responseType === 'blob' ? blob : await blob.arrayBuffer()) as T;
    }

    const text = await response.text();
    const envelope = parseEnvelope(text);
    if (!response.ok) {
      // The server answers some errors with an HTTP status and an envelope (400, 413, 429, 500).
      if (envelope && envelope.code !== BODY_CODE.ok) throw await bodyError(envelope, status, options);
      throw statusError(status, options);
    }
    if (!envelope) {
      if (text.trim() === '') return undefined as T;
      throw backendError(status, options);
    }
    if (envelope.code !== BODY_CODE.ok) throw await bodyError(envelope, status, options);
    return envelope.data as T;
  }

  async function send<T>(method: HttpMethod, url: string, options: RequestOptions): Promise<T> {
    const headers = new Headers();
    const lang = language();
    headers.set('Language', lang);
    headers.set('Accept-Language', lang);
    if ((options.responseType ?? 'json') === 'json') headers.set('Accept', 'application/json');
    const bearer = options.auth === false ? null : token();
    if (bearer) headers.set('Authorization', `Bearer ${bearer}`);

    let body: BodyInit | undefined;
    if (method !== 'GET' && options.body !== undefined) {
      if (isRawBody(options.body)) {
        body = options.body; // FormData etc.: the browser sets the content type (with its boundary).
      } else {
        body = JSON.stringify(options.body);
        headers.set('Content-Type', 'application/json');
      }
    }

    let response: Response;
    try {
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal: options.signal };
      if (options.keepalive) init.keepalive = true;
      if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) init.duplex = 'half';
      response = await doFetch(url, init);
    } catch (error) {
      throw fetchError(error, options);
    }
    try {
      return await readResponse<T>(response, options);
    } catch (error) {
      throw fetchError(error, options);
    }
  }

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const verb = method.toUpperCase() as HttpMethod;
    const url = buildApiUrl(path, options.params);
    const submit = verb === 'POST' || verb === 'PUT';

    if (submit && !options.skipDuplicateCheck) {
      // C4: "submitting while data is processing is blocked".
      if (inFlight.has(url)) throw resubmitError('busy', options);
      const { text, bytes } = bodyFingerprint(options.body);
      const verdict = checkDuplicateSubmit({ method: verb, url, body: text, bodyBytes: bytes }, deps.session, STORAGE_KEYS.lastRequest, now());
      if (verdict === 'duplicate') throw resubmitError('duplicate', options);
    }

    if (!submit) return send<T>(verb, url, options);
    changeInFlight(url, 1);
    try {
      return await send<T>(verb, url, options);
    } finally {
      changeInFlight(url, -1);
    }
  }

  async function download(path: string, fileName: string, options: RequestOptions = {}): Promise<void> {
    const blob = await request<Blob>('GET', path, { ...options, responseType: 'blob' });
    const href = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = href;
    link.download = fileName;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    try {
      link.click();
    } finally {
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), DOWNLOAD_REVOKE_DELAY_MS);
    }
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    del: (path, options) => request('DELETE', path, options),
    download,
    isBusy: (path, params) => inFlight.has(buildApiUrl(path, params)),
    subscribeBusy(listener) {
      busyListeners.add(listener);
      return () => {
        busyListeners.delete(listener);
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Browser wiring helpers (the app supplies notify, translate and onSessionInvalid).

/** The login token from local storage (S3), or null when storage is unavailable. */
export function readStoredToken(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): string | null {
  try {
    return storage?.getItem(STORAGE_KEYS.token) ?? null;
  } catch {
    return null;
  }
}

/** The stored language (L4), 'en' when none or unknown. */
export function readStoredLanguage(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): string {
  try {
    const stored = storage?.getItem(STORAGE_KEYS.language);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}
