import { cacheExchange } from "@urql/exchange-graphcache";
import { createCacheUpdates } from "./cache-updates";

/**
 * The normalised cache on both sides: objects keyed by `__typename` + `id` (or `_id`,
 * graphcache's default); the inbox page object has no identity of its own.
 */
export function createCacheExchange() {
  return cacheExchange({
    keys: {
      MessageConnection: () => null,
      // A preview's matches belong to that preview only (the same window may peak differently under another threshold).
      AlertMatch: () => null,
    },
    updates: createCacheUpdates(),
  });
}
