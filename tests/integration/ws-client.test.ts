import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { createWsClient, FATAL_CLOSE_CODES, RETRYABLE_CLOSE_CODES, retryDelayMs, WS_RETRY } from "~/lib/graphql/ws-client";

/** A real WebSocket server that answers connection_init by closing with the code in the URL. */
let server: WebSocketServer;
let url: string;
const connections = new Map<number, number>();

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: "127.0.0.1", handleProtocols: () => "graphql-transport-ws" });
  server.on("connection", (socket, request) => {
    const code = Number(new URL(request.url ?? "/", "http://x").searchParams.get("close"));
    connections.set(code, (connections.get(code) ?? 0) + 1);
    socket.once("message", () => socket.close(code, `closing with ${code}`));
  });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function subscribeUntilError(code: number) {
  const fatal: number[] = [];
  const client = createWsClient({ url: `${url}?close=${code}`, webSocketImpl: WebSocket, baseDelayMs: 5, onFatalClose: (event) => fatal.push(event.code) });
  const error = await new Promise<unknown>((resolve) => {
    client.subscribe({ query: "subscription { messageReceived { id } }" }, { next: () => {}, error: resolve, complete: () => resolve(null) });
  });
  await client.dispose();
  return { error: error as { code?: number }, fatal };
}

describe("graphql-ws client", () => {
  it("pins the retry policy and backs off exponentially with jitter", () => {
    expect(WS_RETRY).toEqual({ attempts: 5, baseDelayMs: 1000 });
    expect([0, 1, 2, 3, 4].map((retries) => retryDelayMs(retries, 1000, () => 0))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(retryDelayMs(2, 1000, () => 0.999)).toBe(4999);
  });

  it.each(FATAL_CLOSE_CODES)("does not retry fatal close code %i, and reports it", async (code) => {
    const { error, fatal } = await subscribeUntilError(code);
    expect(error.code).toBe(code);
    expect(connections.get(code)).toBe(1);
    expect(fatal).toEqual([code]);
  });

  it.each(RETRYABLE_CLOSE_CODES)("retries close code %i five times before giving up", async (code) => {
    const { error, fatal } = await subscribeUntilError(code);
    expect(error.code).toBe(code);
    expect(connections.get(code)).toBe(1 + WS_RETRY.attempts);
    expect(fatal).toEqual([]);
  });
});
