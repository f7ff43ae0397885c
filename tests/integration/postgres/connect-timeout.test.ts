import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseProbe, HEALTH_TIMEOUT_MS } from "~/api/db/health.server";
import { CONNECT_TIMEOUT_MS, openPostgres } from "~/api/db/postgres.server";
import { isDatabaseUnavailable } from "~/api/db/unavailable.server";
import { listenForWrites } from "~/api/db/write-announcements.server";

/**
 * A database host that takes connections and never answers (a network cut, a hung server):
 * without a bound, a request waiting for a pooled connection waits forever.
 */
let silent: Server;
const sockets = new Set<Socket>();
let url: string;

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/weatherbot`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

/** How the promise settled, and after how long; "pending" if not within `withinMs`. */
async function settle(promise: Promise<unknown>, withinMs: number) {
  const started = performance.now();
  const outcome = await Promise.race([
    promise.then(
      () => ({ state: "fulfilled" as const, error: undefined }),
      (error: unknown) => ({ state: "rejected" as const, error }),
    ),
    new Promise<{ state: "pending"; error: undefined }>((resolve) =>
      setTimeout(() => resolve({ state: "pending", error: undefined }), withinMs),
    ),
  ]);
  return { ...outcome, ms: performance.now() - started };
}

describe("a PostgreSQL host that does not answer", () => {
  it("fails a query within the connection bound, as an outage (SERVICE_UNAVAILABLE), and /healthz's probe says so in time", async () => {
    const { db } = openPostgres(url, {});
    try {
      const query = await settle(sql`select 1`.execute(db), CONNECT_TIMEOUT_MS * 3);
      expect(query.state).toBe("rejected");
      expect(isDatabaseUnavailable(query.error)).toBe(true);
      expect(query.ms).toBeLessThan(CONNECT_TIMEOUT_MS * 3);

      const probe = await settle(createDatabaseProbe(db, "postgres")(), HEALTH_TIMEOUT_MS * 3);
      expect(probe.state).toBe("fulfilled");
      expect(await createDatabaseProbe(db, "postgres", 200)()).toEqual({ dialect: "postgres", reachable: false });
    } finally {
      await db.destroy();
    }
  });

  it("the write-announcement listener's connection attempt fails within the bound too (so it keeps trying instead of hanging)", async () => {
    const listening = listenForWrites(url, { onWrite: () => {}, onGap: () => {} }, 1_000);
    const attempt = await settle(listening, 10_000);
    expect(attempt.state).toBe("rejected");
    expect(isDatabaseUnavailable(attempt.error)).toBe(true);
  });
});
