import type { Server } from "node:http";
import type { AppServer } from "./app.server";

/** Requests still running this long after the signal are cut off, so the whole shutdown stays under 10 s. */
export const SHUTDOWN_CUT_OFF_MS = 8_000;

/**
 * A graceful shutdown (SIGTERM), in this order:
 * 1. drain: every answer from now on closes its connection, and the bot starts no more ticks;
 * 2. stop listening: new connections are refused (a load balancer sends them elsewhere), and
 *    idle keep-alive connections close (Node's `server.close`);
 * 3. WebSockets: refused for new upgrades; each open one closes with 1012 "service restart"
 *    (which clients retry) once the queries and mutations under way on it are answered;
 * 4. every request in flight is answered, and its connection closes after its answer;
 * 5. the API closes: the engine's tick under way finishes, the followers and the PostgreSQL
 *    write-announcement listener stop, pushes under way are sent, and the database closes.
 * What was acknowledged was committed before its answer left, so nothing acknowledged is lost.
 * Connections still busy after `cutOffMs` are closed, so step 5 still runs in time.
 */
export async function shutDown(
  app: Pick<AppServer, "drain" | "closeWebSockets" | "closeApi"> & { server: Server },
  { cutOffMs = SHUTDOWN_CUT_OFF_MS }: { cutOffMs?: number } = {},
): Promise<void> {
  app.drain();
  const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
  const cutOff = setTimeout(() => app.server.closeAllConnections(), cutOffMs);
  cutOff.unref();
  try {
    await app.closeWebSockets();
    await closed;
  } finally {
    clearTimeout(cutOff);
  }
  await app.closeApi();
}
