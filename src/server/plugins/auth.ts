import fp from 'fastify-plugin';
import type { FastifyContextConfig } from 'fastify';
import { API_BASE } from '../../engine/constants';
import { canAccess, findScreen } from '../../engine/catalogue';
import { catalogue, type ScreenId } from '../../generated/screens';
import type { EventRow, Role } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AuthContext } from './sessions';
import { SessionCache } from './session-cache';
import type { SessionPolicy } from '../../engine/session-rules';
import type { ApiKeyScope } from '../../engine/api-keys';
import { isApiKey, resolveApiKey } from './api-keys';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No session needed (login, forgot password, public branding). */
    public?: boolean;
    /** The catalogue screen whose modules this route needs (P2, same rule as the browser). */
    screen?: ScreenId;
    /**
     * Roles allowed; all roles when absent. A route that serves a screen takes the screen's roles
     * from screens.yaml and names roles only to be narrower (refused at start when it repeats them).
     */
    roles?: Role[];
    /** LD1: a scanning device's token may call this route (the scanning API only). */
    device?: boolean;
    /** LD2: an exhibitor's API key with this scope may call this route (others refuse API keys). */
    apiKey?: ApiKeyScope;
    /** The answer is named by its content hash and may be cached for good (security.ts). */
    immutable?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The bearer token of this request, when there is one. */
    bearer: string | null;
  }
}

function bearerOf(header: string | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header ?? '');
  return match?.[1] ?? null;
}

/** Authentication in one hook: every /oga route needs a live session unless it says `public`. */
export default fp<{ policy: SessionPolicy }>(
  async (app, { policy }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('bearer', null);
    app.addHook('onRoute', (route) => {
      const { screen: screenId, roles } = (route.config ?? {}) as FastifyContextConfig;
      if (!screenId || !roles) return;
      const screen = findScreen(catalogue, screenId);
      if (screen?.roles && screen.roles.length === roles.length && roles.every((role) => screen.roles?.includes(role))) {
        throw new Error(`${route.method} ${route.url}: roles repeat those of screen ${screenId} in screens.yaml; leave them to the catalogue`);
      }
    });
    const sessions = new SessionCache(app.db, policy);
    app.dbWrites.onWrite(sessions.forget);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith(`${API_BASE}/`)) return;
      const config = request.routeOptions.config ?? {};
      request.bearer = bearerOf(request.headers.authorization);
      if (config.public) return;
      // An unknown /oga path matches no API route (only the web app's catch-all): not-found answers it.
      if (!request.routeOptions.url?.startsWith(`${API_BASE}/`)) return;
      if (!request.bearer) throw new AppError('invalidSession');
      if (isApiKey(request.bearer)) {
        const auth = await resolveApiKey(app.db, request.bearer);
        if (!auth) throw new AppError('invalidSession');
        if (!config.apiKey || !auth.apiKey?.scopes.includes(config.apiKey)) throw new AppError('apiKeyScope');
        request.auth = auth;
        checkAccess(auth, config);
        return;
      }
      const resolution = await sessions.resolve(request.bearer);
      if (resolution.status === 'idle-expired') throw new AppError('sessionInactive');
      if (resolution.status !== 'active') throw new AppError('invalidSession');
      request.auth = resolution.auth;
      if (resolution.auth.device && !config.device) throw new AppError('deviceTokenScope');
      checkAccess(resolution.auth, config);
    });
    /** The route's roles and screen (modules), the same for a session, a device token and an API key. */
    const checkAccess = (auth: AuthContext, config: FastifyContextConfig) => {
      if (config.roles && !config.roles.includes(auth.user.role)) throw new AppError('noPermission');
      if (config.screen) {
        // The screens as the form set in use has them (a screens.yaml change is live).
        const screen = findScreen(app.forms.catalogue(), config.screen);
        if (!screen || !canAccess(screen, auth.displayedModules, auth.user.role)) throw new AppError('noPermission');
      }
    };
  },
  { name: 'auth', dependencies: ['database', 'errors', 'forms'], decorators: { fastify: ['forms'] } },
);

/** The auth context of a route that is not public (the hook guarantees it). */
export function requireAuth(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new AppError('invalidSession');
  return request.auth;
}

/** The event of an exhibitor's, team user's or contractor's session, or of an organiser's current event. */
export function eventOf(auth: AuthContext): EventRow {
  if (!auth.event) throw new AppError('noCurrentEvent');
  return auth.event;
}
