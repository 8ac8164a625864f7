import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { canAccess } from '../engine/catalogue';
import { catalogue } from '../generated/screens';
import { pageLoaders } from '../generated/pages';
import { AppRoutes } from './router';
import { AccountFrame, FormRuntime, MainFrame, pageComponent } from './lazy-screens';
import { FULL_USER, LocationProbe, renderWithProviders, setupComponentTests } from './test-utils';

// R2: the routing of the catalogue. Every signed-in screen opens at its path, inside its frame,
// under its title, showing the page (or form) the catalogue names for it. The pages themselves
// are stood in for by a marker naming them: their content is their own tests' (and the browser
// walks'), and rendered here on the stub API's empty answers they fell into their error boundary
// (a form without its definition, a list without its page), slowly, proving nothing about routing.

vi.mock('../generated/pages', async (importOriginal) => {
  const { pageLoaders } = await importOriginal<typeof import('../generated/pages')>();
  return {
    pageLoaders: Object.fromEntries(Object.keys(pageLoaders).map((name) => [name, async () => ({ default: () => <p data-testid="screen-content">page {name}</p> })])),
  };
});
vi.mock('../features/forms/components/FormRuntime', () => ({
  FormRuntime: ({ formId }: { formId: string }) => <p data-testid="screen-content">form {formId}</p>,
}));

setupComponentTests();

// Every part is loaded before the tests, as the warm-up loads the first screen's (app/warm-up.ts):
// the frames and pages then render without suspending (a suspended part is revealed no sooner than
// 300 ms after its spinner: React's fallback throttle, most of this test's time otherwise). The
// signed-in frame brings MUI, whose first import takes seconds on a busy machine.
beforeAll(
  () => Promise.all([MainFrame.preload(), AccountFrame.preload(), FormRuntime.preload(), ...Object.keys(pageLoaders).map((name) => pageComponent(name).preload())]),
  120_000,
);

/** What the catalogue says the screen shows: its form, its page, or the "not available yet" state. */
function expectedContent(target: (typeof catalogue.screens)[number]): string | null {
  if (target.form) return `form ${target.form}`;
  if (target.available === false || !target.page) return null;
  return `page ${target.page}`;
}

describe('R2: every signed-in screen of the catalogue opens at its path with its title', () => {
  const reachable = catalogue.screens.filter((s) => (s.layout === 'main' || s.layout === 'account') && canAccess(s, FULL_USER.displayedModule, FULL_USER.role));

  it('covers every main and account screen of an exhibitor (the full user has every exhibitor module)', () => {
    const organiserOnly = (s: (typeof catalogue.screens)[number]) =>
      ((s.modules ?? []).length > 0 && s.modules!.every((m) => m.startsWith('Organiser'))) || (s.roles !== undefined && !s.roles.includes('exhibitor'));
    expect(reachable.length).toBe(catalogue.screens.filter((s) => s.layout !== 'public' && !organiserOnly(s)).length);
    expect(reachable.length).toBeGreaterThan(20);
  });

  it.each(reachable.map((s) => [s.id, s.path, s] as const))('%s at %s', async (_id, path, target) => {
    renderAt(path);
    const content = expectedContent(target);
    // The frame and the screen's own content have loaded (lazy frame, lazy page), no spinner left.
    await waitFor(() => {
      expect(document.querySelector('[role="progressbar"]')).toBeNull();
      expect(content ? screen.getByTestId('screen-content').textContent : screen.getByText('Not available yet').textContent).toBe(content ?? 'Not available yet');
    });
    // Plain DOM queries: role queries over the whole frame cost a few hundred ms a screen in jsdom.
    expect([...document.querySelectorAll('h1')].map((h1) => h1.textContent)).toEqual([i18next.t(target.title)]);
    expect(screen.getByTestId('location').textContent).toBe(path);
  });
});

function renderAt(path: string) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { path },
  );
}
