/**
 * Runs `callback` once the browser has nothing better to do (at the latest after
 * `timeoutMs`): the moment to load what the first paint did not need. Returns a cancel function.
 */
export function whenBrowserIdle(callback: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, Math.min(timeoutMs, 1000));
  return () => clearTimeout(handle);
}
