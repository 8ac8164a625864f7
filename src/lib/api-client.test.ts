import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../engine/constants';
import type { KeyValueStorage } from '../engine/duplicate-guard';
import { interpolate } from '../engine/i18n';
import { ApiError, createApiClient, readStoredLanguage, readStoredToken, type ApiClientDeps, type SessionInvalidReason, type ToastOptions } from './api-client';

// English texts of spec §8 (the locale tables are not written yet; the client only sees keys).
const TEXTS: Record<string, string> = {
  'errors.network': 'Connection failed. Please contact support for further inquiry.',
  'errors.backend': 'Abnormal backend interface connection.',
  'errors.timeout': 'System interface request timeout.',
  'errors.invalidSession': 'Invalid session.',
  'errors.sessionInactive': 'Due to inactivity, your session has ended. Please log in again to continue.',
  'errors.resubmit': 'Data is being processed, please do not resubmit.',
  'errors.noPermission': 'The current operation has no permission.',
  'errors.notFound': 'The resource does not exist.',
  'errors.genericCode': 'Request failed with error code {{code}}.',
};

interface Toast {
  kind: string;
  message: string;
  options: ToastOptions;
}

class MemoryStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

function json(body: unknown, status = 200, contentType = 'application/json;charset=utf-8'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

type FetchImpl = (url: string, init: RequestInit) => Promise<Response>;

function setup(options: { fetch?: FetchImpl; token?: string | null; language?: string | null } = {}) {
  let clock = 1_000_000;
  const toasts: Toast[] = [];
  const sessionEvents: SessionInvalidReason[] = [];
  const session = new MemoryStorage();
  const fetchMock = vi.fn<FetchImpl>(options.fetch ?? (async () => json({ code: 200, msg: 'ok', data: { ok: true } })));
  const deps: ApiClientDeps = {
    fetch: fetchMock as unknown as typeof fetch,
    getToken: () => (options.token === undefined ? 'tok-123' : options.token),
    getLanguage: () => (options.language === undefined ? 'cn' : options.language),
    session,
    notify: (kind, message, toastOptions) => toasts.push({ kind, message, options: toastOptions }),
    translate: (key, params) => interpolate(TEXTS[key] ?? key, params),
    onSessionInvalid: (reason) => sessionEvents.push(reason),
    now: () => clock,
  };
  const api = createApiClient(deps);
  return {
    api,
    fetchMock,
    toasts,
    sessionEvents,
    session,
    advance: (ms: number) => {
      clock += ms;
    },
    call: (index = 0) => {
      const [url, init] = fetchMock.mock.calls[index]!;
      return { url, init, headers: new Headers(init.headers) };
    },
  };
}

/** Runs a call that must reject and returns the ApiError. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to reject');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('C1 requests: base path, headers, query string', () => {
  it('C1 sends every call to /oga + path with bearer token and language headers', async () => {
    const t = setup({ token: 'tok-123', language: 'ja' });
    const data = await t.api.get<{ ok: boolean }>('/system/project/exhibirotCode');
    expect(data).toEqual({ ok: true });
    const { url, init, headers } = t.call();
    expect(url).toBe('/oga/system/project/exhibirotCode');
    expect(init.method).toBe('GET');
    expect(headers.get('authorization')).toBe('Bearer tok-123');
    expect(headers.get('language')).toBe('ja');
    expect(headers.get('accept-language')).toBe('ja');
  });

  it('C1 a path without a leading slash still goes under /oga', async () => {
    const t = setup();
    await t.api.get('system/content/content/7');
    expect(t.call().url).toBe('/oga/system/content/content/7');
  });

  it('C1 auth:false sends no bearer token, but still the language', async () => {
    const t = setup({ token: 'tok-123' });
    await t.api.post('/login', { account: 'a' }, { auth: false });
    expect(t.call().headers.has('authorization')).toBe(false);
    expect(t.call().headers.get('language')).toBe('cn');
  });

  it('C1 without a stored token no Authorization header is sent', async () => {
    const t = setup({ token: null });
    await t.api.get('/system/project/findAll');
    expect(t.call().headers.has('authorization')).toBe(false);
  });

  it.each([
    [null, 'en'],
    ['', 'en'],
    ['fr', 'en'],
    ['vi', 'vi'],
  ])('C1/L4 stored language %j is sent as %j', async (stored, sent) => {
    const t = setup({ language: stored });
    await t.api.get('/x');
    expect(t.call().headers.get('language')).toBe(sent);
  });

  it('C1 GET params go to the query string: undefined/null skipped, arrays repeated, values encoded', async () => {
    const t = setup();
    await t.api.get('/system/project/exhibirotCodeOrNum', {
      params: { exhibitCode: 'EX 1&2', page: 1, limit: 20, empty: undefined, none: null, status: ['draft', 'submitted'], flag: false },
    });
    const { url, init } = t.call();
    expect(url).toBe('/oga/system/project/exhibirotCodeOrNum?exhibitCode=EX+1%262&page=1&limit=20&status=draft&status=submitted&flag=false');
    expect(init.body).toBeUndefined();
  });

  it('C1 params are appended to a path that already has a query', async () => {
    const t = setup();
    await t.api.get('/search?keyword=a', { params: { page: 2 } });
    expect(t.call().url).toBe('/oga/search?keyword=a&page=2');
  });

  it('C1 JSON bodies are serialised with content-type application/json', async () => {
    const t = setup();
    await t.api.put('/forms/s01', { name: 'Acme', tags: [1, 2] });
    const { init, headers } = t.call();
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"name":"Acme","tags":[1,2]}');
    expect(headers.get('content-type')).toBe('application/json');
  });

  it('C1 FormData is passed as is, letting the browser set the multipart content type', async () => {
    const t = setup();
    const form = new FormData();
    form.append('file', new File(['abc'], 'logo.jpg', { type: 'image/jpeg' }));
    await t.api.post('/upload', form);
    const { init, headers } = t.call();
    expect(init.body).toBe(form);
    expect(headers.has('content-type')).toBe(false);
  });

  it('C1 DELETE uses the DELETE method and resolves data', async () => {
    const t = setup({ fetch: async () => json({ code: 200, data: 'gone' }) });
    await expect(t.api.del('/tags/3')).resolves.toBe('gone');
    expect(t.call().init.method).toBe('DELETE');
  });

  it('C1 no default timeout: only the caller signal is passed to fetch', async () => {
    const t = setup();
    await t.api.get('/a');
    expect(t.call().init.signal).toBeUndefined();
    const controller = new AbortController();
    await t.api.get('/b', { signal: controller.signal });
    expect(t.call(1).init.signal).toBe(controller.signal);
  });

  it('C1 calls fetch unbound, as a browser fetch requires', async () => {
    const t = setup({
      fetch: async function (this: unknown) {
        if (this !== undefined && this !== globalThis) throw new TypeError("Failed to execute 'fetch': Illegal invocation");
        return json({ code: 200, data: 1 });
      },
    });
    await expect(t.api.get('/a')).resolves.toBe(1);
    expect(t.toasts).toEqual([]);
  });
});

describe('E1 body codes', () => {
  it('E1 code 200 resolves data without any toast', async () => {
    const t = setup({ fetch: async () => json({ code: 200, msg: 'success', data: { exhibitorName: 'Acme' } }) });
    await expect(t.api.get('/system/project/exhibirotCode')).resolves.toEqual({ exhibitorName: 'Acme' });
    expect(t.toasts).toEqual([]);
    expect(t.sessionEvents).toEqual([]);
  });

  it('E1 code 401 goes to /login and rejects with "Invalid session."', async () => {
    const t = setup({ fetch: async () => json({ code: 401, msg: 'whatever', error: 'invalidSession', data: null }) });
    const error = await failure(t.api.get('/system/project/exhibirotCode'));
    expect(t.sessionEvents).toEqual(['invalidSession']);
    expect(error.message).toBe('Invalid session.');
    expect(error).toMatchObject({ kind: 'body', code: 401, errorId: 'invalidSession' });
  });

  it('E1/S5 code 401 with error sessionInactive goes to /login with the inactivity text', async () => {
    const t = setup({ fetch: async () => json({ code: 401, error: 'sessionInactive', data: null }, 401) });
    const error = await failure(t.api.get('/x'));
    expect(t.sessionEvents).toEqual(['sessionInactive']);
    expect(error.message).toBe('Due to inactivity, your session has ended. Please log in again to continue.');
  });

  it('E1 code 501 goes to /login and rejects', async () => {
    const t = setup({ fetch: async () => json({ code: 501, data: null }) });
    const error = await failure(t.api.get('/x'));
    expect(t.sessionEvents).toEqual(['loginRequired']);
    expect(error.code).toBe(501);
    expect(error.message).toBe('Invalid session.');
  });

  it('E1 code 403 shows the server message as an error toast for 5 s', async () => {
    const t = setup({ fetch: async () => json({ code: 403, msg: 'Module Leads is not enabled.', error: 'noPermission', data: null }) });
    const error = await failure(t.api.get('/leads'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Module Leads is not enabled.', options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ code: 403, errorId: 'noPermission', message: 'Module Leads is not enabled.' });
    expect(t.sessionEvents).toEqual([]);
  });

  it('E1 code 403 without a message shows the no-permission text', async () => {
    const t = setup({ fetch: async () => json({ code: 403, data: null }) });
    const error = await failure(t.api.get('/leads'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'The current operation has no permission.', options: { durationMs: 5000 } }]);
    expect(error.message).toBe('The current operation has no permission.');
  });

  it('E1 code 404 shows the server message, or the not-found text when there is none', async () => {
    const t = setup({
      fetch: vi
        .fn<FetchImpl>()
        .mockResolvedValueOnce(json({ code: 404, msg: 'Manual 9 does not exist.', data: null }))
        .mockResolvedValueOnce(json({ code: 404, msg: '  ', data: null })),
    });
    expect((await failure(t.api.get('/manuals/9'))).message).toBe('Manual 9 does not exist.');
    expect((await failure(t.api.get('/manuals/9'))).message).toBe('The resource does not exist.');
    expect(t.toasts.map((toast) => [toast.kind, toast.message])).toEqual([
      ['error', 'Manual 9 does not exist.'],
      ['error', 'The resource does not exist.'],
    ]);
  });

  it('E1 code 500 shows the server HTML message, sanitised, as an HTML error toast', async () => {
    const t = setup({
      fetch: async () =>
        json(
          { code: 500, msg: 'Saving <b>failed</b><script>alert(1)</script><img src=x onerror=alert(2)><br><a href="javascript:alert(3)">retry</a>', error: 'internal', data: null },
          500,
        ),
    });
    const error = await failure(t.api.post('/forms/s01', { a: 1 }));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Saving <b>failed</b><br><a>retry</a>', options: { durationMs: 5000, html: true } }]);
    expect(error.message).toBe('Saving failed\nretry');
    expect(error.html).toBe('Saving <b>failed</b><br><a>retry</a>');
    expect(error).toMatchObject({ kind: 'body', code: 500, errorId: 'internal', status: 500 });
  });

  it('E1 code 500 without a message shows the generic code text', async () => {
    const t = setup({ fetch: async () => json({ code: 500, data: null }) });
    const error = await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Request failed with error code 500.', options: { durationMs: 5000 } }]);
    expect(error.message).toBe('Request failed with error code 500.');
  });

  it('E1 code 500 whose message is only markup falls back to the generic code text', async () => {
    const t = setup({ fetch: async () => json({ code: 500, msg: '<script>alert(1)</script>', data: null }) });
    await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Request failed with error code 500.', options: { durationMs: 5000 } }]);
  });

  it('E1 code 601 shows the server message as a warning toast and rejects with code, id and data', async () => {
    const t = setup({
      fetch: async () => json({ code: 601, msg: 'Quota is not enough!', error: 'quotaNotEnough', data: { left: 0 } }),
    });
    const error = await failure(t.api.post('/badges', { n: 3 }));
    expect(t.toasts).toEqual([{ kind: 'warning', message: 'Quota is not enough!', options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ kind: 'body', code: 601, errorId: 'quotaNotEnough', data: { left: 0 }, message: 'Quota is not enough!' });
  });

  it('E1 code 601 without a message shows the generic code text', async () => {
    const t = setup({ fetch: async () => json({ code: 601, data: null }) });
    await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'warning', message: 'Request failed with error code 601.', options: { durationMs: 5000 } }]);
  });

  it('E1 any other non-200 code shows a warning toast for 5 s with the server message', async () => {
    const t = setup({ fetch: async () => json({ code: 409, msg: 'The tag already exists, please do not add it again.', data: null }) });
    const error = await failure(t.api.post('/tags', { name: 'VIP' }));
    expect(t.toasts).toEqual([{ kind: 'warning', message: 'The tag already exists, please do not add it again.', options: { durationMs: 5000 } }]);
    expect(error.code).toBe(409);
  });

  it('E1 any other non-200 code without a message shows the generic text with the code', async () => {
    const t = setup({ fetch: async () => json({ code: 702, data: null }) });
    const error = await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'warning', message: 'Request failed with error code 702.', options: { durationMs: 5000 } }]);
    expect(error.message).toBe('Request failed with error code 702.');
  });

  it.each([
    [400, 601, 'Bad request.'],
    [413, 601, 'File too large.'],
    [429, 601, 'Too many attempts.'],
  ])('E1 HTTP %i with an envelope is handled by its body code %i', async (status, code, msg) => {
    const t = setup({ fetch: async () => json({ code, msg, error: 'x', data: null }, status) });
    const error = await failure(t.api.post('/login', { a: 1 }, { auth: false }));
    expect(t.toasts).toEqual([{ kind: 'warning', message: msg, options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ kind: 'body', code, status });
  });

  it('E1 silent: no toast, but the call still rejects with the message and still goes to /login on 401', async () => {
    const t = setup({
      fetch: vi
        .fn<FetchImpl>()
        .mockResolvedValueOnce(json({ code: 601, msg: 'The two password inputs are inconsistent', data: null }))
        .mockResolvedValueOnce(json({ code: 401, data: null })),
    });
    const error = await failure(t.api.put('/account/password', { a: 1 }, { silent: true }));
    expect(error.message).toBe('The two password inputs are inconsistent');
    await failure(t.api.get('/x', { silent: true }));
    expect(t.toasts).toEqual([]);
    expect(t.sessionEvents).toEqual(['invalidSession']);
  });
});

describe('E2 transport errors', () => {
  it('E2 a network failure shows the connection-failed text as an error toast for 5 s', async () => {
    const t = setup({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Connection failed. Please contact support for further inquiry.', options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ kind: 'transport', errorId: 'network', message: 'Connection failed. Please contact support for further inquiry.' });
  });

  it('E2 "Network Error" (any other thrown error) is the network text too', async () => {
    const t = setup({
      fetch: async () => {
        throw new Error('Network Error');
      },
    });
    await failure(t.api.get('/x'));
    expect(t.toasts.map((toast) => toast.message)).toEqual(['Connection failed. Please contact support for further inquiry.']);
  });

  it('E2 a timeout (AbortSignal.timeout) shows the timeout text', async () => {
    const t = setup({
      fetch: async () => {
        throw new DOMException('The operation timed out.', 'TimeoutError');
      },
    });
    const error = await failure(t.api.get('/x', { signal: AbortSignal.timeout(10_000) }));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'System interface request timeout.', options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ kind: 'transport', errorId: 'timeout' });
  });

  it('E2 an AbortError whose signal reason is a timeout shows the timeout text', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('late', 'TimeoutError'));
    const t = setup({
      fetch: async () => {
        throw new DOMException('This operation was aborted', 'AbortError');
      },
    });
    await failure(t.api.get('/x', { signal: controller.signal }));
    expect(t.toasts.map((toast) => toast.message)).toEqual(['System interface request timeout.']);
  });

  it('E2 a plain abort by the caller (unmount, navigation) rejects without a toast', async () => {
    const controller = new AbortController();
    controller.abort();
    const t = setup({
      fetch: async () => {
        throw new DOMException('This operation was aborted', 'AbortError');
      },
    });
    const error = await failure(t.api.get('/x', { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(t.toasts).toEqual([]);
  });

  it('E2 an HTTP status failure without an envelope shows the timeout text plus the status', async () => {
    const t = setup({
      fetch: async () => new Response('<html><body>Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    const error = await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'System interface request timeout. 502', options: { durationMs: 5000 } }]);
    expect(error).toMatchObject({ kind: 'transport', code: 502, status: 502, message: 'System interface request timeout. 502' });
  });

  it('E2 an HTTP 500 with JSON that is not an envelope is a status failure', async () => {
    const t = setup({ fetch: async () => json({ statusCode: 500, message: 'boom' }, 500) });
    await failure(t.api.get('/x'));
    expect(t.toasts.map((toast) => toast.message)).toEqual(['System interface request timeout. 500']);
  });

  it('E2 an HTTP 200 that is not an envelope (an HTML page) shows the backend text', async () => {
    const t = setup({ fetch: async () => new Response('<!doctype html><title>app</title>', { status: 200, headers: { 'content-type': 'text/html' } }) });
    const error = await failure(t.api.get('/x'));
    expect(t.toasts).toEqual([{ kind: 'error', message: 'Abnormal backend interface connection.', options: { durationMs: 5000 } }]);
    expect(error.errorId).toBe('backend');
  });

  it('E2 the body breaking off while being read is a network failure', async () => {
    const stream = new ReadableStream({
      pull(controller) {
        controller.error(new TypeError('terminated'));
      },
    });
    const t = setup({ fetch: async () => new Response(stream, { status: 200, headers: { 'content-type': 'application/json' } }) });
    await failure(t.api.get('/x'));
    expect(t.toasts.map((toast) => toast.message)).toEqual(['Connection failed. Please contact support for further inquiry.']);
  });

  it('E2 silent suppresses the transport toast too', async () => {
    const t = setup({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await failure(t.api.get('/x', { silent: true }));
    expect(t.toasts).toEqual([]);
  });
});

describe('C4 duplicate-submit guard', () => {
  const RESUBMIT = { kind: 'warning', message: 'Data is being processed, please do not resubmit.', options: { durationMs: 5000 } };

  it('C4 the same POST (URL and body) within 1000 ms is rejected with a warning, without calling fetch', async () => {
    const t = setup();
    await t.api.post('/forms/s01/submit', { a: 1 });
    t.advance(999);
    const error = await failure(t.api.post('/forms/s01/submit', { a: 1 }));
    expect(error).toMatchObject({ kind: 'duplicate', message: 'Data is being processed, please do not resubmit.' });
    expect(t.toasts).toEqual([RESUBMIT]);
    expect(t.fetchMock).toHaveBeenCalledTimes(1);
  });

  it('C4 the same PUT after 1000 ms is allowed', async () => {
    const t = setup();
    await t.api.put('/forms/s01', { a: 1 });
    t.advance(1000);
    await t.api.put('/forms/s01', { a: 1 });
    expect(t.fetchMock).toHaveBeenCalledTimes(2);
    expect(t.toasts).toEqual([]);
  });

  it('C4 a different body, URL or query within the window is allowed', async () => {
    const t = setup();
    await t.api.post('/forms/s01', { a: 1 });
    await t.api.post('/forms/s01', { a: 2 });
    await t.api.post('/forms/s02', { a: 2 });
    await t.api.post('/forms/s02', { a: 2 }, { params: { draft: 1 } });
    expect(t.fetchMock).toHaveBeenCalledTimes(4);
    expect(t.toasts).toEqual([]);
  });

  it('C4 GET and DELETE are never guarded', async () => {
    const t = setup();
    await t.api.get('/a');
    await t.api.get('/a');
    await t.api.del('/a');
    await t.api.del('/a');
    expect(t.fetchMock).toHaveBeenCalledTimes(4);
  });

  it('C4 bodies over 5 MB skip the check', async () => {
    const t = setup();
    const big = { blob: 'x'.repeat(5 * 1024 * 1024) };
    await t.api.post('/upload', big);
    await t.api.post('/upload', big);
    expect(t.fetchMock).toHaveBeenCalledTimes(2);
    expect(t.toasts).toEqual([]);
  });

  it('C4 FormData over 5 MB skips the check; the same small FormData is caught', async () => {
    const t = setup();
    const bigFile = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'brochure.pdf', { type: 'application/pdf', lastModified: 1 });
    const big = new FormData();
    big.append('file', bigFile);
    await t.api.post('/upload', big);
    await t.api.post('/upload', big);
    expect(t.fetchMock).toHaveBeenCalledTimes(2);

    const small = () => {
      const form = new FormData();
      form.append('file', new File(['abc'], 'logo.jpg', { type: 'image/jpeg', lastModified: 2 }));
      return form;
    };
    const other = new FormData();
    other.append('file', new File(['abcd'], 'other.jpg', { type: 'image/jpeg', lastModified: 2 }));
    await t.api.post('/upload', small());
    await t.api.post('/upload', other);
    expect(t.fetchMock).toHaveBeenCalledTimes(4);
    t.advance(10);
    await t.api.post('/upload', other).catch(() => undefined);
    expect(t.fetchMock).toHaveBeenCalledTimes(4);
    expect(t.toasts).toEqual([RESUBMIT]);
  });

  it('C4 skipDuplicateCheck opts a request out', async () => {
    const t = setup();
    await t.api.post('/leads/scan', { code: 'B1' });
    await t.api.post('/leads/scan', { code: 'B1' }, { skipDuplicateCheck: true });
    expect(t.fetchMock).toHaveBeenCalledTimes(2);
    expect(t.toasts).toEqual([]);
  });

  it('a keepalive request is sent so that it outlives the page; others are not', async () => {
    const t = setup();
    await t.api.put('/user/settings', { showLeftMenus: false }, { keepalive: true, skipDuplicateCheck: true });
    await t.api.put('/user/settings', { showLeftMenus: true }, { skipDuplicateCheck: true });
    expect(t.call(0).init.keepalive).toBe(true);
    expect(t.call(1).init.keepalive).toBeUndefined();
  });

  it('C4 the last request is kept in session storage, as a hash, never the body in clear', async () => {
    const t = setup();
    await t.api.post('/login', { account: 'acme', password: 'S3cret-pass' }, { auth: false });
    const stored = t.session.getItem(STORAGE_KEYS.lastRequest);
    expect(stored).not.toBeNull();
    expect(stored).toContain('/oga/login');
    expect(stored).not.toContain('S3cret-pass');
    // A second client (another component, same tab) shares the rule through the storage.
    const other = createApiClient({
      fetch: t.fetchMock as unknown as typeof fetch,
      getToken: () => null,
      getLanguage: () => 'en',
      session: t.session,
      notify: () => undefined,
      translate: (key) => key,
      onSessionInvalid: () => undefined,
      now: () => 1_000_000 + 500,
    });
    await failure(other.post('/login', { account: 'acme', password: 'S3cret-pass' }, { auth: false }));
    expect(t.fetchMock).toHaveBeenCalledTimes(1);
  });

  it('C4 a session storage that throws never blocks a submit', async () => {
    const t = setup();
    const api = createApiClient({
      fetch: t.fetchMock as unknown as typeof fetch,
      getToken: () => null,
      getLanguage: () => 'en',
      session: {
        getItem: () => null,
        setItem: () => {
          throw new DOMException('quota', 'QuotaExceededError');
        },
      },
      notify: () => undefined,
      translate: (key) => key,
      onSessionInvalid: () => undefined,
    });
    await expect(api.post('/a', { a: 1 })).resolves.toEqual({ ok: true });
  });

  it('C4 while a POST to a URL is in flight, a second one to that URL is blocked (busy) without fetch', async () => {
    const pending = deferred<Response>();
    const t = setup({ fetch: () => pending.promise });
    const listener = vi.fn();
    t.api.subscribeBusy(listener);

    const first = t.api.post('/forms/s04/submit', { badges: 1 });
    expect(t.api.isBusy('/forms/s04/submit')).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    t.advance(5000); // long past the duplicate window: only "in flight" blocks now
    const second = await failure(t.api.post('/forms/s04/submit', { badges: 2 }));
    expect(second).toMatchObject({ kind: 'busy', message: 'Data is being processed, please do not resubmit.' });
    expect(t.toasts).toEqual([RESUBMIT]);
    expect(t.fetchMock).toHaveBeenCalledTimes(1);

    pending.resolve(json({ code: 200, data: 'done' }));
    await expect(first).resolves.toBe('done');
    expect(t.api.isBusy('/forms/s04/submit')).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);

    t.fetchMock.mockImplementation(async () => json({ code: 200, data: 'again' }));
    await expect(t.api.post('/forms/s04/submit', { badges: 2 })).resolves.toBe('again');
  });

  it('C4 a failed POST frees its URL', async () => {
    const t = setup({ fetch: async () => json({ code: 601, msg: 'no', data: null }) });
    await failure(t.api.post('/a', { a: 1 }));
    expect(t.api.isBusy('/a')).toBe(false);
  });

  it('C4 an in-flight POST does not block other URLs, nor GETs of the same URL', async () => {
    const pending = deferred<Response>();
    const t = setup({ fetch: () => pending.promise });
    const first = t.api.post('/a', { a: 1 });
    t.fetchMock.mockImplementation(async () => json({ code: 200, data: 'other' }));
    await expect(t.api.post('/b', { a: 1 })).resolves.toBe('other');
    await expect(t.api.get('/a')).resolves.toBe('other');
    pending.resolve(json({ code: 200, data: 'first' }));
    await expect(first).resolves.toBe('first');
  });
});

describe('C3 blob, arraybuffer and download', () => {
  const PDF_BYTES = [0x25, 0x50, 0x44, 0x46, 0x2d];

  function pdf(): Response {
    return new Response(new Uint8Array(PDF_BYTES), { status: 200, headers: { 'content-type': 'application/pdf' } });
  }

  it('C3 responseType blob returns the raw bytes, not an envelope', async () => {
    const t = setup({ fetch: async () => pdf() });
    const blob = await t.api.get<Blob>('/orderForms/visaInvitation/3.pdf', { responseType: 'blob' });
    expect(blob.type).toBe('application/pdf');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual(PDF_BYTES);
    expect(t.toasts).toEqual([]);
  });

  it('C3 responseType arraybuffer returns the raw bytes', async () => {
    const t = setup({ fetch: async () => pdf() });
    const buffer = await t.api.get<ArrayBuffer>('/file', { responseType: 'arraybuffer' });
    expect([...new Uint8Array(buffer)]).toEqual(PDF_BYTES);
  });

  it('C3 a JSON file with code 200 is still returned raw', async () => {
    const t = setup({ fetch: async () => json({ code: 200, data: [1] }) });
    const blob = await t.api.get<Blob>('/export.json', { responseType: 'blob' });
    expect(JSON.parse(await blob.text())).toEqual({ code: 200, data: [1] });
  });

  it('C3/E1 a blob request answered by an error envelope is handled by its body code', async () => {
    const t = setup({ fetch: async () => json({ code: 403, msg: 'No export right.', data: null }) });
    const error = await failure(t.api.get('/leads/export', { responseType: 'blob' }));
    expect(error.code).toBe(403);
    expect(t.toasts).toEqual([{ kind: 'error', message: 'No export right.', options: { durationMs: 5000 } }]);
  });

  it('C3/E2 a blob request with a failing HTTP status shows the status failure', async () => {
    const t = setup({ fetch: async () => new Response('Gateway Timeout', { status: 504 }) });
    await failure(t.api.get('/leads/export', { responseType: 'blob' }));
    expect(t.toasts.map((toast) => toast.message)).toEqual(['System interface request timeout. 504']);
  });

  describe('download', () => {
    const created: Blob[] = [];
    const revoked: string[] = [];
    const clicked: Array<{ href: string; download: string; attached: boolean }> = [];

    beforeEach(() => {
      created.length = 0;
      revoked.length = 0;
      clicked.length = 0;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          created.push(blob);
          return `blob:http://localhost/${created.length}`;
        },
        revokeObjectURL: (url: string) => {
          revoked.push(url);
        },
      });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download, attached: document.body.contains(this) });
      });
    });

    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    it('C3 download GETs a blob and saves it through a link with the file name, then frees the URL', async () => {
      const t = setup({ fetch: async () => pdf() });
      await t.api.download('/leads/export', 'leads-2024.pdf', { params: { format: 'pdf' } });
      expect(t.call().url).toBe('/oga/leads/export?format=pdf');
      expect(t.call().init.method).toBe('GET');
      expect(t.call().headers.get('authorization')).toBe('Bearer tok-123');
      expect(clicked).toEqual([{ href: 'blob:http://localhost/1', download: 'leads-2024.pdf', attached: true }]);
      expect([...new Uint8Array(await created[0]!.arrayBuffer())]).toEqual(PDF_BYTES);
      expect(document.querySelector('a[download]')).toBeNull();
      expect(revoked).toEqual([]);
      vi.advanceTimersByTime(1000);
      expect(revoked).toEqual(['blob:http://localhost/1']);
    });

    it('C3/E1 a failed download shows the error and saves nothing', async () => {
      const t = setup({ fetch: async () => json({ code: 404, data: null }) });
      await failure(t.api.download('/leads/export', 'leads.csv'));
      expect(clicked).toEqual([]);
      expect(created).toEqual([]);
      expect(t.toasts.map((toast) => toast.message)).toEqual(['The resource does not exist.']);
    });
  });
});

describe('C1/S3 stored token and language helpers', () => {
  it('read the oem_ keys, with en as the default language', () => {
    const storage = new MemoryStorage();
    expect(readStoredToken(storage)).toBeNull();
    expect(readStoredLanguage(storage)).toBe('en');
    storage.setItem(STORAGE_KEYS.token, 'abc');
    storage.setItem(STORAGE_KEYS.language, 'vi');
    expect(readStoredToken(storage)).toBe('abc');
    expect(readStoredLanguage(storage)).toBe('vi');
    storage.setItem(STORAGE_KEYS.language, 'xx');
    expect(readStoredLanguage(storage)).toBe('en');
    const broken = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(readStoredToken(broken)).toBeNull();
    expect(readStoredLanguage(broken)).toBe('en');
  });
});
