/**
 * A sliding-window failure counter: after `limit` failures for a key within
 * `windowMs`, the key is blocked until the oldest failure leaves the window. Used for
 * login, per IP and per account. In memory: one process's view (a second server
 * process counts on its own).
 */
export function createFailureLimiter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }) {
  const failures = new Map<string, number[]>();

  function recent(key: string): number[] {
    const cutoff = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((time) => time > cutoff);
    if (list.length === 0) failures.delete(key);
    else failures.set(key, list);
    return list;
  }

  return {
    /** Milliseconds until `key` may try again; 0 when it may now. */
    retryAfterMs(key: string): number {
      const list = recent(key);
      if (list.length < limit) return 0;
      return list[list.length - limit]! + windowMs - now();
    },
    fail(key: string) {
      failures.set(key, [...recent(key), now()]);
    },
    reset(key: string) {
      failures.delete(key);
    },
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
