import type { Exchange, Operation, OperationResult } from "@urql/core";
import { filter, map, merge, onPush, pipe, share } from "wonka";

/** A query a kept result can answer: the cache-first and cache-only policies (the server asks for nothing else). */
const answerable = (operation: Operation, kept: ReadonlyMap<number, OperationResult>) =>
  operation.kind === "query" &&
  operation.context.requestPolicy !== "network-only" &&
  operation.context.requestPolicy !== "cache-and-network" &&
  kept.has(operation.key);

/**
 * A server render's cache: each query's result kept whole, per query and variables, for the request's client
 * (app/server/graphql/request-client.server.ts), so the loaders' and the components' reads of one query are one run.
 * A mutation's result drops every kept result: a request's loaders run after its action, and nothing on the server
 * watches a query to refresh it, so urql's document cache's bookkeeping (the types in every result, to drop only those
 * a mutation touched) would be work for nothing. The render's components read the kept results with urql's own
 * `useQuery`, answered at once from here. `kept` is the request's: with the embedded API its queries run outside the
 * client and keep their results there too (page-queries.server.ts).
 */
export const requestCacheExchange =
  (kept: Map<number, OperationResult> = new Map()): Exchange =>
  ({ forward }) =>
  (operations$) => {
    const shared = share(operations$);
    const answered = pipe(
      shared,
      filter((operation) => answerable(operation, kept)),
      map((operation): OperationResult => ({ ...kept.get(operation.key)!, operation })),
    );
    const fetched = pipe(
      forward(
        pipe(
          shared,
          filter((operation) => !answerable(operation, kept)),
        ),
      ),
      onPush((result) => {
        if (result.operation.kind === "mutation") kept.clear();
        else if (result.operation.kind === "query" && result.data) kept.set(result.operation.key, result);
      }),
    );
    return merge([answered, fetched]);
  };
