import type { CombinedError } from "@urql/core";
import { data } from "react-router";
import { graphqlErrorMessage } from "./errors";

const STATUS_BY_CODE: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * What a loader throws when a page's query fails: a route error response (not a plain
 * Error, whose message production would mask), so the error page shows the same message
 * the client's toast would. Failures of the API itself are a bad gateway.
 */
export function queryFailure(error: CombinedError) {
  const code = error.graphQLErrors[0]?.extensions?.code;
  const status = (typeof code === "string" ? STATUS_BY_CODE[code] : undefined) ?? 502;
  return data({ message: graphqlErrorMessage(error) }, { status });
}
