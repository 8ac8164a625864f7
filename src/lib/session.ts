import useSWR, { mutate, preload } from 'swr';
import { typedApi } from './api';
import type { ApiData, ApiPath } from './typed-api';
import { isApiError } from './api-client';
import { sessionCopyStore, tokenStore } from './storage';

// The logged-in user's info and account info, read through SWR. User info is empty until
// loaded and cleared on logout (spec §4).

/** Wire types from the route schemas (src/generated/api.ts). */
export type UserInfo = ApiData<'GET', '/user/info'>;
export type AccountInfo = ApiData<'GET', '/system/project/exhibirotCode'>;

export const USER_INFO_KEY = '/user/info' satisfies ApiPath<'GET'>;
export const ACCOUNT_INFO_KEY = '/system/project/exhibirotCode' satisfies ApiPath<'GET'>;

/**
 * The signed-in frame's answers, asked for at start beside the code that shows them
 * (the hooks then find them); a failure is the hooks' to report.
 */
export function preloadSession(): void {
  if (!tokenStore.get()) return;
  preload(ACCOUNT_INFO_KEY, fetchAccountInfo).catch(() => undefined);
  preload(USER_INFO_KEY, fetchUserInfo).catch(() => undefined);
}

/** The request never reached the server (no network): not an answer about the session. */
function isUnreachable(error: unknown): boolean {
  return isApiError(error) && error.kind === 'transport' && (error.errorId === 'network' || error.errorId === 'timeout');
}

/**
 * The server's answer, kept on the device; with no network, the last answer for this token
 * instead, so the frame opens offline (the scanner works there). Any answer of the server (a 401
 * included) is handled as always: only an unreachable server falls back to the copy.
 */
async function answerOrCopy<T>(part: 'user' | 'account', request: (silent: boolean) => Promise<T>, keep: (value: T) => unknown): Promise<T> {
  const copy = sessionCopyStore.get()?.[part] as T | undefined;
  try {
    const value = await request(copy !== undefined);
    sessionCopyStore.put(part, keep(value));
    return value;
  } catch (error) {
    if (copy !== undefined && isUnreachable(error) && tokenStore.get()) return copy;
    throw error;
  }
}

function fetchUserInfo(): Promise<UserInfo> {
  // The e-mail address is not needed to draw the frame: not kept on the device.
  return answerOrCopy(
    'user',
    (silent) => typedApi.get(USER_INFO_KEY, { silent }),
    (user) => ({ ...user, email: '' }),
  );
}

function fetchAccountInfo(): Promise<AccountInfo> {
  return answerOrCopy(
    'account',
    (silent) => typedApi.get(ACCOUNT_INFO_KEY, { silent }),
    (account) => account,
  );
}

export function useUserInfo() {
  return useSWR(tokenStore.get() ? USER_INFO_KEY : null, fetchUserInfo, { revalidateOnFocus: false });
}

export function useAccountInfo() {
  return useSWR(tokenStore.get() ? ACCOUNT_INFO_KEY : null, fetchAccountInfo, { revalidateOnFocus: false });
}

export function loadUserInfo(): Promise<UserInfo | undefined> {
  return mutate(USER_INFO_KEY, fetchUserInfo());
}

/** The clear action of spec §4: forget everything loaded for the previous user. */
export async function clearUserInfo() {
  await mutate(() => true, undefined, { revalidate: false });
}
