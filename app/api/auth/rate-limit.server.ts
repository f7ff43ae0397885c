/**
 * A sliding-window counter: after `limit` events for a key within `windowMs`, the key
 * must wait until the oldest event leaves the window. Login counts attempts with it
 * (see login-guard.server.ts), anonymous lookups count requests. In memory: one
 * process's view (a second server process counts on its own).
 */
export function createWindowLimiter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }) {
  // Objects, not bare times: an event taken back must be that one, not another at the same millisecond.
  const events = new Map<string, Array<{ time: number }>>();

  function recent(key: string): Array<{ time: number }> {
    const cutoff = now() - windowMs;
    const list = (events.get(key) ?? []).filter((event) => event.time > cutoff);
    if (list.length === 0) events.delete(key);
    else events.set(key, list);
    return list;
  }

  return {
    /** Milliseconds until `key` may go again; 0 when it may now. */
    retryAfterMs(key: string): number {
      const list = recent(key);
      if (list.length < limit) return 0;
      return list[list.length - limit]!.time + windowMs - now();
    },
    /** Counts an event for `key` now; the function returned takes that event back. */
    record(key: string): () => void {
      const event = { time: now() };
      events.set(key, [...recent(key), event]);
      return () => {
        const list = events.get(key)?.filter((other) => other !== event) ?? [];
        if (list.length === 0) events.delete(key);
        else events.set(key, list);
      };
    },
    reset(key: string) {
      events.delete(key);
    },
  };
}

export type WindowLimiter = ReturnType<typeof createWindowLimiter>;
