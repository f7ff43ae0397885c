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

const INTENT_EVENTS = ["pointerdown", "keydown", "focusin", "touchstart"] as const;
let idleOrIntent: Promise<void> | null = null;

/**
 * Settles once, for the whole page: at the first idle moment after load, or at once when the
 * person starts to interact (a pointer down comes before its click, so work waiting for this is
 * ready by the time the click is handled). Only for the browser.
 */
export function browserIdleOrIntent(): Promise<void> {
  idleOrIntent ??= new Promise<void>((resolve) => {
    const settle = () => {
      cancel();
      for (const type of INTENT_EVENTS) window.removeEventListener(type, settle, true);
      resolve();
    };
    const cancel = whenBrowserIdle(settle);
    for (const type of INTENT_EVENTS) window.addEventListener(type, settle, { capture: true, passive: true });
  });
  return idleOrIntent;
}
