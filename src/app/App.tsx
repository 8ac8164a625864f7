import { useEffect } from 'react';
import { SWRConfig } from 'swr';
import { Toaster } from '../components/Toaster';
import { t } from '../lib/i18n';
import { showToast } from '../lib/toast';
import { deferFirstAnswer } from './deferred-answers';
import { LinkSwitchPrompt } from './LinkSwitchPrompt';
import { AppRouter } from './router';

const SWR_OPTIONS = { shouldRetryOnError: false, use: [deferFirstAnswer] };

/** `linkCode`: a sign-in link opened while someone is signed in (asked before switching). */
export function App({ linkCode = null }: { linkCode?: string | null } = {}) {
  // E3: a chunk that fails to load (say, after a new deployment) is reported; the error
  // boundary around the page then offers a reload.
  useEffect(() => {
    const onPreloadError = () => showToast('error', t('errors.preload'));
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
  return (
    <SWRConfig value={SWR_OPTIONS}>
      <AppRouter />
      {linkCode && <LinkSwitchPrompt code={linkCode} />}
      <Toaster />
    </SWRConfig>
  );
}
