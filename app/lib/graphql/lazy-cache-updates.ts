import type { Exchange, Operation, OperationResult } from "@urql/core";
import type { UpdatesConfig } from "@urql/exchange-graphcache";
import { filter, makeSubject, merge, pipe } from "wonka";
import { whenBrowserIdle } from "../browser-idle";

export type CacheUpdatesModule = { createCacheUpdates: () => UpdatesConfig };

let shared: Promise<CacheUpdatesModule> | null = null;
const importCacheUpdates = (): Promise<CacheUpdatesModule> => {
  // A failed import (offline before the worker has the chunk) is tried again next time.
  shared ??= import("./cache-updates").catch((error: unknown) => {
    shared = null;
    throw error;
  });
  return shared;
};

/**
 * The cache's updaters (how a mutation or a live message changes cached lists) only run
 * when a mutation or a subscription result is written, never for the first paint, so
 * their code loads when the browser is idle (or at the first such operation, if sooner).
 * Graphcache looks an updater up in `config` at each write, so filling it later works;
 * until it is filled, `beforeCache` holds mutations (their optimistic writes run the
 * updaters too) and `afterCache` holds mutation and subscription results, each released
 * in order. The offline exchange sends the mutations an earlier page kept past
 * `beforeCache`, right after reading its store: `settled()` lets that read wait.
 */
export function lazyCacheUpdates(load: () => Promise<CacheUpdatesModule> = importCacheUpdates) {
  const config: UpdatesConfig = { Mutation: {}, Subscription: {} };
  let ready = false;
  let loading = false;
  const waiting: Array<() => void> = [];
  let firstAttempt: Promise<void> | null = null;

  function ensureLoaded() {
    if (ready || loading) return;
    loading = true;
    const attempt = load().then(
      ({ createCacheUpdates }) => {
        const updates = createCacheUpdates();
        Object.assign(config.Mutation!, updates.Mutation);
        Object.assign(config.Subscription!, updates.Subscription);
        ready = true;
        for (let next = waiting.shift(); next; next = waiting.shift()) next();
      },
      (error: unknown) => {
        loading = false;
        console.warn("[graphql] could not load the cache updates; trying again when online:", error);
        if (typeof window !== "undefined") window.addEventListener("online", ensureLoaded, { once: true });
      },
    );
    firstAttempt ??= attempt;
  }

  /** Resolves once the updaters are in, or the first try to load them failed (nothing waits forever). */
  function settled(): Promise<void> {
    ensureLoaded();
    return firstAttempt ?? Promise.resolve();
  }

  function whenReady(callback: () => void) {
    if (ready) return callback();
    waiting.push(callback);
    ensureLoaded();
  }

  const beforeCache: Exchange =
    ({ forward }) =>
    (operations$) => {
      const released = makeSubject<Operation>();
      const passing$ = pipe(
        operations$,
        filter((operation) => {
          if (ready || operation.kind !== "mutation") return true;
          whenReady(() => released.next(operation));
          return false;
        }),
      );
      return forward(merge([passing$, released.source]));
    };

  const afterCache: Exchange =
    ({ forward }) =>
    (operations$) => {
      const released = makeSubject<OperationResult>();
      const passing$ = pipe(
        forward(operations$),
        filter((result) => {
          const kind = result.operation.kind;
          if (ready || kind === "query" || kind === "teardown") return true;
          whenReady(() => released.next(result));
          return false;
        }),
      );
      return merge([passing$, released.source]);
    };

  if (typeof window !== "undefined") whenBrowserIdle(ensureLoaded);
  return { config, beforeCache, afterCache, settled };
}
