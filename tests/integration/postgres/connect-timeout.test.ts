import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDatabaseProbe, HEALTH_TIMEOUT_MS } from "~/api/db/health.server";
import { CONNECT_TIMEOUT_MS, openPostgres } from "~/api/db/postgres.server";
import { isDatabaseUnavailable } from "~/api/db/unavailable.server";
import { listenForWrites } from "~/api/db/write-announcements.server";
import { testPostgres } from "../../support/test-database";

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

  it("a listening connection that goes silent mid-way (a network cut) makes sync answer 'not heard' within the bound, then reconnects", async () => {
    const server = testPostgres();
    expect(server).toBeDefined();
    const target = new URL(server!.adminUrl);
    // A relay to the run's server that can go silent: bytes stop flowing both ways, no reset.
    let silentNow = false;
    const pairs = new Set<[Socket, Socket]>();
    const relay = createServer((inbound) => {
      const outbound = connect(Number(target.port), target.hostname);
      const pair: [Socket, Socket] = [inbound, outbound];
      pairs.add(pair);
      inbound.on("error", () => {});
      outbound.on("error", () => {});
      inbound.on("data", (chunk) => !silentNow && outbound.write(chunk));
      outbound.on("data", (chunk) => !silentNow && inbound.write(chunk));
      inbound.on("close", () => outbound.destroy());
      outbound.on("close", () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const relayed = new URL(server!.adminUrl);
    relayed.port = String((relay.address() as AddressInfo).port);
    let gaps = 0;
    const announcements = await listenForWrites(relayed.toString(), { onWrite: () => {}, onGap: () => gaps++ }, 1_000);
    try {
      expect(await announcements.sync()).toBe(true);
      silentNow = true;
      const silentSync = await settle(announcements.sync(), 10_000);
      expect(silentSync).toMatchObject({ state: "fulfilled" });
      expect(await announcements.sync()).toBe(false);
      // The cut heals: the listener connects again on its own, and sync is trusted again.
      silentNow = false;
      await vi.waitFor(async () => expect(await announcements.sync()).toBe(true), { timeout: 20_000, interval: 200 });
      expect(gaps).toBeGreaterThanOrEqual(2);
    } finally {
      await announcements.close();
      for (const [inbound, outbound] of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});
