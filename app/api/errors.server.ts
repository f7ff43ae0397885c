import { GraphQLError } from "graphql";

/** The machine-readable codes every error of the API carries in `extensions.code`. */
export type ErrorCode =
  "BAD_USER_INPUT" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "RATE_LIMITED" | "WEATHER_UNAVAILABLE" | "INTERNAL_SERVER_ERROR";

export function apiError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

/** A user-input error; `field` names the input it is about, `reason` a stable code clients can translate. */
export const badInput = (message: string, field?: string, reason?: string) =>
  apiError("BAD_USER_INPUT", message, { ...(field ? { field } : {}), ...(reason ? { reason } : {}) });

export const notFound = (what: string) => apiError("NOT_FOUND", `${what} not found`);

export const unauthenticated = () => apiError("UNAUTHENTICATED", "You need to log in first");

/** Why an API error happened, for the server's log only (see withServerCause). */
const serverCauses = new WeakMap<object, string>();

/**
 * `error`, with why it happened ("Open-Meteo answered 500") kept for the server's log: the operation observer
 * logs it with the request's id. The client gets the message and the code, never the cause: a provider's answers
 * and the server's network are none of its business (issue 35).
 */
export function withServerCause(error: GraphQLError, cause: string): GraphQLError {
  serverCauses.set(error, cause);
  return error;
}

/** The cause withServerCause kept for `error`, if any. */
export const serverCauseOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null ? serverCauses.get(error) : undefined;
