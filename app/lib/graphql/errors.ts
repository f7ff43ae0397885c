import type { CombinedError } from "@urql/core";

/** The message a user sees for a failed operation (seed spec §8), the same on server and client. */
export function graphqlErrorMessage(error: CombinedError): string {
  if (error.graphQLErrors.length > 0) {
    return `GraphQL response contains errors: ${error.graphQLErrors.map((entry) => entry.message).join(", ")}`;
  }
  const response = error.response as { status?: number } | undefined;
  if (response?.status && response.status >= 300) return `Server error: HTTP ${response.status}`;
  if (error.networkError?.name === "SyntaxError") return `Parse error: ${error.networkError.message}`;
  return `Network error: ${error.networkError?.message ?? error.message}`;
}

/** The `extensions.code` of each GraphQL error, with the field it is about (for form errors). */
export function graphqlErrorCodes(
  error: CombinedError,
): Array<{ code?: string; field?: string; reason?: string; retryAfterSeconds?: number; message: string }> {
  return error.graphQLErrors.map((entry) => ({
    code: entry.extensions?.code as string | undefined,
    field: entry.extensions?.field as string | undefined,
    reason: entry.extensions?.reason as string | undefined,
    retryAfterSeconds: entry.extensions?.retryAfterSeconds as number | undefined,
    message: entry.message,
  }));
}
