import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n, t } from './lib/i18n';
import { exchangeLinkCode, takeLinkCodeFromUrl } from './lib/link-code';
import { tokenStore } from './lib/storage';
import { showToast } from './lib/toast';
import { warmUpFirstScreen } from './app/warm-up';

// S3: a sign-in link's code leaves the address bar before anything else runs.
const linkCode = takeLinkCodeFromUrl(window.location, window.history);
// The first screen's code and data load beside the language table (app/warm-up.ts); the first
// render waits for both the table and the screen's frame.
const firstScreen = linkCode ? Promise.resolve() : warmUpFirstScreen(window.location.pathname);

void Promise.all([initI18n(), firstScreen]).then(async () => {
  // Nobody signed in: the link signs in before the first route renders. Someone signed in:
  // the app asks before switching (LinkSwitchPrompt).
  let switchCode: string | null = null;
  if (linkCode && tokenStore.get()) switchCode = linkCode;
  else if (linkCode) await exchangeLinkCode(linkCode).catch(() => showToast('error', t('errors.linkCodeInvalid')));
  // Short main-thread tasks (Lighthouse TBT): the first render is a transition, which React renders in ~5 ms
  // slices. With the first screen's code already loaded (app/warm-up.ts) the frame and the page
  // otherwise rendered in one task of ~600 ms on /orderForms; as a plain (default-priority)
  // render React does not yield.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App linkCode={switchCode} />
      </StrictMode>,
    ),
  );
});
