import { createApiClient } from './api-client';
import { createTypedApi } from './typed-api';
import { t } from './i18n';
import { languageStore, logoutReasonStore, tokenStore } from './storage';
import { resolveLanguage } from '../engine/language';
import { showToast } from './toast';

// The app's one API client, wired to the browser: token and language from storage, toasts,
// and the way back to /login when the session is no longer valid.

let lastServerContact = Date.now();

/** When the server last saw this session (any API answer counts as activity). */
export function lastServerContactAt(): number {
  return lastServerContact;
}

export const api = createApiClient({
  fetch: (...args) => {
    const result = globalThis.fetch(...args);
    void result.then(
      () => {
        lastServerContact = Date.now();
      },
      () => undefined,
    );
    return result;
  },
  getToken: () => tokenStore.get(),
  // L4: the stored language (spec §7), so a request sent while the page reloads into a new
  // language already names it.
  getLanguage: () => resolveLanguage('', languageStore.get()),
  session: window.sessionStorage,
  notify: (kind, message, options) => showToast(kind, message, options),
  translate: (key, params) => t(key, params),
  onSessionInvalid: (reason) => endSession(reason === 'sessionInactive' ? 'sessionInactive' : 'invalidSession'),
});

/**
 * Clears the session in this browser and goes to /login, saying why once there. Several
 * requests can find the session over at the same moment; only the first decides the reason and
 * navigates (a second navigation would reload /login after it had shown the message).
 */
export function endSession(reason: 'sessionInactive' | 'invalidSession' | 'loggedOut') {
  const alreadyEnded = tokenStore.get() === null && logoutReasonStore.get() !== null;
  if (alreadyEnded) return;
  tokenStore.clear();
  if (reason !== 'loggedOut') logoutReasonStore.set(reason);
  if (window.location.pathname !== '/login') window.location.assign('/login');
}

/** The same client, typed from the route schemas: prefer it for every call the OpenAPI document describes. */
export const typedApi = createTypedApi(api);
