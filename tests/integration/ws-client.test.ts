import type { AddressInfo } from "node:net";
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { createWsClient, FATAL_CLOSE_CODES, RETRYABLE_CLOSE_CODES, retryDelayMs, WS_RETRY } from "~/lib/graphql/ws-client";
import { TestWsClientMessageIdsDocument, type TestWsClientMessageIdsSubscription } from "../support/documents.generated";

/** graphql-ws takes the text: the typed document (ws-client.graphql) printed; results are read with its type. */
const MESSAGE_IDS = print(TestWsClientMessageIdsDocument);

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
  const client = createWsClient({
    url: `${url}?close=${code}`,
    webSocketImpl: WebSocket,
    baseDelayMs: 5,
    onFatalClose: (event) => fatal.push(event.code),
  });
  const error = await new Promise<unknown>((resolve) => {
    client.subscribe<TestWsClientMessageIdsSubscription>(
      { query: MESSAGE_IDS },
      { next: () => {}, error: resolve, complete: () => resolve(null) },
    );
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

describe("graphql-ws client while the server is unreachable", () => {
  it("keeps retrying a refused connection (a server restarting) and resumes once it is back", async () => {
    // A port nobody listens on yet: the first attempts are refused, as during a restart.
    const probe = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((resolve) => probe.once("listening", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    let attempts = 0;
    const client = createWsClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      baseDelayMs: 100,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols);
          attempts++;
        }
      },
    });
    const received = new Promise<unknown>((resolve, reject) => {
      client.subscribe<TestWsClientMessageIdsSubscription>(
        { query: MESSAGE_IDS },
        { next: resolve, error: reject, complete: () => reject(new Error("completed")) },
      );
    });

    // Back after two refused attempts (the first retry waits ≥ 100 ms, the second ≥ 200 ms).
    await new Promise((resolve) => setTimeout(resolve, 250));
    const restarted = new WebSocketServer({ port, host: "127.0.0.1", handleProtocols: () => "graphql-transport-ws" });
    restarted.on("connection", (socket) => {
      socket.on("message", (raw) => {
        const message = JSON.parse(String(raw)) as { type: string; id?: string };
        if (message.type === "connection_init") socket.send(JSON.stringify({ type: "connection_ack" }));
        if (message.type === "subscribe")
          socket.send(JSON.stringify({ id: message.id, type: "next", payload: { data: { messageReceived: { id: "m1" } } } }));
      });
    });
    try {
      await expect(received).resolves.toEqual({ data: { messageReceived: { id: "m1" } } });
      expect(attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await client.dispose();
      await new Promise((resolve) => restarted.close(resolve));
    }
  });
});

describe("graphql-ws client timeouts (all off)", () => {
  it("waits for a slow acknowledgement, sends no pings, and closes the moment its last subscription ends", async () => {
    const ACK_DELAY_MS = 600;
    const seen: string[] = [];
    let closedAt = 0;
    const slow = new WebSocketServer({ port: 0, host: "127.0.0.1", handleProtocols: () => "graphql-transport-ws" });
    slow.on("connection", (socket) => {
      socket.on("close", () => (closedAt = performance.now()));
      socket.on("message", (raw) => {
        const message = JSON.parse(String(raw)) as { type: string; id?: string };
        seen.push(message.type);
        if (message.type === "connection_init") setTimeout(() => socket.send(JSON.stringify({ type: "connection_ack" })), ACK_DELAY_MS);
        if (message.type === "subscribe")
          socket.send(JSON.stringify({ id: message.id, type: "next", payload: { data: { messageReceived: { id: "m1" } } } }));
      });
    });
    await new Promise((resolve) => slow.once("listening", resolve));
    const client = createWsClient({
      url: `ws://127.0.0.1:${(slow.address() as AddressInfo).port}/graphql`,
      webSocketImpl: WebSocket,
      baseDelayMs: 5,
    });
    try {
      let unsubscribe = () => {};
      const received = new Promise<unknown>((resolve, reject) => {
        unsubscribe = client.subscribe<TestWsClientMessageIdsSubscription>(
          { query: MESSAGE_IDS },
          { next: resolve, error: reject, complete: () => {} },
        );
      });
      // An acknowledgement timeout would have given up (and retried) before the server answered.
      await expect(received).resolves.toEqual({ data: { messageReceived: { id: "m1" } } });
      // A keep-alive would ping while the subscription is open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toEqual(["connection_init", "subscribe"]);
      // No lazy-close delay: the socket closes as soon as nothing listens.
      const unsubscribedAt = performance.now();
      unsubscribe();
      await vi.waitFor(() => expect(closedAt).toBeGreaterThan(0), { timeout: 2000, interval: 10 });
      // graphql-ws's lazy close would wait a second; a busy machine may add a little.
      expect(closedAt - unsubscribedAt).toBeLessThan(500);
      expect(seen).toEqual(["connection_init", "subscribe", "complete"]);
    } finally {
      await client.dispose();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
