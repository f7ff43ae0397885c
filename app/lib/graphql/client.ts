import {
  Client,
  fetchExchange,
  mapExchange,
  subscriptionExchange,
  type CombinedError,
  type Exchange,
  type Operation,
  type SSRExchange,
  type SubscriptionForwarder,
} from "@urql/core";
import type { StorageAdapter } from "@urql/exchange-graphcache";
import { createCacheExchange } from "./cache";
import { holdResultsUntil } from "./hold-results";

export type GraphQLClientOptions = {
  url: string;
  /** The server's in-process or hosted fetch; the browser's own fetch when absent. */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /** Records results on the server; restores them in the browser. */
  ssr: SSRExchange;
  /** Subscriptions over graphql-ws; without it they are not available (HTTP only). */
  forwardSubscription?: SubscriptionForwarder;
  onError?: (error: CombinedError, operation: Operation) => void;
  /** Persists the cache (browser): offline use, and mutations kept until the network returns. */
  storage?: StorageAdapter;
  /**
   * The server render's own cache (requestCacheExchange: results cached whole, per query and variables). One render
   * reads each result as its loader fetched it, writes nothing and lives for one request, so normalising a page's
   * worth of objects would be work for nothing. Absent: graphcache (the browser).
   */
  cache?: Exchange;
  /** The browser: network results and live events reach the cache only once this settles (hold-results.ts). */
  holdResultsUntil?: Promise<void>;
};

/**
 * The one client factory for both sides (docs/product-constants.md): POST with operation name,
 * variables and query; graphcache keyed by `__typename` + id; deduplication (built into
 * the urql client) and the cache-first request policy.
 */
export function createGraphQLClient(options: GraphQLClientOptions): Client {
  const exchanges: Exchange[] = [];
  if (options.onError) exchanges.push(mapExchange({ onError: options.onError }));
  // The ssr exchange sits between the cache and the network, so restored results fill
  // the normalised cache exactly as fetched ones do.
  exchanges.push(options.cache ?? createCacheExchange(options.storage), options.ssr);
  if (options.holdResultsUntil) exchanges.push(holdResultsUntil(options.holdResultsUntil));
  if (options.forwardSubscription) exchanges.push(subscriptionExchange({ forwardSubscription: options.forwardSubscription }));
  const headers = options.headers ?? {};
  exchanges.push(fetchExchange);
  return new Client({
    url: options.url,
    fetch: options.fetch,
    exchanges,
    requestPolicy: "cache-first",
    preferGetMethod: false,
    fetchOptions: (): RequestInit => ({ headers }),
  });
}
