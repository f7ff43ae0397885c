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

type YieldingScheduler = { yield?: () => Promise<void> };

/**
 * Ends the current task and resumes in a new one, ahead of other queued work where the browser has `scheduler.yield`
 * (else a timer): web.dev's "yield to the main thread". Steps that each take a few ms stay a few ms each, instead of
 * one long task that blocks input (issue 35's Total Blocking Time).
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: YieldingScheduler }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
