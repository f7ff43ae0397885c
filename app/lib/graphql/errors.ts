import type { CombinedError } from "@urql/core";

/**
 * The message a user sees for a failed operation (docs/product-constants.md), the same on server and
 * client. GraphQL errors come first, whatever the status: they say what went wrong.
 */
export function graphqlErrorMessage(error: CombinedError): string {
  if (error.graphQLErrors.length > 0) {
    return `GraphQL response contains errors: ${error.graphQLErrors.map((entry) => entry.message).join(", ")}`;
  }
  const response = error.response as { status?: number; headers?: Headers } | undefined;
  if (response?.status && response.status >= 300) return `Server error: HTTP ${response.status}`;
  if (error.networkError?.name === "SyntaxError") return `Parse error: ${error.networkError.message}`;
  // urql reads a text/* body itself and fails with the whole body as the message: an
  // answer that arrived but is not JSON is a parse error too (without the page it holds).
  const contentType = response?.headers?.get("content-type") ?? "";
  if (response?.status && error.networkError && /^text\//i.test(contentType) && !/event-stream/i.test(contentType)) {
    return `Parse error: the response is not JSON (${contentType})`;
  }
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
