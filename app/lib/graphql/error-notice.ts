import type { CombinedError } from "@urql/core";

/** What a person is told when an operation fails: a locale key under `errors.`, never the protocol text. */
export type ErrorNotice =
  | "errors.offline"
  | "errors.unreachable"
  | "errors.signedOut"
  | "errors.rateLimited"
  | "errors.invalidInput"
  | "errors.weatherUnavailable"
  | "errors.serviceUnavailable"
  | "errors.notFound"
  | "errors.serverError";

const BY_CODE: Record<string, ErrorNotice> = {
  UNAUTHENTICATED: "errors.signedOut",
  RATE_LIMITED: "errors.rateLimited",
  // The API's own words for bad input are English developer texts ("hours must be from 1 to 168").
  BAD_USER_INPUT: "errors.invalidInput",
  GRAPHQL_VALIDATION_FAILED: "errors.invalidInput",
  WEATHER_UNAVAILABLE: "errors.weatherUnavailable",
  SERVICE_UNAVAILABLE: "errors.serviceUnavailable",
  NOT_FOUND: "errors.notFound",
  FORBIDDEN: "errors.notFound",
};

/** True when the operation got no answer at all (no connection, server down), not a bad one. */
export function isConnectionFailure(error: CombinedError): boolean {
  const response = error.response as { status?: number } | undefined;
  return error.graphQLErrors.length === 0 && Boolean(error.networkError) && !response?.status && error.networkError?.name !== "SyntaxError";
}

/**
 * The user's words for a failed operation: by the first error's `extensions.code`, else by
 * what happened to the request; `online` (navigator.onLine) tells "you are offline" from
 * "the server cannot be reached".
 */
export function errorNotice(error: CombinedError, online: boolean): ErrorNotice {
  for (const entry of error.graphQLErrors) {
    const notice = BY_CODE[entry.extensions?.code as string];
    if (notice) return notice;
  }
  if (isConnectionFailure(error)) return online ? "errors.unreachable" : "errors.offline";
  return "errors.serverError";
}
