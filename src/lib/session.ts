import useSWR, { mutate, preload } from 'swr';
import { api } from './api';
import { tokenStore } from './storage';

// The logged-in user's info and account info, read through SWR. User info is empty until
// loaded and cleared on logout (spec §4).

export interface UserInfo {
  id: number;
  account: string;
  name: string;
  email: string;
  role: 'exhibitor' | 'team_user' | 'contractor' | 'organiser';
  displayedModule: string[];
  showLeftMenus: boolean;
  session: { idleSeconds: number; warningSeconds: number; expiresAt: string };
}

export interface AccountInfo {
  name: string;
  legalName: string;
  boothNum: string;
  exhibitCode: string;
  exhibitionId: string;
  exhibitName: string;
  exhibitionName: string;
  companyLog: string;
  eventLog: string;
  eventUrl: string;
  termsUrl: string;
  supportEmail: string;
  utcOffsetMinutes: number;
  badgesDlinedate: string | null;
  boothDlinedate: string | null;
  productDlinedate: string | null;
  profileDlinedate: string | null;
  displayedModule: string[];
  hideAccountHome: boolean;
  multilingual: Array<{ label: string; code: string }>;
  [flag: string]: unknown;
}

export const USER_INFO_KEY = '/user/info';
export const ACCOUNT_INFO_KEY = '/system/project/exhibirotCode';

const fetcher = <T>(path: string) => api.get<T>(path);

/**
 * Issue 13: the signed-in frame's answers, asked for at start beside the code that shows them
 * (the hooks then find them); a failure is the hooks' to report.
 */
export function preloadSession(): void {
  if (!tokenStore.get()) return;
  for (const key of [ACCOUNT_INFO_KEY, USER_INFO_KEY]) preload(key, fetcher).catch(() => undefined);
}

export function useUserInfo() {
  return useSWR<UserInfo>(tokenStore.get() ? USER_INFO_KEY : null, fetcher, { revalidateOnFocus: false });
}

export function useAccountInfo() {
  return useSWR<AccountInfo>(tokenStore.get() ? ACCOUNT_INFO_KEY : null, fetcher, { revalidateOnFocus: false });
}

export function loadUserInfo(): Promise<UserInfo | undefined> {
  return mutate<UserInfo>(USER_INFO_KEY, api.get<UserInfo>(USER_INFO_KEY));
}

/** The clear action of spec §4: forget everything loaded for the previous user. */
export async function clearUserInfo() {
  await mutate(() => true, undefined, { revalidate: false });
}
