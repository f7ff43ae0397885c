import type { Client as WsClient } from "graphql-ws";
import { pipe, subscribe } from "wonka";
import { describe, expect, it, vi } from "vitest";
import { createBrowserGraphQL } from "~/lib/graphql/browser-client";
import { MESSAGE_RECEIVED_SUBSCRIPTION, VIEWER_QUERY } from "~/lib/graphql/documents";

/** A stand-in for graphql-ws that records what the manager does with it (no network). */
function fakeWebSocket(dispose: () => Promise<void> | void = () => {}) {
  const socket = { subscribe: vi.fn(() => () => {}), dispose: vi.fn(dispose) };
  return socket as typeof socket & WsClient;
}

function manager() {
  const sockets: Array<ReturnType<typeof fakeWebSocket>> = [];
  let nextDispose: () => Promise<void> | void = () => {};
  const graphql = createBrowserGraphQL({
    url: "http://127.0.0.1:9/graphql",
    connectWebSocket: async () => {
      const socket = fakeWebSocket(nextDispose);
      sockets.push(socket);
      return socket;
    },
  });
  /** Opens the session's WebSocket by starting a subscription on the current client. */
  const goLive = async () => {
    pipe(
      graphql.current().subscription(MESSAGE_RECEIVED_SUBSCRIPTION, { after: null }),
      subscribe(() => {}),
    );
    await vi.waitFor(() => expect(sockets.at(-1)?.subscribe).toHaveBeenCalled());
  };
  return { graphql, sockets, goLive, failNextDispose: (error: Error) => (nextDispose = () => Promise.reject(error)) };
}

describe("the browser's GraphQL sessions", () => {
  it("keeps one client while the page names the same session", () => {
    const { graphql } = manager();
    const first = graphql.clientFor("session-a");
    expect(first.settled).toBe(true);
    expect(graphql.clientFor("session-a").client).toBe(first.client);
    expect(graphql.current()).toBe(first.client);
  });

  it("starts a fresh client and closes the old WebSocket when the session changes", async () => {
    const { graphql, sockets, goLive } = manager();
    const a = graphql.clientFor("session-a").client;
    await goLive();
    const b = graphql.clientFor("session-b").client;
    expect(b).not.toBe(a);
    await vi.waitFor(() => expect(sockets[0]!.dispose).toHaveBeenCalledOnce());
  });

  it("after reset(), pages still naming the ended session keep its client (nothing live); the next session gets the fresh one", async () => {
    const { graphql, sockets, goLive } = manager();
    const a = graphql.clientFor("session-a").client;
    await goLive();
    graphql.reset();
    await vi.waitFor(() => expect(sockets[0]!.dispose).toHaveBeenCalledOnce());
    const fresh = graphql.current();
    expect(fresh).not.toBe(a);
    expect(graphql.clientFor("session-a")).toEqual({ client: a, settled: false });
    expect(graphql.clientFor("session-b")).toEqual({ client: fresh, settled: true });
    expect(graphql.clientFor("session-b").client).toBe(fresh);
  });

  it("an ended session's failed operations are not reported; the current one's are", async () => {
    const onError = vi.fn();
    const graphql = createBrowserGraphQL({ url: "http://127.0.0.1:9/graphql", onError });
    const ended = graphql.clientFor("session-a").client;
    graphql.reset();
    await ended.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
    expect(onError).not.toHaveBeenCalled();
    await graphql.current().query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise();
    expect(onError).toHaveBeenCalledOnce();
  });

  it("a WebSocket that fails to close is logged, not thrown", async () => {
    const { graphql, goLive, failNextDispose } = manager();
    failNextDispose(new Error("socket stuck"));
    graphql.clientFor("session-a");
    await goLive();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(() => graphql.reset()).not.toThrow();
      await vi.waitFor(() => expect(logged).toHaveBeenCalledWith("Could not close the previous session's WebSocket:", expect.any(Error)));
    } finally {
      logged.mockRestore();
    }
  });

  it("an offline cache that fails to clear is logged, not thrown, and a fresh client takes over", async () => {
    const stores = new Map<string | null, { clear: ReturnType<typeof vi.fn> }>();
    const graphql = createBrowserGraphQL({
      url: "http://127.0.0.1:9/graphql",
      initialKey: "session-a",
      offlineStorage(key) {
        const store = {
          readData: async () => ({}),
          writeData: async () => {},
          readMetadata: async () => [],
          writeMetadata: () => {},
          onOnline: () => {},
          clear: vi.fn(() => (key === "session-a" ? Promise.reject(new Error("quota")) : Promise.resolve())),
        };
        stores.set(key, store);
        return store;
      },
    });
    const a = graphql.clientFor("session-a").client;
    const logged = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(() => graphql.reset()).not.toThrow();
      await vi.waitFor(() => expect(logged).toHaveBeenCalledWith("Could not clear the offline cache:", expect.any(Error)));
      expect(stores.get("session-a")!.clear).toHaveBeenCalledOnce();
      expect(graphql.current()).not.toBe(a);
    } finally {
      logged.mockRestore();
    }
  });
});
