import useSWR, { mutate, preload } from 'swr';
import { typedApi } from './api';
import type { ApiData, ApiPath } from './typed-api';
import { ApiError } from './api-client';
import { offlineSessionStore, tokenStore } from './storage';

// The logged-in user's info and account info, read through SWR. User info is empty until
// loaded and cleared on logout (spec §4).

/** Wire types from the route schemas (src/generated/api.ts, issue 16). */
export type UserInfo = ApiData<'GET', '/user/info'>;
export type AccountInfo = ApiData<'GET', '/system/project/exhibirotCode'>;

export const USER_INFO_KEY = '/user/info' satisfies ApiPath<'GET'>;
export const ACCOUNT_INFO_KEY = '/system/project/exhibirotCode' satisfies ApiPath<'GET'>;

/**
 * The frame's answers, kept for the scanner opened offline: with no network (no answer at all),
 * the last answer this device got for the same session is used; any answer of the server wins.
 */
async function withOfflineCopy<P extends typeof USER_INFO_KEY | typeof ACCOUNT_INFO_KEY>(path: P): Promise<ApiData<'GET', P>> {
  try {
    const answer = (await typedApi.get(path as typeof USER_INFO_KEY | typeof ACCOUNT_INFO_KEY)) as ApiData<'GET', P>;
    offlineSessionStore.set(path, answer);
    return answer;
  } catch (error) {
    const unreachable = error instanceof ApiError && error.errorId === 'network';
    const copy = unreachable ? offlineSessionStore.get(path) : undefined;
    if (copy !== undefined) return copy as ApiData<'GET', P>;
    throw error;
  }
}

/**
 * Issue 13: the signed-in frame's answers, asked for at start beside the code that shows them
 * (the hooks then find them); a failure is the hooks' to report.
 */
export function preloadSession(): void {
  if (!tokenStore.get()) return;
  preload(ACCOUNT_INFO_KEY, (path: typeof ACCOUNT_INFO_KEY) => withOfflineCopy(path)).catch(() => undefined);
  preload(USER_INFO_KEY, (path: typeof USER_INFO_KEY) => withOfflineCopy(path)).catch(() => undefined);
}

export function useUserInfo() {
  return useSWR(tokenStore.get() ? USER_INFO_KEY : null, (path) => withOfflineCopy(path), { revalidateOnFocus: false });
}

export function useAccountInfo() {
  return useSWR(tokenStore.get() ? ACCOUNT_INFO_KEY : null, (path) => withOfflineCopy(path), { revalidateOnFocus: false });
}

export function loadUserInfo(): Promise<UserInfo | undefined> {
  return mutate(USER_INFO_KEY, typedApi.get(USER_INFO_KEY));
}

/** The clear action of spec §4: forget everything loaded for the previous user. */
export async function clearUserInfo() {
  await mutate(() => true, undefined, { revalidate: false });
}
