import { composeExchanges } from "@urql/core";
import { cacheExchange, offlineExchange, type CacheExchangeOpts, type StorageAdapter } from "@urql/exchange-graphcache";
import { createMutationHold } from "./hold-mutations";
import { lazyCacheUpdates } from "./lazy-cache-updates";
import { optimisticUpdates } from "./optimistic-updates";

function cacheConfig(updates: CacheExchangeOpts["updates"]): CacheExchangeOpts {
  return {
    keys: {
      MessageConnection: () => null,
      // A forecast's parts are values of its place's Weather, not things of their own: a page of
      // ten places would otherwise key (and send the ids of) some 560 of them.
      CurrentConditions: () => null,
      HourlyForecast: () => null,
      DailyForecast: () => null,
      QuarterHour: () => null,
      AirQuality: () => null,
      PollenCount: () => null,
      // A preview's matches belong to that preview only (the same window may peak differently under another threshold).
      AlertMatch: () => null,
      // What a message says is a value of that message: the place in it is the place as it was then.
      MessageContent: () => null,
      MessageContentPlace: () => null,
      BriefingPlaceFigures: () => null,
      AlertPlaceWindows: () => null,
      // A warning as one message told it (its update or end is another message's).
      MessageWarning: () => null,
      WarningText: () => null,
    },
    // A place's whole view from its entity when the cache has every field (a place just added or restored comes
    // back whole): opening it asks the API nothing; a place never opened here is a miss, fetched (decision 027).
    // What the API answered for that id stands, its null too (a place that is not the user's): read again (a
    // hydrating render's second try, after the server's restored answer has been used), it is a hit, not a fetch.
    resolvers: {
      Query: {
        place: (_parent, args, cache, info) => {
          const answered = cache.resolve(info.parentKey, info.fieldName, args);
          return answered === undefined ? { __typename: "Place", id: args.id as string } : answered;
        },
      },
    },
    updates,
  };
}

/**
 * The normalised cache on both sides: objects keyed by `__typename` + `id` (or `_id`,
 * graphcache's default); the inbox page object has no identity of its own. With
 * `storage` (the browser), the cache persists for offline use and mutations made
 * offline wait in it until the network returns; until the store has been read, the
 * offline exchange would refuse such a mutation, so mutations wait for that read. The
 * updaters load after the first paint (lazy-cache-updates.ts).
 */
export function createCacheExchange(storage?: StorageAdapter) {
  const updates = lazyCacheUpdates();
  if (!storage) return composeExchanges([updates.beforeCache, cacheExchange(cacheConfig(updates.config)), updates.afterCache]);
  const hold = createMutationHold();
  const onCacheHydrated = () => {
    storage.onCacheHydrated?.();
    hold.open();
  };
  const readMetadata = storage.readMetadata?.bind(storage);
  const offline = offlineExchange({
    ...cacheConfig(updates.config),
    storage: {
      ...storage,
      onCacheHydrated,
      // Mutations an earlier page kept are sent (and shown) right after this read: with the updaters in place.
      ...(readMetadata && {
        async readMetadata() {
          const kept = await readMetadata();
          if (kept?.length) await updates.settled();
          return kept;
        },
      }),
    },
    optimistic: optimisticUpdates,
  });
  return composeExchanges([updates.beforeCache, offline, hold.exchange, updates.afterCache]);
}
