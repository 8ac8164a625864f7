import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { canAccess } from '../engine/catalogue';
import type { Screen } from '../engine/schemas/screen';
import { useAccountInfo, useUserInfo } from '../lib/session';
import { tokenStore } from '../lib/storage';
import { PageLoading } from '../components/PageLoading';

/**
 * S4: without a token every protected route goes to /login; user info is fetched first.
 * The frame also waits for the account info (asked for beside the user info at start, so no
 * later): drawn before it, the whole frame was drawn twice, and an answer landing while React
 * rendered the frame in slices made React render it all again synchronously when committing
 * (useSyncExternalStore's consistency check), one task of 100–300 ms (/dashboard TBT).
 * An account info that fails does not hold the frame back: the frame shows without it.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: user, error } = useUserInfo();
  const { data: account, error: accountError } = useAccountInfo();
  const ready = Boolean(user) && (Boolean(account) || Boolean(accountError));
  // Short main-thread tasks (Lighthouse TBT): the answers arrive through SWR's store, whose updates React renders
  // synchronously, so the frame and its page (already loaded: app/lazy-screens.tsx) were drawn in
  // one task. Shown from a deferred copy, React draws them in slices (a store changing meanwhile
  // can still make it finish synchronously, see above).
  const shown = useDeferredValue(ready);
  if (!tokenStore.get()) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={redirect === '/home' ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  if (error) return <Navigate to="/login" replace />;
  if (!ready || !shown) return <PageLoading />;
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
