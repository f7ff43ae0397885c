import { pipe, subscribe } from "wonka";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { createBrowserGraphQL } from "~/lib/graphql/browser-client";
import { MESSAGE_RECEIVED_SUBSCRIPTION } from "~/lib/graphql/documents";
import { timeOrderedLowerBound } from "~/lib/graphql/live-cursor";
import { createWsClient } from "~/lib/graphql/ws-client";
import { codes, startTestApi, type TestApi } from "../support/api-server";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

async function newUser() {
  const token = await t.signUp();
  const me = await t.gql(`{ me { id } }`, {}, { token });
  return { token, userId: me.data!.me.id as string };
}

let written = 0;
/** Writes a message as the bot does: stored, then published to live subscribers. */
async function botWrites(userId: string) {
  const row = await t.api.services.inbox.write({ userId, kind: "SYSTEM", title: `Message ${++written}`, body: "…", dedupeKey: `live:${written}` });
  t.api.services.inbox.publish(row!);
  return row!.id;
}

/** The browser's client, in Node: real urql + graphcache + graphql-ws against the real API. */
function browserClientFor(token: string) {
  const sockets: WebSocket[] = [];
  const graphql = createBrowserGraphQL({
    url: t.url,
    connectWebSocket: async () =>
      createWsClient({
        url: t.url.replace("http", "ws"),
        baseDelayMs: 200,
        connectionParams: { authorization: `Bearer ${token}` },
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols);
            sockets.push(this);
          }
        },
      }),
  });
  return { graphql, sockets };
}

describe("live messages", () => {
  it("after a dropped connection the client catches up on what it missed, in order, each message once", async () => {
    const { token, userId } = await newUser();
    const { graphql, sockets } = browserClientFor(token);
    const ids: string[] = [];
    const { unsubscribe } = pipe(
      graphql.current().subscription(MESSAGE_RECEIVED_SUBSCRIPTION, { after: timeOrderedLowerBound(Date.now()) }),
      subscribe((result) => {
        if (result.data) ids.push(result.data.messageReceived.id);
      }),
    );
    // Written before the socket is even open: the starting point replays it.
    const first = await botWrites(userId);
    await vi.waitFor(() => expect(ids).toEqual([first]));

    // The connection drops; two messages are written while the client is away.
    sockets.at(-1)!.terminate();
    const missed = [await botWrites(userId), await botWrites(userId)];
    await vi.waitFor(() => expect(ids).toEqual([first, ...missed]), { timeout: 5_000 });
    expect(sockets.length).toBe(2);

    const live = await botWrites(userId);
    await vi.waitFor(() => expect(ids).toEqual([first, ...missed, live]));
    unsubscribe();
    graphql.reset();
  });

  it("delivers only the subscriber's own messages, also when catching up", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const { graphql } = browserClientFor(alice.token);
    const since = timeOrderedLowerBound(Date.now());
    const bobs = await botWrites(bob.userId);
    const alices = await botWrites(alice.userId);
    const ids: string[] = [];
    const { unsubscribe } = pipe(
      graphql.current().subscription(MESSAGE_RECEIVED_SUBSCRIPTION, { after: since }),
      subscribe((result) => {
        if (result.data) ids.push(result.data.messageReceived.id);
      }),
    );
    await vi.waitFor(() => expect(ids).toEqual([alices]));
    await botWrites(bob.userId);
    const alicesLive = await botWrites(alice.userId);
    await vi.waitFor(() => expect(ids).toEqual([alices, alicesLive]));
    expect(ids).not.toContain(bobs);
    unsubscribe();
    graphql.reset();
  });

  it("refuses a starting point that is not a message id", async () => {
    const { token } = await newUser();
    const client = createWsClient({ url: t.url.replace("http", "ws"), connectionParams: { authorization: `Bearer ${token}` }, webSocketImpl: WebSocket });
    // A failure before the stream starts arrives as one result carrying the error.
    const result = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: "subscription ($after: ID) { messageReceived(after: $after) { id } }", variables: { after: "yesterday" } },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    await client.dispose();
    expect(codes(result as never)).toEqual(["BAD_USER_INPUT"]);
  });
});
