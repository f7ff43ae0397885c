/** Where the GraphQL API answers (HTTP and WebSocket), for the API, the server and the browser alike. */
export const GRAPHQL_PATH = "/graphql";

/** Whether a request target is the API's path (yoga answers exactly this path). */
export function isGraphQLPath(url: string | undefined): boolean {
  return url === GRAPHQL_PATH || !!url?.startsWith(`${GRAPHQL_PATH}?`);
}
