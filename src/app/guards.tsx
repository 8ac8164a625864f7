import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { canAccess, type Screen } from '../engine/catalogue';
import { useUserInfo } from '../lib/session';
import { tokenStore } from '../lib/storage';
import { PageLoading } from '../components/PageLoading';

/** S4: without a token every protected route goes to /login; user info is fetched first. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: currentUser, error } = useUserInfo();
  // Issue 13 (Lighthouse TBT): user info arrives through SWR's store, whose updates React renders
  // synchronously, so the signed-in frame and its page (already loaded) were rendered in one task
  // of 200–600 ms on /dashboard. From a deferred copy, React renders them in slices instead.
  const user = useDeferredValue(currentUser);
  if (!tokenStore.get()) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={redirect === '/home' ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  if (error) return <Navigate to="/login" replace />;
  if (!user) return <PageLoading />;
  return <>{children}</>;
}

/** P2: a screen with modules (or roles) opens only when the user has one of them; otherwise /401. */
export function ScreenGuard({ screen, children }: { screen: Screen; children: ReactNode }) {
  const { data: user } = useUserInfo();
  if (screen.layout === 'public' || (!screen.modules?.length && !screen.roles)) return <>{children}</>;
  if (!user) return <PageLoading />;
  if (!canAccess(screen, user.displayedModule, user.role)) return <Navigate to="/401" replace />;
  return <>{children}</>;
}
