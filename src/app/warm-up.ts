import { findScreenByPath } from '../engine/catalogue';
import { preloadFormPayload } from '../features/forms/lib/payload';
import { pageLoaders } from '../generated/pages';
import { catalogue } from '../generated/screens';
import { preloadSession } from '../lib/session';
import { tokenStore } from '../lib/storage';

// Issue 13 (Lighthouse): the first screen's code and data are asked for at start, beside the
// language table, instead of one after another as each lazy part renders (the signed-in frame,
// then the page, then its data: three more round trips before anything shows). The lazy
// components then find their modules loaded and SWR its answers. A failure here is silent: the
// component's own load reports it.

const quietly = (load: () => Promise<unknown>) => void load().catch(() => undefined);

export function warmUpFirstScreen(pathname: string): void {
  const screen = findScreenByPath(catalogue, pathname === '/' ? '/home' : pathname);
  if (!screen) return;
  if (screen.layout !== 'public') {
    // Signed out, the guard sends the user to /login: nothing of this screen is needed.
    if (!tokenStore.get()) return;
    quietly(() => import('./layout/SignedInFrame'));
    preloadSession();
  }
  if (screen.form) {
    quietly(() => import('../features/forms/components/FormRuntime'));
    preloadFormPayload(screen.form);
  } else if (screen.page && screen.available !== false) {
    const loader = pageLoaders[screen.page];
    if (loader) quietly(loader);
  }
}
