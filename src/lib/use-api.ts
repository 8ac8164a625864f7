import useSWR, { type Key, type SWRConfiguration, type SWRResponse } from 'swr';
import { typedApi } from './api';
import type { ApiData, ApiOperation, ApiPath, TypedRequestOptions } from './typed-api';

// One data hook for the pages: `useApi('GET', '/leads/{id}', { path: { id } })` reads the route the
// OpenAPI document declares, and its SWR key is that typed route with its path and query, so the
// key cannot drift from what is fetched and a page revalidates another's data by naming the route
// (`mutate(apiKeyMatches('/leads'))`) instead of a string typed by hand.

/** The SWR key of a typed read: the method, the route as the server declares it, then its path and query values and what else the answer varies with. */
export type ApiKey<P extends ApiPath<'GET'> = ApiPath<'GET'>> = readonly ['GET', P, { path?: unknown; query?: unknown }, ...unknown[]];

type ReadOptions<P extends ApiPath<'GET'>> = TypedRequestOptions<ApiOperation<'GET', P>>;

export interface UseApiConfig<P extends ApiPath<'GET'>> extends SWRConfiguration<ApiData<'GET', P>, Error> {
  /** False while the page cannot ask yet (no id, no permission): nothing is fetched and `data` stays undefined. */
  enabled?: boolean;
  /** What else the answer depends on besides path and query (the language of a translated answer). */
  vary?: readonly unknown[];
}

/** The key `useApi` reads `GET path` under, for code that writes the cache directly. */
export function apiKey<P extends ApiPath<'GET'>>(path: P, request: ReadOptions<P> | undefined = undefined, vary: readonly unknown[] = []): ApiKey<P> {
  const values = request as { path?: unknown; query?: unknown } | undefined;
  return ['GET', path, { path: values?.path, query: values?.query }, ...vary];
}

/** A filter for SWR's `mutate(filter)`: every cached read of one of `paths`, whatever its path values and query. */
export function apiKeyMatches(...paths: ApiPath<'GET'>[]): (key: Key) => boolean {
  return (key) => Array.isArray(key) && key[0] === 'GET' && paths.includes(key[1]);
}

/** Reads `GET path` through the typed client under the typed key (SWR's dedupe, cache and revalidation as before). */
export function useApi<P extends ApiPath<'GET'>>(method: 'GET', path: P, request?: ReadOptions<P>, config: UseApiConfig<P> = {}): SWRResponse<ApiData<'GET', P>, Error> {
  const { enabled = true, vary = [], ...swr } = config;
  const key = enabled ? apiKey(path, request, vary) : null;
  // `P` is generic here, so the call's rest-argument form cannot be resolved; the signature above keeps callers typed.
  const read = typedApi.call as (method: 'GET', path: P, request?: ReadOptions<P>) => Promise<ApiData<'GET', P>>;
  return useSWR<ApiData<'GET', P>, Error>(key, () => read(method, path, request), swr as SWRConfiguration<ApiData<'GET', P>, Error>);
}
