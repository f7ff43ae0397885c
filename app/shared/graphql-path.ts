/** Where the GraphQL API answers (HTTP and WebSocket), for the API, the server and the browser alike. */
export const GRAPHQL_PATH = "/graphql";
