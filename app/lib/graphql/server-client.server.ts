import { Client, fetchExchange, type AnyVariables, type TypedDocumentNode } from "@urql/core";
import type { RouterContextProvider } from "react-router";
import { sessionToken } from "../session.server";
import { graphqlFetchContext } from "./executor-context";

/**
 * A fresh client for one request, carrying that request's token: a client shared between
 * requests would leak one user's data into another's page.
 */
export function serverGraphQLClient(request: Request, context: Readonly<RouterContextProvider>, token = sessionToken(request)) {
  return new Client({
    url: "http://weatherbot.internal/graphql",
    exchanges: [fetchExchange],
    fetch: context.get(graphqlFetchContext),
    requestPolicy: "network-only",
    // The seed's wire format: every operation is a POST with operationName, variables and query.
    preferGetMethod: false,
    fetchOptions: (): RequestInit => ({ headers: token ? { authorization: `Bearer ${token}` } : {} }),
  });
}

export type { AnyVariables, TypedDocumentNode };
