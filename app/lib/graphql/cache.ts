import { composeExchanges } from "@urql/core";
import { cacheExchange, offlineExchange, type CacheExchangeOpts, type StorageAdapter } from "@urql/exchange-graphcache";
import { createCacheUpdates } from "./cache-updates";
import { createMutationHold } from "./hold-mutations";
import { optimisticUpdates } from "./optimistic-updates";

function cacheConfig(): CacheExchangeOpts {
  return {
    keys: {
      MessageConnection: () => null,
      // A forecast's parts are values of its place's Weather, not things of their own: a page of
      // ten places would otherwise key (and send the ids of) some 560 of them.
      CurrentConditions: () => null,
      HourlyForecast: () => null,
      DailyForecast: () => null,
      // A preview's matches belong to that preview only (the same window may peak differently under another threshold).
      AlertMatch: () => null,
      // What a message says is a value of that message: the place in it is the place as it was then.
      MessageContent: () => null,
      MessageContentPlace: () => null,
      BriefingPlaceFigures: () => null,
    },
    updates: createCacheUpdates(),
  };
}

/**
 * The normalised cache on both sides: objects keyed by `__typename` + `id` (or `_id`,
 * graphcache's default); the inbox page object has no identity of its own. With
 * `storage` (the browser), the cache persists for offline use and mutations made
 * offline wait in it until the network returns; until the store has been read, the
 * offline exchange would refuse such a mutation, so mutations wait for that read.
 */
export function createCacheExchange(storage?: StorageAdapter) {
  if (!storage) return cacheExchange(cacheConfig());
  const hold = createMutationHold();
  const onCacheHydrated = () => {
    storage.onCacheHydrated?.();
    hold.open();
  };
  const offline = offlineExchange({ ...cacheConfig(), storage: { ...storage, onCacheHydrated }, optimistic: optimisticUpdates });
  return composeExchanges([offline, hold.exchange]);
}
