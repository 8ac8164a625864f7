import { Component, Suspense, lazy, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Screen } from '../engine/schemas/screen';
import { Notice } from '../components/plain/PublicCard';
import { PageLoading } from '../components/PageLoading';
import { useAccountInfo } from '../lib/session';
import { t } from '../lib/i18n';
import { FormRuntime, pageComponent } from './lazy-screens';

// Renders what the catalogue says a screen is: a hand-written page, a generated form, or an
// honest "not available yet" for capabilities still to come.

// The empty state uses MUI like the signed-in frame around it; loaded with that frame.
const NotAvailable = lazy(() => import('../components/NotAvailable').then((m) => ({ default: m.NotAvailable })));

/** E3: a failed lazy load (for example after a new deployment) shows a message instead of a blank page. */
class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Notice kind="error">
        {t('errors.preload')}{' '}
        <button type="button" className="plain-link" onClick={() => window.location.reload()}>
          {t('layout.reload')}
        </button>
      </Notice>
    );
  }
}

export function ScreenPage({ screen }: { screen: Screen }) {
  const { t: translate } = useTranslation();
  const { data: account } = useAccountInfo();
  useEffect(() => {
    const title = translate(screen.title);
    document.title = account?.exhibitName ? `${title} · ${account.exhibitName}` : `${title} · ${translate('app.name')}`;
  }, [screen.title, account?.exhibitName, translate]);

  if (screen.form) {
    return (
      <PageErrorBoundary key={screen.id}>
        <Suspense fallback={<PageLoading />}>
          <FormRuntime formId={screen.form} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  if (screen.available === false || !screen.page) {
    return (
      <Suspense fallback={<PageLoading />}>
        <NotAvailable />
      </Suspense>
    );
  }
  const Page = pageComponent(screen.page);
  // Keyed by screen: routes reuse this element, so without the key a failure would stay on
  // screen after navigating to another page.
  return (
    <PageErrorBoundary key={screen.id}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </PageErrorBoundary>
  );
}
