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
