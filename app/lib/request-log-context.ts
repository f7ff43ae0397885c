import { createContext } from "react-router";

/** The part of the server's logger a route's server code uses (pino's call shape). */
export type RequestLogger = { error(fields: Record<string, unknown>, message: string): void };

export type RequestLog = { requestId: string; logger: RequestLogger };

/**
 * Which request this is and where its log lines go: set by app/server/app.server.ts for
 * every request, read by entry.server (the error page's request id, render errors) and by
 * whatever logs on a request's behalf.
 */
export const requestLogContext = createContext<RequestLog | null>(null);

/** An error line under the request's id; the console where no server set a log (unit tests render without one). */
export function logRequestError(requestLog: RequestLog | null, message: string, error?: unknown): void {
  if (requestLog) requestLog.logger.error({ reqId: requestLog.requestId, ...(error === undefined ? {} : { err: error }) }, message);
  else if (error === undefined) console.error(message);
  else console.error(message, error);
}
