import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api-client';
import { createTypedApi, fillPath } from './typed-api';

// The typed client only shapes the call; the ApiClient still sends it (session,
// language, duplicate guard, toasts), so every call must reach ApiClient.request unchanged.

function fakeClient() {
  const request = vi.fn(async () => ({ ok: true }));
  return { client: { request } as unknown as ApiClient, request };
}

describe('fillPath', () => {
  it('puts URL-encoded values in place of {name}', () => {
    expect(fillPath('/leads/{id}', { id: 7 })).toBe('/leads/7');
    expect(fillPath('/public/showrooms/{slug}/files/{id}', { slug: 'a b/c', id: 'x' })).toBe('/public/showrooms/a%20b%2Fc/files/x');
  });

  it('refuses a missing value rather than calling /leads/undefined', () => {
    expect(() => fillPath('/leads/{id}', {})).toThrow(/"id" is missing/);
    expect(() => fillPath('/leads/{id}', undefined)).toThrow(/"id" is missing/);
  });
});

describe('createTypedApi', () => {
  it('sends path, query and body through the ApiClient with the other options kept', async () => {
    const { client, request } = fakeClient();
    const api = createTypedApi(client);
    await api.get('/leads/exports', { query: { page: 2, limit: 10 }, silent: true });
    await api.post('/auth/login', { body: { account: 'demo', password: 'x' }, auth: false });
    await api.del('/custom-tags/{id}', { path: { id: 3 } });
    expect(request.mock.calls).toEqual([
      ['GET', '/leads/exports', { params: { page: 2, limit: 10 }, body: undefined, silent: true }],
      ['POST', '/auth/login', { params: undefined, body: { account: 'demo', password: 'x' }, auth: false }],
      ['DELETE', '/custom-tags/3', { params: undefined, body: undefined }],
    ]);
  });

  it('downloads a file route with its path and query filled in, through ApiClient.download', async () => {
    const download = vi.fn(async () => undefined);
    const api = createTypedApi({ request: vi.fn(), download } as unknown as ApiClient);
    await api.download('/forms/{id}/documents/{document}/{index}.pdf', 'letter.pdf', {
      path: { id: 'F 1', document: 'visa', index: '0' },
      query: { download: '1', lang: 'ja' },
      silent: true,
    });
    await api.download('/organiser/exhibitors/import/template', 'template.csv', { query: { format: 'csv' } });
    expect(download.mock.calls).toEqual([
      ['/forms/F%201/documents/visa/0.pdf', 'letter.pdf', { params: { download: '1', lang: 'ja' }, silent: true }],
      ['/organiser/exhibitors/import/template', 'template.csv', { params: { format: 'csv' } }],
    ]);
    // @ts-expect-error a JSON route is not a file to download
    void (() => api.download('/leads/exports', 'x.json'));
  });
});
