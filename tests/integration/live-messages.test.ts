import { print } from "graphql";
import { pipe, subscribe } from "wonka";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { SESSION_LIFETIME_SECONDS } from "~/api/auth/sessions.server";
import { createBrowserGraphQL } from "~/lib/graphql/browser-client";
import { MESSAGE_RECEIVED_SUBSCRIPTION } from "~/lib/graphql/documents";
import { timeOrderedLowerBound } from "~/shared/live-cursor";
import { createWsClient } from "~/lib/graphql/ws-client";
import { LogInDocument, LogOutDocument } from "~/lib/account-documents.generated";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import { TestLiveViewerDocument } from "../support/documents.generated";
import { MESSAGE_IDS, messageSubscriber, wsClient } from "../support/subscriber";

// graphql-ws (and a server-sent-events request) take the text: typed documents printed.
const LOG_OUT = print(LogOutDocument);

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

async function newUser() {
  const token = await t.signUp();
  const me = await t.gql(TestLiveViewerDocument, {}, { token });
  return { token, userId: me.data!.me!.id };
}

let written = 0;
/** Writes a message as the bot does: stored, then published to live subscribers. */
async function botWrites(userId: string) {
  const row = await t.api.services.inbox.write({
    userId,
    kind: "SYSTEM",
    title: `Message ${++written}`,
    body: "…",
    dedupeKey: `live:${written}`,
  });
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
    const client = createWsClient({
      url: t.url.replace("http", "ws"),
      connectionParams: { authorization: `Bearer ${token}` },
      webSocketImpl: WebSocket,
    });
    // A failure before the stream starts arrives as one result carrying the error.
    const result = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: MESSAGE_IDS, variables: { after: "yesterday" } },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    await client.dispose();
    expect(codes(result as never)).toEqual(["BAD_USER_INPUT"]);
  });
  describe("when the session ends", () => {
    async function userOf(api: TestApi) {
      const token = await api.signUp();
      const me = await api.gql(TestLiveViewerDocument, {}, { token });
      return { token, userId: me.data!.me!.id };
    }

    let count = 0;
    async function write(api: TestApi, userId: string) {
      const row = await api.api.services.inbox.write({
        userId,
        kind: "SYSTEM",
        title: `Session end ${++count}`,
        body: "…",
        dedupeKey: `session-end:${count}`,
      });
      api.api.services.inbox.publish(row!);
      return row!.id;
    }

    it("logging out ends the session's WebSocket subscriptions and closes its socket as Unauthorized", async () => {
      const { token, userId } = await userOf(t);
      const other = await t.gql(LogInDocument, {
        email: (await t.gql(TestLiveViewerDocument, {}, { token })).data!.me!.email,
        password: "a sturdy passphrase",
      });
      const mine = messageSubscriber(t.url, token);
      const elsewhere = messageSubscriber(t.url, other.data!.logIn.token);
      const first = await write(t, userId);
      await vi.waitFor(() => expect(mine.seen.ids).toEqual([first]));
      await vi.waitFor(() => expect(elsewhere.seen.ids).toEqual([first]));

      expect((await t.gql(LogOutDocument, {}, { token })).data).toEqual({ logOut: true });
      await vi.waitFor(() => expect(mine.seen.closeCode).toBe(4401));
      expect(mine.seen.ended).toBe(true);
      // The same account's other session keeps listening.
      const second = await write(t, userId);
      await vi.waitFor(() => expect(elsewhere.seen.ids).toEqual([first, second]));
      expect(mine.seen.ids).toEqual([first]);
      expect(elsewhere.seen.closeCode).toBeNull();
      await mine.dispose();
      await elsewhere.dispose();
    });

    it("logging out over the session's own socket answers first, then closes the socket", async () => {
      const { token, userId } = await userOf(t);
      const mine = messageSubscriber(t.url, token);
      const first = await write(t, userId);
      await vi.waitFor(() => expect(mine.seen.ids).toEqual([first]));
      const client = wsClient(t.url, token);
      let closeCode: number | null = null;
      client.on("closed", (event) => (closeCode = (event as { code: number }).code));
      const answer = await new Promise<unknown>((resolve, reject) => {
        let result: unknown;
        client.subscribe({ query: LOG_OUT }, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
      });
      expect(answer).toEqual({ data: { logOut: true } });
      await vi.waitFor(() => expect(closeCode).toBe(4401));
      await vi.waitFor(() => expect(mine.seen.closeCode).toBe(4401));
      await client.dispose();
      await mine.dispose();
    });

    it("logging out ends the session's server-sent-events subscription", async () => {
      const { token, userId } = await userOf(t);
      const response = await fetch(t.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: MESSAGE_IDS, variables: { after: timeOrderedLowerBound(Date.now()) } }),
      });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      const first = await write(t, userId);
      while (!text.includes(first)) text += (await reader.read()).value ?? "";

      await t.gql(LogOutDocument, {}, { token });
      const after = await write(t, userId);
      // The stream ends (a subscription left open would wait here for ever, and the test time out).
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      expect(text).not.toContain(after);
    });

    it("an expired session's subscription ends at its next message, which it does not receive, and its socket closes", async () => {
      let clock = Date.now();
      const own = await startTestApi({ now: () => new Date(clock) });
      try {
        const { token, userId } = await userOf(own);
        const mine = messageSubscriber(own.url, token);
        const first = await write(own, userId);
        await vi.waitFor(() => expect(mine.seen.ids).toEqual([first]));
        clock += SESSION_LIFETIME_SECONDS * 1000 + 1000;
        await write(own, userId);
        await vi.waitFor(() => expect(mine.seen.closeCode).toBe(4401));
        expect(mine.seen.ids).toEqual([first]);
        expect(mine.seen.ended).toBe(true);
        await mine.dispose();
      } finally {
        await own.close();
      }
    });
  });
});
