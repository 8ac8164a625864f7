import { Suspense, lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { catalogue } from '../generated/screens';
import type { Layout } from '../engine/catalogue';
import { PageLoading } from '../components/PageLoading';
import { PublicLayout } from './layout/PublicLayout';
import { ScreenGuard } from './guards';
import { ScreenPage } from './ScreenPage';

// Routes come from the catalogue (screens.yaml): one route per screen, grouped by layout.
// The signed-in frames load on demand, so /login does not download the header, menu and MUI.

const MainFrame = lazy(() => import('./layout/SignedInFrame').then((m) => ({ default: m.MainFrame })));
const AccountFrame = lazy(() => import('./layout/SignedInFrame').then((m) => ({ default: m.AccountFrame })));

function screenRoutes(layout: Layout) {
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

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/home" replace />} />
      <Route element={<PublicLayout />}>{screenRoutes('public')}</Route>
      <Route
        element={
          <Suspense fallback={<PageLoading />}>
            <MainFrame />
          </Suspense>
        }
      >
        {screenRoutes('main')}
      </Route>
      <Route
        element={
          <Suspense fallback={<PageLoading />}>
            <AccountFrame />
          </Suspense>
        }
      >
        {screenRoutes('account')}
      </Route>
      <Route path="*" element={<Navigate to="/404" replace />} />
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
