import type { ApiOperations } from '../generated/api';
import type { ApiClient, RequestOptions } from './api-client';

// The API client typed from the route schemas (src/generated/api.ts, generated from
// the server's OpenAPI document). A call names the operation as the server declares it —
// `get('/leads/{id}', { path: { id } })` — and gets the `data` type of its answer; the path,
// query and body are checked against the route's schema. It sends through the ApiClient, so
// session expiry, the language header, the duplicate guard and error toasts stay as they are.

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type OperationKey = keyof ApiOperations;

/** The paths that have an operation for `method`, in the server's `{param}` form. */
export type ApiPath<M extends ApiMethod> = { [K in OperationKey]: K extends `${M} ${infer P}` ? P : never }[OperationKey];

export type ApiOperation<M extends ApiMethod, P extends ApiPath<M>> = ApiOperations[`${M} ${P}` & OperationKey];

/** The `data` of a successful answer to `METHOD path`. */
export type ApiData<M extends ApiMethod, P extends ApiPath<M>> = ApiOperation<M, P>['data'];
/** The JSON body `METHOD path` takes. */
export type ApiBody<M extends ApiMethod, P extends ApiPath<M>> = ApiOperation<M, P> extends { body?: infer B } ? B : never;
/** The query parameters `METHOD path` takes. */
export type ApiQuery<M extends ApiMethod, P extends ApiPath<M>> = ApiOperation<M, P> extends { query?: infer Q } ? Q : never;

// Not distributive ([O] extends …): over the union of every operation (a generic path) the parts
// would otherwise multiply into a union too large for the compiler as routes are added.
type PathPart<O> = [O] extends [{ path: infer X }] ? { path: X } : { path?: never };
type QueryPart<O> = [O] extends [{ query: infer Q }] ? { query: Q } : [O] extends [{ query?: infer Q }] ? { query?: Q } : { query?: never };
type BodyPart<O> = [O] extends [{ body: infer B }] ? { body: B } : [O] extends [{ body?: infer B }] ? { body?: B } : { body?: never };

/** What a call takes: the ApiClient's options, with the operation's own path, query and body in place of untyped params and body. */
export type TypedRequestOptions<O> = Omit<RequestOptions, 'params' | 'body'> & PathPart<O> & QueryPart<O> & BodyPart<O>;

/** The options argument may be left out when the operation needs no path parameter, query or body. */
type OptionsArgument<O> = {} extends TypedRequestOptions<O> ? [options?: TypedRequestOptions<O>] : [options: TypedRequestOptions<O>];

/** `/leads/{id}` with `{ id: 7 }` → `/leads/7` (each value URL-encoded). */
export function fillPath(template: string, values: Record<string, unknown> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = values?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${template}: path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
}

/** The GET paths whose answer is a file (a Blob, not a JSON envelope): what `download` takes. */
export type ApiFilePath = { [P in ApiPath<'GET'>]: ApiData<'GET', P> extends Blob ? P : never }[ApiPath<'GET'>];

export interface TypedApi {
  call<M extends ApiMethod, P extends ApiPath<M>>(method: M, path: P, ...options: OptionsArgument<ApiOperation<M, P>>): Promise<ApiData<M, P>>;
  get<P extends ApiPath<'GET'>>(path: P, ...options: OptionsArgument<ApiOperation<'GET', P>>): Promise<ApiData<'GET', P>>;
  post<P extends ApiPath<'POST'>>(path: P, ...options: OptionsArgument<ApiOperation<'POST', P>>): Promise<ApiData<'POST', P>>;
  put<P extends ApiPath<'PUT'>>(path: P, ...options: OptionsArgument<ApiOperation<'PUT', P>>): Promise<ApiData<'PUT', P>>;
  patch<P extends ApiPath<'PATCH'>>(path: P, ...options: OptionsArgument<ApiOperation<'PATCH', P>>): Promise<ApiData<'PATCH', P>>;
  del<P extends ApiPath<'DELETE'>>(path: P, ...options: OptionsArgument<ApiOperation<'DELETE', P>>): Promise<ApiData<'DELETE', P>>;
  /** Fetches the file `GET path` answers with and saves it under `fileName` (the ApiClient's download). */
  download<P extends ApiFilePath>(path: P, fileName: string, ...options: OptionsArgument<ApiOperation<'GET', P>>): Promise<void>;
}

export function createTypedApi(client: ApiClient): TypedApi {
  const call = (method: ApiMethod, path: string, options?: { path?: Record<string, unknown>; query?: unknown; body?: unknown } & Omit<RequestOptions, 'params' | 'body'>) => {
    const { path: pathValues, query, body, ...rest } = options ?? {};
    return client.request(method, fillPath(path, pathValues), { ...rest, params: query as Record<string, unknown> | undefined, body });
  };
  // The signatures above are what callers see; inside, one untyped call does the work.
  const untyped = call as unknown as TypedApi['call'];
  return {
    call: untyped,
    get: (path, ...options) => untyped('GET', path, ...(options as never)),
    post: (path, ...options) => untyped('POST', path, ...(options as never)),
    put: (path, ...options) => untyped('PUT', path, ...(options as never)),
    patch: (path, ...options) => untyped('PATCH', path, ...(options as never)),
    del: (path, ...options) => untyped('DELETE', path, ...(options as never)),
    download: (path, fileName, ...options) => {
      const {
        path: pathValues,
        query,
        body: _body,
        ...rest
      } = (options[0] ?? {}) as { path?: Record<string, unknown>; query?: unknown; body?: unknown } & Omit<RequestOptions, 'params' | 'body'>;
      return client.download(fillPath(path, pathValues), fileName, { ...rest, params: query as Record<string, unknown> | undefined });
    },
  };
}

/**
 * A map read from the API as a plain record. An open map in a route schema (`additionalProperties:
 * { … }`) is typed `{ [k: string]: T | undefined }`; the answer never holds an undefined value,
 * and this drops any so the page works with `Record<string, T>`.
 */
export function definedValues<T>(map: Partial<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).filter((entry): entry is [string, T] => entry[1] !== undefined));
}
