import { createRequest, type AnyVariables, type RequestPolicy } from "@urql/core";
import { useClient, useQuery as useUrqlQuery, type UseQueryArgs, type UseQueryResponse, type UseQueryState } from "urql";
import { renderResultsOf } from "./render-results";

/** urql's state of a query without an answer: asked for and waiting, or not asked for (paused). */
const unanswered = (fetching: boolean): UseQueryState => ({
  fetching,
  stale: false,
  hasNext: false,
  error: undefined,
  data: undefined,
  extensions: undefined,
  operation: undefined,
});
// Made by a function without side effects: the browser's bundle, with no use for them, drops them.
const NOT_ASKED = unanswered(false);
const ASKING = unanswered(true);
const noReexecute = () => {};

/** The policies a result the client holds may answer (request-cache.server.ts answers no others either). */
const answersFromResults = (policy: RequestPolicy | undefined) => policy !== "network-only" && policy !== "cache-and-network";

/**
 * The server render's `useQuery`: the state urql's would give, read straight from the results the request's loaders
 * fetched (render-results.ts). urql's hook sends each call through the client's exchanges and subscribes to the
 * answer: 2.5 % of a signed-in page's CPU. A query the loaders did not fetch is being asked, as with urql's, but not
 * run: its answer would come after the page's data script was written, so nothing would ever read it.
 */
function useRenderQuery<Data = unknown, Variables extends AnyVariables = AnyVariables>(
  args: UseQueryArgs<Variables, Data>,
): UseQueryResponse<Data, Variables> {
  const client = useClient();
  // The two constant states hold no data and no operation: they are every query's.
  if (args.pause) return [NOT_ASKED as UseQueryState<Data, Variables>, noReexecute];
  const policy = args.context?.requestPolicy ?? args.requestPolicy;
  const result = answersFromResults(policy) ? renderResultsOf(client)?.get(createRequest(args.query, args.variables).key) : undefined;
  if (!result) return [ASKING as UseQueryState<Data, Variables>, noReexecute];
  const state: UseQueryState<Data, Variables> = {
    fetching: false,
    stale: !!result.stale,
    hasNext: result.hasNext,
    error: result.error,
    data: result.data as Data | undefined,
    extensions: result.extensions,
    operation: result.operation as UseQueryState<Data, Variables>["operation"],
  };
  return [state, noReexecute];
}

/** urql's `useQuery` in the browser; `useRenderQuery` in the server render. */
export const useQuery: typeof useUrqlQuery = import.meta.env.SSR ? useRenderQuery : useUrqlQuery;
