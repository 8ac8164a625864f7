import { vi } from 'vitest';

/**
 * Unit-dom tests: every media query answers as a phone's screen (below 600 px, lists as cards) or
 * not (jsdom has no matchMedia). Undone by `vi.unstubAllGlobals()`.
 */
export function screenIs(phone: boolean) {
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: phone,
    media,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}
