import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig, useSWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { typedApi } from './api';
import { apiKey, apiKeyMatches, useApi } from './use-api';

// The data hook reads the typed route through typedApi under a key made of that route, and a
// page revalidates it by naming the route.

const fresh = ({ children }: { children: ReactNode }) => <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>;

afterEach(() => vi.restoreAllMocks());

describe('useApi', () => {
  it('fetches GET path with its path values and query, and answers with the data', async () => {
    const call = vi.spyOn(typedApi, 'call').mockResolvedValue({ id: 7 } as never);
    const { result } = renderHook(() => useApi('GET', '/leads/{id}', { path: { id: 7 } }), { wrapper: fresh });
    await waitFor(() => expect(result.current.data).toEqual({ id: 7 }));
    expect(call).toHaveBeenCalledWith('GET', '/leads/{id}', { path: { id: 7 } });
  });

  it('fetches nothing while not enabled', async () => {
    const call = vi.spyOn(typedApi, 'call').mockResolvedValue([] as never);
    const { result } = renderHook(() => useApi('GET', '/organiser/events', undefined, { enabled: false }), { wrapper: fresh });
    await act(async () => undefined);
    expect(result.current.data).toBeUndefined();
    expect(call).not.toHaveBeenCalled();
  });

  it('reads again when another part of the page revalidates the route by name, whatever its query', async () => {
    let answer = 1;
    vi.spyOn(typedApi, 'call').mockImplementation(async () => ({ total: answer }) as never);
    const { result } = renderHook(() => ({ read: useApi('GET', '/organiser/progress', { query: { missing: true } }), config: useSWRConfig() }), { wrapper: fresh });
    await waitFor(() => expect(result.current.read.data).toEqual({ total: 1 }));
    answer = 2;
    await act(async () => {
      await result.current.config.mutate(apiKeyMatches('/organiser/progress'));
    });
    await waitFor(() => expect(result.current.read.data).toEqual({ total: 2 }));
  });
});

describe('apiKey', () => {
  it('is the method, the declared route, its path and query values, then what the answer varies with', () => {
    expect(apiKey('/leads/{id}', { path: { id: 3 } })).toEqual(['GET', '/leads/{id}', { path: { id: 3 }, query: undefined }]);
    expect(apiKey('/system/content/list', { query: { kind: 'tip' } }, ['ja'])).toEqual(['GET', '/system/content/list', { path: undefined, query: { kind: 'tip' } }, 'ja']);
  });

  it('is matched by the route it names only', () => {
    const matches = apiKeyMatches('/leads/{id}');
    expect(matches(apiKey('/leads/{id}', { path: { id: 3 } }) as never)).toBe(true);
    expect(matches(apiKey('/leads/exports') as never)).toBe(false);
    expect(matches('/leads/3')).toBe(false);
  });
});
