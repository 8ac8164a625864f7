import { STORAGE_KEYS } from '../engine/constants';

// Browser storage behind small functions, so a blocked or full storage never breaks a page.

function safe<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

// The session copy belongs to one token: a new token or none drops it.
export const tokenStore = {
  get: (): string | null => safe(() => localStorage.getItem(STORAGE_KEYS.token), null),
  set: (token: string) =>
    safe(() => {
      localStorage.removeItem(STORAGE_KEYS.sessionCopy);
      localStorage.setItem(STORAGE_KEYS.token, token);
    }, undefined),
  clear: () =>
    safe(() => {
      localStorage.removeItem(STORAGE_KEYS.sessionCopy);
      localStorage.removeItem(STORAGE_KEYS.token);
    }, undefined),
};

/**
 * The last user info and account info the server answered for the current token, so that the
 * signed-in frame (and the scanner in it) opens when the phone has no network. Only what the
 * frame needs is kept: no e-mail address.
 */
export const sessionCopyStore = {
  get: (): Record<string, unknown> | null =>
    safe(() => {
      const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.sessionCopy) ?? 'null');
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    }, null),
  put: (part: string, value: unknown) =>
    safe(() => {
      if (!localStorage.getItem(STORAGE_KEYS.token)) return;
      const copy = sessionCopyStore.get() ?? {};
      localStorage.setItem(STORAGE_KEYS.sessionCopy, JSON.stringify({ ...copy, [part]: value }));
    }, undefined),
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
