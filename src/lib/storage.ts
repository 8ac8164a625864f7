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
  clear: () =>
    safe(() => {
      localStorage.removeItem(STORAGE_KEYS.token);
      // The session's offline copy goes with the session (sign-out, expiry).
      localStorage.removeItem(STORAGE_KEYS.offlineSession);
    }, undefined),
};

/**
 * LD1 (the installable scanner): the signed-in user's own user info and account info, as last
 * answered for the current token, so that the scanner opens with no network (a hall without
 * Wi-Fi). Read only when the server cannot be reached, never when it answered; cleared with
 * the token.
 */
export const offlineSessionStore = {
  get: (path: string): unknown => {
    const token = tokenStore.get();
    return safe(() => {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEYS.offlineSession) ?? 'null') as { token: string; answers: Record<string, unknown> } | null;
      return token && saved?.token === token ? saved.answers[path] : undefined;
    }, undefined);
  },
  set: (path: string, answer: unknown) => {
    const token = tokenStore.get();
    if (!token) return;
    safe(() => {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEYS.offlineSession) ?? 'null') as { token: string; answers: Record<string, unknown> } | null;
      const answers = saved?.token === token ? saved.answers : {};
      localStorage.setItem(STORAGE_KEYS.offlineSession, JSON.stringify({ token, answers: { ...answers, [path]: answer } }));
    }, undefined);
  },
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
