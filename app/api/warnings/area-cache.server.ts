import { LRUCache } from "lru-cache";
import { asFeedError, type FeedError } from "./feed-error.server";

/**
 * One fetch per area and interval, shared by every place and user in the area: an lru-cache
 * whose `fetch` also joins callers to a fetch already under way (in-flight de-duplication).
 * A failure is cached for a shorter while (the service is asked again soon, not on every call), and
 * the area's last good answer is served meanwhile, marked stale, until it is `maxStaleMs` old.
 */
export type AreaResult<T> = { ok: true; value: T; fetchedAt: Date; stale: boolean } | { ok: false; error: FeedError };

export type AreaCacheOptions<T> = {
  load: (key: string) => Promise<T>;
  /** How long an answer is fresh. */
  ttlMs: number;
  /** How long a failure is cached before the service is asked again. */
  failureTtlMs: number;
  /** How old a last good answer may be and still be served while the service fails. */
  maxStaleMs: number;
  /** Areas cached. */
  max: number;
  onSuccess?: (key: string) => void;
  onFailure?: (key: string, error: FeedError) => void;
  now?: () => Date;
};

export function createAreaCache<T extends object>(options: AreaCacheOptions<T>) {
  const now = options.now ?? (() => new Date());
  // Ages are counted on the caller's clock when it has one (a test's, moved by hours), else on lru-cache's own; read
  // each time (lru-cache otherwise keeps a reading until a timer runs, which a jump of the clock would outlast).
  const perf = options.now ? { perf: { now: () => now().getTime() }, ttlResolution: 0 } : {};
  const lastGood = new LRUCache<string, { value: T; fetchedAt: Date }>({ max: options.max, ttl: options.maxStaleMs, ...perf });
  const cache = new LRUCache<string, AreaResult<T>>({
    max: options.max,
    ttl: options.ttlMs,
    ...perf,
    fetchMethod: async (key, _stale, { options: setOptions }) => {
      try {
        const value = await options.load(key);
        const fetchedAt = now();
        lastGood.set(key, { value, fetchedAt });
        options.onSuccess?.(key);
        return { ok: true, value, fetchedAt, stale: false };
      } catch (error) {
        const failure = asFeedError(error);
        options.onFailure?.(key, failure);
        setOptions.ttl = options.failureTtlMs;
        const last = lastGood.get(key);
        return last ? { ok: true, ...last, stale: true } : { ok: false, error: failure };
      }
    },
  });
  return {
    /**
     * The area's answer; one fetched before `notBefore` is fetched again (another instance read a newer one and woke
     * the engine on it: deciding on an older one would miss what it woke for).
     */
    async get(key: string, notBefore?: Date): Promise<AreaResult<T>> {
      const held = notBefore ? cache.get(key) : undefined;
      const outdated = held?.ok === true && held.fetchedAt.getTime() < notBefore!.getTime();
      return (await cache.fetch(key, outdated ? { forceRefresh: true } : {}))!;
    },
    /** Forgets every answer (tests; a configuration change). */
    clear() {
      cache.clear();
      lastGood.clear();
    },
  };
}
