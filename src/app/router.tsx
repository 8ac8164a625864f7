import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { catalogue } from '../generated/screens';
import type { Layout, Screen } from '../engine/catalogue';
import { AccountLayout } from './layout/AccountLayout';
import { MainLayout } from './layout/MainLayout';
import { PublicLayout } from './layout/PublicLayout';
import { RequireSession, ScreenGuard } from './guards';
import { ScreenPage } from './ScreenPage';

// Routes come from the catalogue (screens.yaml): one route per screen, grouped by layout.

function routesFor(layout: Layout): RouteObject[] {
  return catalogue.screens
    .filter((screen: Screen) => screen.layout === layout)
    .map((screen) => ({
      path: screen.path,
      element: (
        <ScreenGuard screen={screen}>
          <ScreenPage screen={screen} />
        </ScreenGuard>
      ),
      handle: { screen },
    }));
}

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to="/home" replace /> },
  { element: <PublicLayout />, children: routesFor('public') },
  {
    element: (
      <RequireSession>
        <MainLayout />
      </RequireSession>
    ),
    children: routesFor('main'),
  },
  {
    element: (
      <RequireSession>
        <AccountLayout />
      </RequireSession>
    ),
    children: routesFor('account'),
  },
  { path: '*', element: <Navigate to="/404" replace /> },
];

export const router = createBrowserRouter(routes);
