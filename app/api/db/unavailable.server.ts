import { GraphQLError } from "graphql";

/**
 * Errors that say the database cannot be reached right now, not that a request was wrong:
 * PostgreSQL restarting or refusing connections, a dropped or timed-out connection, SQLite
 * still locked by another process after its busy timeout. A request that meets one is
 * worth repeating in a moment.
 */
const UNAVAILABLE_SQLSTATE = /^(?:08\w{3}|57P0[1-3]|53300)$/;
const UNAVAILABLE_NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "SQLITE_BUSY"]);
// `timeout expired`: a pg.Client of its own (the write-announcement listener) that could not connect in time.
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    "Connection terminated",
    "connection (?:error|timeout)",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error",
    "not queryable",
    "Cannot use a pool after calling end",
    "^timeout expired$",
  ].join("|"),
  "i",
);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NETWORK.has(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    // Node reports a refused connection to every address of a host as an AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client should wait before repeating a request the database could not serve. */
export const RETRY_AFTER_SECONDS = 2;

/** The error a request gets instead: retryable, with a status and Retry-After a proxy or client understands. */
export function databaseUnavailableError(): GraphQLError {
  return new GraphQLError("The database is unavailable right now; try again shortly.", {
    extensions: {
      code: "SERVICE_UNAVAILABLE",
      retryable: true,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      http: { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
    },
  });
}
