import {
  formatDocument,
  makeOperation,
  type Exchange,
  type Operation,
  type OperationResult,
  type SerializedResult,
  type SSRData,
  type SSRExchange,
} from "@urql/core";
import { map, onPush, pipe } from "wonka";

/** Results' data as JSON, where it came with the data (the API's answers carry the text they would be sent as). */
const dataTexts = new WeakMap<object, string>();

/** Says that `text` is `data` as JSON, so the page's data script need not write it again. */
export function keepDataText(data: object, text: string): void {
  dataTexts.set(data, text);
}

/** A result as urql's ssr exchange records it (without extensions, which this app does not send to pages). */
function recorded(result: OperationResult): SerializedResult {
  const record: SerializedResult = { hasNext: result.hasNext };
  if (result.data !== undefined) record.data = (result.data && dataTexts.get(result.data as object)) ?? JSON.stringify(result.data);
  if (result.error) {
    record.error = {
      graphQLErrors: result.error.graphQLErrors.map((error) =>
        !error.path && !error.extensions ? error.message : { message: error.message, path: error.path, extensions: error.extensions },
      ),
    };
    if (result.error.networkError) record.error.networkError = String(result.error.networkError);
  }
  return record;
}

/** Asks for `__typename` everywhere, as urql's ssr exchange does: graphcache in the browser keys objects by it. */
export function withTypeNames(operation: Operation): Operation {
  const query = formatDocument(operation.query);
  return query === operation.query ? operation : makeOperation(operation.kind, { ...operation, query }, operation.context);
}

/** The page's record of its query results; `record` adds one that did not come through the exchange (page-queries.server.ts). */
export type PageResults = SSRExchange & { record(result: OperationResult): void };

/**
 * The server side of urql's ssr exchange (`ssrExchange({ isClient: false })`): it records each query's result for the
 * page's data script, in the same form, and takes the result's JSON from where it was made when it was (see
 * keepDataText) instead of writing the data again: a signed-in page's four answers are about 100 KB of JSON.
 */
export function pageResultsExchange(): PageResults {
  const results: SSRData = {};
  const record = (result: OperationResult) => {
    if (result.operation.kind !== "mutation") results[result.operation.key] = recorded(result);
  };
  const exchange: Exchange =
    ({ forward }) =>
    (operations$) =>
      pipe(forward(pipe(operations$, map(withTypeNames))), onPush(record));
  return Object.assign(exchange, {
    record,
    restoreData(data: SSRData) {
      Object.assign(results, data);
    },
    extractData: (): SSRData => ({ ...results }),
  });
}
