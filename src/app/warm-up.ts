import { findScreenByPath } from '../engine/catalogue';
import { preloadFormPayload } from '../features/forms/lib/payload';
import { catalogue } from '../generated/screens';
import { preloadSession } from '../lib/session';
import { tokenStore } from '../lib/storage';
import { AccountFrame, FormRuntime, MainFrame, pageComponent } from './lazy-screens';

// A fast first screen (Lighthouse): the first screen's code and data are asked for at start, beside the
// language table, instead of one after another as each lazy part renders (the signed-in frame,
// then the page, then its data: three more round trips before anything shows). The lazy
// components then find their modules loaded (app/lazy-screens.tsx) and SWR its answers. A failure
// here is silent: the component's own load reports it.

const quietly = (load: () => Promise<unknown>): Promise<void> =>
  Promise.resolve()
    .then(load)
    .then(
      () => undefined,
      () => undefined,
    );

/**
 * Starts loading what the screen at `pathname` needs. Resolves (never rejects) once the frame
 * around it has loaded (at once for public screens): the first render waits for that, so the frame
 * and the page heading render in one go, without a spinner that React would then keep on screen
 * for its Suspense throttle. The page itself may arrive later (it shows its own spinner).
 */
export function warmUpFirstScreen(pathname: string): Promise<void> {
  const screen = findScreenByPath(catalogue, pathname === '/' ? '/home' : pathname);
  if (!screen) return Promise.resolve();
  let frame = Promise.resolve();
  if (screen.layout !== 'public') {
    // Signed out, the guard sends the user to /login: nothing of this screen is needed.
    if (!tokenStore.get()) return Promise.resolve();
    frame = quietly(() => (screen.layout === 'account' ? AccountFrame : MainFrame).preload());
    preloadSession();
  }
  if (screen.form) {
    void quietly(() => FormRuntime.preload());
    preloadFormPayload(screen.form);
  } else if (screen.page && screen.available !== false) {
    void quietly(() => pageComponent(screen.page!).preload());
  }
  return frame;
}
