/**
 * A sliding-window counter: after `limit` events for a key within `windowMs`, the key
 * must wait until the oldest event leaves the window. Login counts failures with it
 * (per address and per account), anonymous lookups count requests. In memory: one
 * process's view (a second server process counts on its own).
 */
export function createWindowLimiter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }) {
  const events = new Map<string, number[]>();

  function recent(key: string): number[] {
    const cutoff = now() - windowMs;
    const list = (events.get(key) ?? []).filter((time) => time > cutoff);
    if (list.length === 0) events.delete(key);
    else events.set(key, list);
    return list;
  }

  return {
    /** Milliseconds until `key` may go again; 0 when it may now. */
    retryAfterMs(key: string): number {
      const list = recent(key);
      if (list.length < limit) return 0;
      return list[list.length - limit]! + windowMs - now();
    },
    record(key: string) {
      events.set(key, [...recent(key), now()]);
    },
    reset(key: string) {
      events.delete(key);
    },
  };
}

export type WindowLimiter = ReturnType<typeof createWindowLimiter>;
