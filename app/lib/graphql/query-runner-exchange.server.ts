import { getOperationName, makeErrorResult, makeResult, stringifyDocument, type Exchange } from "@urql/core";
import { filter, fromPromise, merge, mergeMap, pipe, share, takeUntil } from "wonka";
import type { ExecutionResult } from "graphql";
import type { GraphQLQueryRunner } from "./executor-context";
import { keepDataText } from "./page-results.server";

type Serializable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * The result's data as JSON when the result can say it cheaply: the API's result cache gives its answers the text
 * it keeps them as (`{"data":…}`); a result with errors or extensions has more in it.
 */
function dataTextOf(result: Serializable): string | undefined {
  if (!result.stringify || result.errors || result.extensions) return undefined;
  const text = result.stringify(result);
  return text.startsWith('{"data":') && text.endsWith("}") ? text.slice(8, -1) : undefined;
}

/**
 * Sends queries to a runner instead of the network (the server render with the embedded API); mutations and
 * subscriptions go on to the next exchange. A query torn down before it is answered drops its result.
 */
export function queryRunnerExchange(run: GraphQLQueryRunner, headers: Record<string, string>): Exchange {
  return ({ forward }) =>
    (operations$) => {
      const shared = share(operations$);
      const queries = pipe(
        shared,
        filter((operation) => operation.kind === "query"),
        mergeMap((operation) => {
          const teardown = pipe(
            shared,
            filter((other) => other.kind === "teardown" && other.key === operation.key),
          );
          const answer = run({
            query: stringifyDocument(operation.query),
            variables: (operation.variables ?? {}) as Record<string, unknown>,
            operationName: getOperationName(operation.query),
            headers,
          }).then(
            (result) => {
              const made = makeResult(operation, result);
              const text = made.data ? dataTextOf(result) : undefined;
              if (text !== undefined) keepDataText(made.data as object, text);
              return made;
            },
            (error: unknown) => makeErrorResult(operation, error instanceof Error ? error : new Error(String(error))),
          );
          return pipe(fromPromise(answer), takeUntil(teardown));
        }),
      );
      const others = forward(
        pipe(
          shared,
          filter((operation) => operation.kind !== "query"),
        ),
      );
      return merge([queries, others]);
    };
}
