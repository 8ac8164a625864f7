import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { pageLoaders } from '../generated/pages';

// A fast first screen (Lighthouse, S04): the code-split parts of a screen (the signed-in frames, the form
// runtime, each page), loaded on demand and also asked for ahead of rendering (app/warm-up.ts).
//
// React.lazy suspends on its first render even when its module has already arrived (its promise
// settles a microtask later), and React holds back content that replaces a fallback until 300 ms
// after that fallback appeared (its Suspense throttle). On a cold load of S04 the frame and its
// heading (the page's largest paint) therefore showed ~300 ms after their code was there, the
// main thread idle in between. A component made here renders the loaded module directly when it is
// already there, and falls back to React.lazy (Suspense, error boundaries) when it is not.

/** A component whose code loads on demand; `preload` asks for it ahead of rendering. */
export interface PreloadableComponent<P extends object> {
  (props: P): ReactElement;
  /** Loads the module (once; again after a failure); resolves to the component. */
  preload(): Promise<ComponentType<P>>;
}

export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (failure: unknown) => {
        // A failed load is tried again by the next caller (React.lazy keeps its own failure for its boundary).
        pending = undefined;
        throw failure;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Preloadable(props: P) {
    // Chosen once per mount: turning from the lazy wrapper to the loaded component later would
    // remount everything inside it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}

/** The main layout group's frame (header, menu, title bar, footer). */
export const MainFrame = preloadableLazy(() => import('./layout/SignedInFrame').then((m) => m.MainFrame));
/** The second layout group's frame (no left menu). */
export const AccountFrame = preloadableLazy(() => import('./layout/SignedInFrame').then((m) => m.AccountFrame));
/** Generated forms share one runtime, loaded with the first form a user opens (it brings rjsf and ajv). */
export const FormRuntime = preloadableLazy(() => import('../features/forms/components/FormRuntime').then((m) => m.FormRuntime));

const pages = new Map<string, PreloadableComponent<object>>();

/** A hand-written page of the catalogue (screens.yaml `page:`), by its name in the generated page list. */
export function pageComponent(page: string): PreloadableComponent<object> {
  let component = pages.get(page);
  if (!component) {
    const loader = pageLoaders[page];
    if (!loader) throw new Error(`No page "${page}" in the generated page list`);
    component = preloadableLazy(() => loader().then((m) => m.default));
    pages.set(page, component);
  }
  return component;
}
