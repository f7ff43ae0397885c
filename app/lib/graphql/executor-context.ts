import type { ExecutionResult } from "graphql";
import { createContext } from "react-router";

/**
 * How the server reaches the GraphQL API: a fetch for `/graphql`. app/server/app.server.ts
 * provides it for every request; with the embedded API it calls the API in-process (no HTTP
 * hop to itself), with GRAPHQL_URL it goes to the hosted API.
 */
export const graphqlFetchContext = createContext<typeof fetch>();

/** A query as a page's loaders send it, with the headers a fetch would carry (the session's token). */
export type GraphQLQuery = {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
  headers: Record<string, string>;
};

/** Runs a query to its result, errors included, with no HTTP between (it rejects only for a failure to reach the API). */
export type GraphQLQueryRunner = (query: GraphQLQuery) => Promise<ExecutionResult>;

/**
 * With the embedded API, a page's queries run on it directly (app/server/in-process-queries.server.ts): no request
 * or response to build, no JSON to write and read back. Null in front of a hosted API.
 */
export const graphqlQueryRunnerContext = createContext<GraphQLQueryRunner | null>(null);
