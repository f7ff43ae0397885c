import type { Exchange, Operation, OperationResult } from "@urql/core";
import { filter, map, merge, onPush, pipe, share } from "wonka";

/** A query a cached result can answer: the cache-first and cache-only policies (the server asks for nothing else). */
const answerable = (operation: Operation, cached: ReadonlyMap<number, OperationResult>) =>
  operation.kind === "query" &&
  operation.context.requestPolicy !== "network-only" &&
  operation.context.requestPolicy !== "cache-and-network" &&
  cached.has(operation.key);

/**
 * A server render's cache: each query's result cached whole, per query and variables, for the request's client
 * (app/server/graphql/request-client.server.ts), so the loaders' and the components' reads of one query are one run.
 * A mutation's result drops every cached result: a request's loaders run after its action, and nothing on the server
 * watches a query to refresh it, so urql's document cache's bookkeeping (the types in every result, to drop only those
 * a mutation touched) would be work for nothing. The render's components read the cached results with urql's own
 * `useQuery`, answered at once from here. `cached` is the request's: with the embedded API its queries run outside the
 * client and cache their results there too (page-queries.server.ts).
 */
export const requestCacheExchange =
  (cached: Map<number, OperationResult> = new Map()): Exchange =>
  ({ forward }) =>
  (operations$) => {
    const shared = share(operations$);
    const answered = pipe(
      shared,
      filter((operation) => answerable(operation, cached)),
      map((operation): OperationResult => ({ ...cached.get(operation.key)!, operation })),
    );
    const fetched = pipe(
      forward(
        pipe(
          shared,
          filter((operation) => !answerable(operation, cached)),
        ),
      ),
      onPush((result) => {
        if (result.operation.kind === "mutation") cached.clear();
        else if (result.operation.kind === "query" && result.data) cached.set(result.operation.key, result);
      }),
    );
    return merge([answered, fetched]);
  };
