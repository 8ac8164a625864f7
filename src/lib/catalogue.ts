import i18next from 'i18next';
import { useSyncExternalStore } from 'react';
import type { Catalogue } from '../engine/catalogue';
import { catalogue as builtCatalogue } from '../generated/screens';
import { typedApi } from './api';
import { definedValues } from './typed-api';

// The screens as the server has them now. The web app starts with the catalogue it was
// built with, then takes the server's (GET /oga/catalogue: screens.yaml beside FORMS_DIR, read
// live) with the titles of its screens and forms, so a form an organiser adds while the portal
// runs gets its route, its place in the lists and its title without a build.

let current: Catalogue = builtCatalogue;
let version: string | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The catalogue in use; components re-render when the server's changes. */
export function useCatalogue(): Catalogue {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}

let inFlight: Promise<boolean> | null = null;

/**
 * Asks the server for its catalogue; answers whether it changed. Failing quietly keeps the one in
 * use (the built one at worst): a page must never break because this could not be read.
 */
export function refreshCatalogue(): Promise<boolean> {
  inFlight ??= typedApi
    .get('/catalogue', { auth: false, silent: true })
    .then((served) => {
      if (served.version === version) return false;
      // The server's titles win over the build's (an organiser may have changed one).
      for (const [language, strings] of Object.entries(definedValues(served.strings))) i18next.addResources(language, 'translation', strings);
      version = served.version;
      const next = { modules: served.modules, screens: served.screens };
      // Most often the same as the one in use: nothing to re-render then.
      if (JSON.stringify(next) === JSON.stringify(current)) return false;
      current = next;
      for (const listener of listeners) listener();
      return true;
    })
    .catch(() => false)
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}
