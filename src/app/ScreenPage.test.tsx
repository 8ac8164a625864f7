import { afterAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router-dom';
import type { Screen } from '../engine/schemas/screen';
import { pageLoaders } from '../generated/pages';
import { ScreenPage } from './ScreenPage';
import { ACCOUNT, renderWithProviders, setupComponentTests } from './test-utils';

setupComponentTests();

// Pages that exist only in this test, added to the generated page list.
pageLoaders['test/FailingPage'] = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/FailingPage-1a2b3c.js'));
pageLoaders['test/WorkingPage'] = async () => ({ default: () => <p>The working page</p> });
afterAll(() => {
  delete pageLoaders['test/FailingPage'];
  delete pageLoaders['test/WorkingPage'];
});

const screenWith = (page: string | undefined, extra: Partial<Screen> = {}): Screen => ({
  id: 'testScreen',
  path: '/test-screen',
  layout: 'main',
  title: 'screens.dashboard',
  page,
  ...extra,
});

describe('ScreenPage', () => {
  it('E3: a page whose chunk fails to load shows the preload message and a Reload button', async () => {
    // React reports the error the boundary caught; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<ScreenPage screen={screenWith('test/FailingPage')} />, { path: '/test-screen' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Part of the page could not be loaded. Please reload the page.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('E3: Reload reloads the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderWithProviders(<ScreenPage screen={screenWith('test/FailingPage')} />, { path: '/test-screen' });
    fireEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('E3: after a failed page, navigating to another page shows that page (the failure does not stick)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Like the router: one route element per screen, no keys, so React reuses the component tree.
    renderWithProviders(
      <>
        <Link to="/working">Open the working page</Link>
        <Routes>
          <Route path="/failing" element={<ScreenPage screen={screenWith('test/FailingPage', { id: 'failing', path: '/failing' })} />} />
          <Route path="/working" element={<ScreenPage screen={screenWith('test/WorkingPage', { id: 'working', path: '/working' })} />} />
        </Routes>
      </>,
      { path: '/failing' },
    );
    await screen.findByRole('button', { name: 'Reload' });
    fireEvent.click(screen.getByRole('link', { name: 'Open the working page' }));
    expect(await screen.findByText('The working page')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
  });

  it('a page that loads is shown, without the preload message', async () => {
    renderWithProviders(<ScreenPage screen={screenWith('test/WorkingPage')} />, { path: '/test-screen' });
    expect(await screen.findByText('The working page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a screen that is not available yet shows the empty state', async () => {
    renderWithProviders(<ScreenPage screen={screenWith(undefined, { available: false })} />, { path: '/test-screen' });
    expect(await screen.findByText('Not available yet')).toBeTruthy();
  });

  it('sets the document title to the screen title and the exhibition', async () => {
    renderWithProviders(<ScreenPage screen={screenWith('test/WorkingPage')} />, { path: '/test-screen' });
    await screen.findByText('The working page');
    expect(document.title).toBe(`Dashboard · ${ACCOUNT.exhibitName}`);
  });
});
