import { createContext } from "react-router";

/**
 * How the server reaches the GraphQL API: a fetch for `/graphql`. app/server/app.server.ts
 * provides it for every request; with the embedded API it calls the API in-process (no HTTP
 * hop to itself), with GRAPHQL_URL it goes to the hosted API.
 */
export const graphqlFetchContext = createContext<typeof fetch>();
