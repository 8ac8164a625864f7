import { Suspense, useEffect, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { preloadableLazy } from './lazy-screens';
import { setupComponentTests } from './test-utils';

setupComponentTests();

// A part of the first screen loaded ahead of rendering (app/warm-up.ts) renders at once,
// without a fallback React would then keep on screen for its Suspense throttle.

/** A component that counts its mounts (a remount would lose the page's state). */
function counted(text: string) {
  const mounts = vi.fn();
  function Part({ name }: { name: string }) {
    useEffect(() => mounts(), []);
    return (
      <p>
        {text} {name}
      </p>
    );
  }
  return { Part, mounts };
}

const withFallback = (element: ReactNode) => <Suspense fallback={<p>Loading…</p>}>{element}</Suspense>;

describe('preloadableLazy', () => {
  it('renders a preloaded part in the first render: no fallback, with its props', async () => {
    const { Part } = counted('frame of');
    const load = vi.fn(async () => Part);
    const Frame = preloadableLazy(load);
    await Frame.preload();
    render(withFallback(<Frame name="S04" />));
    // Synchronously, right after the render: no fallback was shown first.
    expect(screen.getByText('frame of S04')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a part not loaded yet suspends (fallback) and shows once loaded; loaded once however often it is asked for', async () => {
    const { Part, mounts } = counted('page');
    let arrive!: (component: typeof Part) => void;
    const load = vi.fn(() => new Promise<typeof Part>((resolve) => (arrive = resolve)));
    const Page = preloadableLazy(load);
    const preloading = Page.preload();
    const view = render(withFallback(<Page name="one" />));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => {
      arrive(Part);
      await preloading;
    });
    expect(await screen.findByText('page one')).toBeTruthy();
    // A later render of the same mount keeps the lazy wrapper it started with: no remount.
    view.rerender(withFallback(<Page name="two" />));
    expect(screen.getByText('page two')).toBeTruthy();
    expect(mounts).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed preload is tried again by the next caller', async () => {
    const { Part } = counted('form');
    const load = vi.fn<() => Promise<typeof Part>>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValueOnce(Part);
    const Form = preloadableLazy(load);
    await expect(Form.preload()).rejects.toThrow('Failed to fetch');
    await expect(Form.preload()).resolves.toBe(Part);
    render(withFallback(<Form name="S04" />));
    expect(screen.getByText('form S04')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
