import { Suspense, useEffect, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import type { Catalogue } from '../engine/catalogue';
import type { Layout } from '../engine/schemas/screen';
import { refreshCatalogue, useCatalogue } from '../lib/catalogue';
import { PageLoading } from '../components/PageLoading';
import { PublicLayout } from './layout/PublicLayout';
import { ScreenGuard } from './guards';
import { ScreenPage } from './ScreenPage';
import { AccountFrame, MainFrame } from './lazy-screens';

// Routes come from the catalogue (screens.yaml, as the server has it now: lib/catalogue.ts): one
// route per screen, grouped by layout. The signed-in frames load on demand, so /login does not
// download the header, menu and MUI (app/lazy-screens.tsx).

function screenRoutes(catalogue: Catalogue, layout: Layout) {
  return catalogue.screens
    .filter((screen) => screen.layout === layout)
    .map((screen) => (
      <Route
        key={screen.id}
        path={screen.path}
        element={
          <ScreenGuard screen={screen}>
            <ScreenPage screen={screen} />
          </ScreenGuard>
        }
      />
    ));
}

/**
 * An address no screen has: perhaps one added to the server's catalogue since this page loaded (a
 * new form's link), so the catalogue is asked for once before saying "not found".
 */
function UnknownAddress() {
  const { pathname } = useLocation();
  const [checked, setChecked] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void refreshCatalogue().then(() => {
      if (current) setChecked(pathname);
    });
    return () => {
      current = false;
    };
  }, [pathname]);
  return checked === pathname ? <Navigate to="/404" replace /> : <PageLoading />;
}

export function AppRoutes() {
  const catalogue = useCatalogue();
  // The server's catalogue replaces the built one once read, and again when the window regains focus.
  useEffect(() => {
    void refreshCatalogue();
    const onFocus = () => void refreshCatalogue();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/home" replace />} />
      <Route element={<PublicLayout />}>{screenRoutes(catalogue, 'public')}</Route>
      <Route
        element={
          <Suspense fallback={<PageLoading />}>
            <MainFrame />
          </Suspense>
        }
      >
        {screenRoutes(catalogue, 'main')}
      </Route>
      <Route
        element={
          <Suspense fallback={<PageLoading />}>
            <AccountFrame />
          </Suspense>
        }
      >
        {screenRoutes(catalogue, 'account')}
      </Route>
      <Route path="*" element={<UnknownAddress />} />
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
