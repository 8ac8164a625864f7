import useSWR, { mutate, preload } from 'swr';
import { typedApi } from './api';
import type { ApiData, ApiPath } from './typed-api';
import { tokenStore } from './storage';

// The logged-in user's info and account info, read through SWR. User info is empty until
// loaded and cleared on logout (spec §4).

/** Wire types from the route schemas (src/generated/api.ts, issue 16). */
export type UserInfo = ApiData<'GET', '/user/info'>;
export type AccountInfo = ApiData<'GET', '/system/project/exhibirotCode'>;

export const USER_INFO_KEY = '/user/info' satisfies ApiPath<'GET'>;
export const ACCOUNT_INFO_KEY = '/system/project/exhibirotCode' satisfies ApiPath<'GET'>;

/**
 * Issue 13: the signed-in frame's answers, asked for at start beside the code that shows them
 * (the hooks then find them); a failure is the hooks' to report.
 */
export function preloadSession(): void {
  if (!tokenStore.get()) return;
  preload(ACCOUNT_INFO_KEY, (path: typeof ACCOUNT_INFO_KEY) => typedApi.get(path)).catch(() => undefined);
  preload(USER_INFO_KEY, (path: typeof USER_INFO_KEY) => typedApi.get(path)).catch(() => undefined);
}

export function useUserInfo() {
  return useSWR(tokenStore.get() ? USER_INFO_KEY : null, (path) => typedApi.get(path), { revalidateOnFocus: false });
}

export function useAccountInfo() {
  return useSWR(tokenStore.get() ? ACCOUNT_INFO_KEY : null, (path) => typedApi.get(path), { revalidateOnFocus: false });
}

export function loadUserInfo(): Promise<UserInfo | undefined> {
  return mutate(USER_INFO_KEY, typedApi.get(USER_INFO_KEY));
}

/** The clear action of spec §4: forget everything loaded for the previous user. */
export async function clearUserInfo() {
  await mutate(() => true, undefined, { revalidate: false });
}
