/**
 * Runs `callback` when the browser is idle (at the latest after `timeoutMs`), or on the next
 * task where requestIdleCallback is missing (Safari, jsdom). Returns what cancels it.
 */
export function whenIdle(callback: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(callback, 0);
  return () => clearTimeout(id);
}
