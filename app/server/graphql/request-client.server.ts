import { type AnyVariables, type Client, type OperationResult, type TypedDocumentNode } from "@urql/core";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { sessionToken } from "../session.server";
import { createGraphQLClient } from "../../lib/graphql/client";
import { graphqlFetchContext, graphqlQueryRunnerContext } from "../../lib/graphql/executor-context";
import { GRAPHQL_PATH } from "../../shared/graphql-path";
import { timeOrderedLowerBound } from "../../shared/live-cursor";
import { queryFailure } from "../../lib/graphql/query-failure";
import { pageResultsExchange, type PageResults } from "./page-results.server";
import { runnerPageQuery, type PageQuery } from "./page-queries.server";
import { requestCacheExchange } from "./request-cache.server";

/** This request's GraphQL client and the results it has collected for the page. */
export type RequestGraphQL = {
  client: Client;
  ssr: PageResults;
  signedIn: boolean;
  /** Messages written after this id were not in this page's data: where the live stream starts. */
  liveSince: string;
  /** Runs a query for the page: on the embedded API directly, or through the client in front of a hosted one. */
  query: PageQuery;
};

export const requestGraphQLContext = createContext<RequestGraphQL | null>(null);

/**
 * A fresh client and ssr cache for one request, carrying that request's token (a client
 * shared between requests would leak one user's data into another's page). With the
 * embedded API its queries run on the API directly and its mutations through an in-process fetch.
 */
export function createRequestGraphQL(request: Request, context: Readonly<RouterContextProvider>): RequestGraphQL {
  const token = sessionToken(request);
  // Taken before any loader reads data, so nothing written from here on is missed.
  const liveSince = timeOrderedLowerBound(Date.now());
  const ssr = pageResultsExchange();
  const cached = new Map<number, OperationResult>();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // The browser's, not the server's: a session opened by this request's log-in is named by it (the sessions list).
  const userAgent = request.headers.get("user-agent");
  if (userAgent) headers["user-agent"] = userAgent;
  const client = createGraphQLClient({
    url: `http://weatherbot.internal${GRAPHQL_PATH}`,
    fetch: context.get(graphqlFetchContext),
    headers,
    ssr,
    cache: requestCacheExchange(cached),
  });
  const run = context.get(graphqlQueryRunnerContext);
  const query: PageQuery = run
    ? runnerPageQuery({ client, run, headers, cached, record: ssr.record })
    : (document, variables) => client.query(document, variables).toPromise();
  return { client, ssr, signedIn: token !== null, liveSince, query };
}

/** Named middleware `graphql`: gives every page request its own client. */
export const graphqlMiddleware: MiddlewareFunction<Response> = ({ request, context }, next) => {
  context.set(requestGraphQLContext, createRequestGraphQL(request, context));
  return next();
};

export function requestGraphQL(context: Readonly<RouterContextProvider>): RequestGraphQL {
  const graphql = context.get(requestGraphQLContext);
  if (!graphql) throw new Error("No GraphQL client for this request: the root route must use the `graphql` middleware.");
  return graphql;
}

/** Runs a query for the page; a failure becomes the error page with the client's message. */
export async function loadQuery<Data, Variables extends AnyVariables>(
  context: Readonly<RouterContextProvider>,
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
): Promise<Data> {
  const result = await requestGraphQL(context).query(query, variables);
  if (result.error) throw queryFailure(result.error);
  return result.data as Data;
}
