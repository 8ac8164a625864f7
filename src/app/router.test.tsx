import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { AppRoutes } from './router';
import { callsTo, FULL_USER, LIMITED_USER, LocationProbe, renderWithProviders, setupComponentTests, TOKEN } from './test-utils';

setupComponentTests();

// The signed-in frame brings MUI, whose first import takes seconds on a busy machine: loaded
// before the tests, so the first of them does not spend its waiting time on it.
beforeAll(() => import('./layout/SignedInFrame'), 120_000);

function renderAt(path: string, options: Parameters<typeof renderWithProviders>[1] = {}) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { path, ...options },
  );
}

/** No loading spinner is left (the lazy frame, page and their data have arrived). */
const pageLoaded = () => waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());

const heading1 = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('AppRoutes', () => {
  it('R1: "/" redirects to /home, which shows Home ("Welcome, <name>")', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: `Welcome, ${FULL_USER.name}` })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/home');
    await pageLoaded();
  });

  it('R1: an unknown path ends on /404 "Page not found"', async () => {
    renderAt('/no/such/page');
    expect(await heading1('Page not found')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/404');
  });

  it('P2: the limited user (Forms, Support) opening /dashboard ends on /401 "No access"', async () => {
    renderAt('/dashboard', { user: LIMITED_USER });
    expect(await heading1('No access')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/401');
  });

  it('P2: the limited user may open a screen of a module they have (/orderForms)', async () => {
    renderAt('/orderForms', { user: LIMITED_USER });
    expect(await heading1('Forms')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/orderForms');
    await pageLoaded();
  });

  it('P2: the demo user at /dashboard sees the title "Dashboard" and, with no leads yet, the dashboard\'s empty state', async () => {
    renderAt('/dashboard', { user: FULL_USER });
    expect(await heading1('Dashboard')).toBeTruthy();
    expect(await screen.findByText(/^No leads yet\./)).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    await pageLoaded();
  });

  it('S4: without a token /home goes to the login page (Account ID field)', async () => {
    renderAt('/home', { user: null });
    expect(await screen.findByLabelText('Account ID')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('S4: with a token but no user info yet, the info is fetched first, then the screen opens', async () => {
    const { fetchMock } = renderAt('/dashboard', { prefetched: false });
    expect(await heading1('Dashboard')).toBeTruthy();
    const [, init] = callsTo(fetchMock, '/oga/user/info')[0]!;
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    await pageLoaded();
  });

  it('S4: without a token another protected path goes to /login with a redirect back', async () => {
    renderAt('/event-info?tab=past', { user: null });
    expect(await screen.findByLabelText('Account ID')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe(`/login?redirect=${encodeURIComponent('/event-info?tab=past')}`);
  });
});
