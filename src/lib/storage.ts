import { STORAGE_KEYS } from '../engine/constants';

// Browser storage behind small functions, so a blocked or full storage never breaks a page.

function safe<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

export const tokenStore = {
  get: (): string | null => safe(() => localStorage.getItem(STORAGE_KEYS.token), null),
  set: (token: string) => safe(() => localStorage.setItem(STORAGE_KEYS.token, token), undefined),
  clear: () => safe(() => localStorage.removeItem(STORAGE_KEYS.token), undefined),
};

export const languageStore = {
  get: (): string | null => safe(() => localStorage.getItem(STORAGE_KEYS.language), null),
  set: (language: string) => safe(() => localStorage.setItem(STORAGE_KEYS.language, language), undefined),
};

/** Why the last session ended, shown once on the login page. */
export const logoutReasonStore = {
  get: (): string | null => safe(() => sessionStorage.getItem(STORAGE_KEYS.logoutReason), null),
  set: (reason: string) => safe(() => sessionStorage.setItem(STORAGE_KEYS.logoutReason, reason), undefined),
  clear: () => safe(() => sessionStorage.removeItem(STORAGE_KEYS.logoutReason), undefined),
};

export const activityStore = {
  get: (): number => safe(() => Number(localStorage.getItem(STORAGE_KEYS.lastActivity)) || 0, 0),
  set: (time: number) => safe(() => localStorage.setItem(STORAGE_KEYS.lastActivity, String(time)), undefined),
};

/** Marks the history entry a page was opened on with ?token= (the router keeps other members of the state). */
const TOKEN_ENTRY = 'openedWithToken';

/**
 * S3: a token in the URL (?token=) becomes the login token and leaves the address bar. The
 * history entry remembers it came with a token, so the back arrow still knows (Y2).
 */
export function adoptTokenFromUrl(location: Location, history: History): void {
  const url = new URL(location.href);
  const token = url.searchParams.get('token');
  // /reset-password carries a reset token of its own, not a login token.
  if (!token || url.pathname === '/reset-password') return;
  tokenStore.set(token);
  url.searchParams.delete('token');
  history.replaceState({ ...(history.state as object | null), [TOKEN_ENTRY]: true }, '', `${url.pathname}${url.search}${url.hash}`);
}

/** Y2: the current page was opened with ?token= (its token already moved out of the address bar). */
export function openedWithToken(history: History): boolean {
  return (history.state as Record<string, unknown> | null)?.[TOKEN_ENTRY] === true;
}
