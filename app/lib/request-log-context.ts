import { createContext } from "react-router";

/** The part of the server's logger a route's server code uses (pino's call shape). */
export type RequestLogger = { error(fields: Record<string, unknown>, message: string): void };

/**
 * Which request this is and where its log lines go: set by app/server/app.server.ts for
 * every request, read by entry.server (the error page's request id, render errors) and by
 * whatever logs on a request's behalf.
 */
export const requestLogContext = createContext<{ requestId: string; logger: RequestLogger } | null>(null);
