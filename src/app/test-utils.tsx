// Shared set-up for the component tests under src/app (not a test file itself).
// Component tests under src/components may not import this file (the import rules of
// ARCHITECTURE.md forbid components → app); they set up i18next themselves.
import type { ReactElement, ReactNode } from 'react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { cleanup, configure, render, type RenderResult } from '@testing-library/react';
import { afterEach, beforeEach, vi, type Mock } from 'vitest';
import en from '../../locales/en.json';
import { FEATURE_FLAGS, type FeatureFlag } from '../engine/participation-flags';
import { catalogue } from '../generated/screens';
import { ACCOUNT_INFO_KEY, USER_INFO_KEY, type AccountInfo, type UserInfo } from '../lib/session';

/** English, loaded synchronously (the app downloads one table on start; tests need it at once). */
export function initTestI18n(): void {
  if (i18next.isInitialized) return;
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
}

/**
 * Call once at the top of a test file: English texts, React's act environment, and after every
 * test unmounting, real timers, restored globals and empty storage.
 */
export function setupComponentTests(): void {
  initTestI18n();
  // Lazy pages import MUI on first use, which can take seconds on a busy machine.
  configure({ asyncUtilTimeout: 10_000 });
  vi.setConfig({ testTimeout: 15_000 });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
    sessionStorage.clear();
  });
}

// ---------------------------------------------------------------------------------------------
// The seeded demo users (src/server/db/seed.ts)

const session = { idleSeconds: 30 * 60, warningSeconds: 120, expiresAt: '2099-01-01T00:00:00.000Z' };

/** "demo": every module of the catalogue. */
export const FULL_USER: UserInfo = {
  id: 1,
  account: 'demo',
  name: 'Aisyah Rahman',
  email: 'demo@borneo-botanica.example',
  role: 'exhibitor',
  // Every exhibitor module (an organiser's module is not an exhibitor's).
  displayedModule: catalogue.modules.filter((module) => !module.startsWith('Organiser')),
  showLeftMenus: true,
  session,
};

/** "limited": Forms and Support only. */
export const LIMITED_USER: UserInfo = {
  id: 2,
  account: 'limited',
  name: 'Budi Santoso',
  email: 'limited@kopi-nusantara.example',
  role: 'exhibitor',
  displayedModule: ['Forms', 'Support'],
  showLeftMenus: true,
  session,
};

export const ACCOUNT: AccountInfo = {
  // The portal's feature flags, off, as the server sends them for a participation without any.
  ...(Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) as Record<FeatureFlag, boolean>),
  name: 'Borneo Botanica',
  legalName: 'Borneo Botanica Sdn. Bhd.',
  boothNum: 'Hall 3 · B12',
  exhibitCode: 'AFHE2027',
  exhibitionId: 'AFHE2027',
  exhibitName: 'ASEAN Food & Hospitality Expo 2027',
  exhibitionName: 'ASEAN Food & Hospitality Expo 2027',
  companyLog: '/demo/borneo-botanica-logo.svg',
  eventLog: '/demo/afhe-logo.svg',
  eventUrl: 'https://www.afhe-expo.example/afhe2027',
  termsUrl: 'https://www.afhe-expo.example/terms-of-use',
  supportEmail: 'exhibitor-support@afhe-expo.example',
  utcOffsetMinutes: 480,
  dateOrder: 'language',
  deadlines: [
    { name: 'badges', title: 'account.badgesDeadline', dueAt: null },
    { name: 'booth', title: 'account.boothDeadline', dueAt: null },
  ],
  // Every exhibitor module (an organiser's module is not an exhibitor's).
  displayedModule: catalogue.modules.filter((module) => !module.startsWith('Organiser')),
  hideAccountHome: false,
  multilingual: [
    { label: 'English', code: 'en' },
    { label: '中文', code: 'cn' },
    { label: '日本語', code: 'ja' },
    { label: 'Tiếng Việt', code: 'vi' },
  ],
};

export const TOKEN = 'test-token';

// ---------------------------------------------------------------------------------------------
// fetch

export type FetchMock = Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;

/**
 * Replaces global fetch: a path of `answers` (without /oga) gets `{ code: 200, data }`, any other
 * call `{ code: 200, msg: 'ok', data: [] }`.
 */
export function stubFetch(answers: Record<string, unknown> = {}): FetchMock {
  const mock: FetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, 'http://localhost');
    const path = url.pathname.replace(/^\/oga/, '');
    const data = path in answers ? answers[path] : [];
    return new Response(JSON.stringify({ code: 200, msg: 'ok', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The calls made to `path` (e.g. '/oga/auth/keepalive'), as [url, init]. */
export function callsTo(mock: FetchMock, path: string): Array<[string, RequestInit | undefined]> {
  return mock.mock.calls.map(([input, init]) => [String(input), init] as [string, RequestInit | undefined]).filter(([url]) => new URL(url, 'http://localhost').pathname === path);
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** Shows where the router is, for navigation assertions. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface ProviderOptions {
  /** MemoryRouter entries; the last one is current unless `initialIndex` says otherwise. */
  path?: string | string[];
  initialIndex?: number;
  /** null: not signed in (no token, no user info). */
  user?: UserInfo | null;
  account?: AccountInfo;
  token?: string | null;
  /** Default true: user and account info are already in the SWR cache; false: fetched first. */
  prefetched?: boolean;
}

export function Providers({ children, user, account, prefetched = true }: { children: ReactNode; user: UserInfo | null; account: AccountInfo; prefetched?: boolean }) {
  const fallback = user && prefetched ? { [USER_INFO_KEY]: user, [ACCOUNT_INFO_KEY]: account } : {};
  return <SWRConfig value={{ provider: () => new Map(), fallback, shouldRetryOnError: false, dedupingInterval: 0 }}>{children}</SWRConfig>;
}

/**
 * Renders `ui` in a MemoryRouter with user and account info, a token in storage and fetch
 * stubbed (answering the user and account info with the same objects).
 */
export function renderWithProviders(ui: ReactElement, options: ProviderOptions = {}): RenderResult & { fetchMock: FetchMock } {
  const user = options.user === undefined ? FULL_USER : options.user;
  const account = options.account ?? ACCOUNT;
  const token = options.token === undefined ? (user ? TOKEN : null) : options.token;
  if (token) localStorage.setItem('oem_token', token);
  else localStorage.removeItem('oem_token');
  const fetchMock = stubFetch(user ? { [USER_INFO_KEY]: user, [ACCOUNT_INFO_KEY]: account } : {});
  const entries = Array.isArray(options.path) ? options.path : [options.path ?? '/'];
  const result = render(
    <Providers user={user} account={account} prefetched={options.prefetched}>
      <MemoryRouter initialEntries={entries} initialIndex={options.initialIndex ?? entries.length - 1}>
        {ui}
      </MemoryRouter>
    </Providers>,
  );
  return { ...result, fetchMock };
}
