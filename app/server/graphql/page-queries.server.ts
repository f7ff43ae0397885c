import {
  createRequest,
  getOperationName,
  makeErrorResult,
  makeResult,
  stringifyDocument,
  type AnyVariables,
  type Client,
  type Operation,
  type OperationResult,
  type TypedDocumentNode,
} from "@urql/core";
import type { ExecutionResult } from "graphql";
import type { GraphQLQueryRunner } from "../../lib/graphql/executor-context";
import { keepDataText, withTypeNames } from "./page-results.server";

/** Runs one of a page's queries to its result (a failure is the result's error, as urql's client gives it). */
export type PageQuery = <Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
) => Promise<OperationResult<Data, Variables>>;

type Serializable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * The result's data as JSON when the result can say it cheaply: the API's result cache gives its answers the text
 * it caches them as (`{"data":…}`); a result with errors or extensions has more in it.
 */
function dataTextOf(result: Serializable): string | undefined {
  if (!result.stringify || result.errors || result.extensions) return undefined;
  const text = result.stringify(result);
  return text.startsWith('{"data":') && text.endsWith("}") ? text.slice(8, -1) : undefined;
}

/** Runs a query operation on the runner, to the result urql's client would give for it. */
function runOperation(run: GraphQLQueryRunner, headers: Record<string, string>, operation: Operation): Promise<OperationResult> {
  return run({
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
}

/**
 * A page's queries with the embedded API: each runs on the API's runner directly, not through the request client's
 * exchanges. Those would only pass it along (the cache, the page's record and the runner are all this request's),
 * and their streams cost a signed-in page 4.5 % of its CPU. It does what they did: a query asked again, or while it
 * runs, is one run; a result with data is `cached` for the render (and dropped with the rest by a mutation, which still
 * goes through the client: request-cache.server.ts); every result goes into the page's record (`record`).
 */
export function runnerPageQuery(options: {
  client: Client;
  run: GraphQLQueryRunner;
  headers: Record<string, string>;
  cached: Map<number, OperationResult>;
  record: (result: OperationResult) => void;
}): PageQuery {
  const { client, run, headers, cached, record } = options;
  const running = new Map<number, Promise<OperationResult>>();
  const pageQuery = (document: TypedDocumentNode<unknown, AnyVariables>, variables: AnyVariables): Promise<OperationResult> => {
    const request = createRequest(document, variables);
    const answered = cached.get(request.key);
    if (answered) return Promise.resolve(answered);
    let answer = running.get(request.key);
    if (!answer) {
      answer = runOperation(run, headers, withTypeNames(client.createRequestOperation("query", request))).then((result) => {
        running.delete(request.key);
        record(result);
        if (result.data) cached.set(request.key, result);
        return result;
      });
      running.set(request.key, answer);
    }
    return answer;
  };
  // The result is the document's: its key (document and variables) is the one it was cached and run under.
  return pageQuery as PageQuery;
}
