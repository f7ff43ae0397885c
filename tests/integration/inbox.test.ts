import { print } from "graphql";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { FOLLOW_INTERVAL_MS, FOLLOW_PAGE_SIZE } from "~/api/bot/inbox.server";
import { DeleteMessageDocument, MarkAllReadDocument, MarkReadDocument } from "~/lib/graphql/signed-in-documents.generated";
import { codes, startTestApi, type TestApi } from "../support/api-server";
import {
  TestInboxLiveDocument,
  TestInboxMeDocument,
  TestInboxPageDocument as PAGE,
  TestInboxUnreadCountDocument,
} from "../support/documents.generated";
import { wsClient } from "../support/subscriber";

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

async function userWithMessages(count: number) {
  const token = await t.signUp();
  const me = await t.gql(TestInboxMeDocument, {}, { token });
  const userId = me.data!.me!.id;
  for (let i = 0; i < count; i++) {
    const row = await t.api.services.inbox.write({
      userId,
      kind: "SYSTEM",
      title: `Message ${i}`,
      body: "…",
      dedupeKey: `test:${userId}:${i}`,
    });
    t.api.services.inbox.publish(row!);
  }
  return { token, userId };
}

/** Collects what a subscription delivers until `count` messages arrived (or it ended). */
function collect(client: Client, count: number) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped GraphQL result (string queries): callers name the shape they expect
  const received: Array<{ data?: any; errors?: unknown[] }> = [];
  let resolveDone: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const dispose = client.subscribe(
    { query: print(TestInboxLiveDocument) },
    {
      next: (value) => {
        received.push(value as never);
        if (received.length >= count) resolveDone();
      },
      error: (error) => {
        received.push({ errors: [error] });
        resolveDone();
      },
      complete: () => resolveDone(),
    },
  );
  return { received, done, dispose };
}

describe("inbox", () => {
  it("pages newest first by cursor", async () => {
    const { token } = await userWithMessages(5);
    const first = await t.gql(PAGE, { first: 2 }, { token });
    expect(first.data!.messages.edges.map((m) => m.title)).toEqual(["Message 4", "Message 3"]);
    expect(first.data!.messages.hasMore).toBe(true);
    const second = await t.gql(PAGE, { first: 2, after: first.data!.messages.endCursor }, { token });
    expect(second.data!.messages.edges.map((m) => m.title)).toEqual(["Message 2", "Message 1"]);
    const last = await t.gql(PAGE, { first: 2, after: second.data!.messages.endCursor }, { token });
    expect(last.data!.messages).toMatchObject({ hasMore: false, edges: [{ title: "Message 0" }] });
    expect(codes(await t.gql(PAGE, { after: "bogus" }, { token }))).toEqual(["BAD_USER_INPUT"]);
    expect(codes(await t.gql(PAGE, { first: 1000 }, { token }))).toEqual(["BAD_USER_INPUT"]);
  });

  it("marks read, counts unread and deletes, only for the owner", async () => {
    const alice = await userWithMessages(3);
    const mallory = await userWithMessages(0);
    const page = await t.gql(PAGE, {}, { token: alice.token });
    const [newest, middle] = page.data!.messages.edges;

    const stolen = await t.gql(MarkReadDocument, { ids: [newest!.id] }, { token: mallory.token });
    expect(stolen.data!.markRead).toEqual([]);
    expect(codes(await t.gql(DeleteMessageDocument, { id: newest!.id }, { token: mallory.token }))).toEqual(["NOT_FOUND"]);

    const read = await t.gql(MarkReadDocument, { ids: [newest!.id] }, { token: alice.token });
    expect(read.data!.markRead[0]!.readAt).toBeTruthy();
    expect((await t.gql(TestInboxUnreadCountDocument, {}, { token: alice.token })).data!.me!.unreadCount).toBe(2);
    expect((await t.gql(PAGE, { unreadOnly: true }, { token: alice.token })).data!.messages.edges).toHaveLength(2);

    await t.gql(DeleteMessageDocument, { id: middle!.id }, { token: alice.token });
    const all = await t.gql(MarkAllReadDocument, {}, { token: alice.token });
    expect(all.data!.markAllRead.unreadCount).toBe(0);
    expect((await t.gql(PAGE, {}, { token: alice.token })).data!.messages.edges).toHaveLength(2);
  });

  it("marks all read up to the newest message the reader saw: one that came after stays unread", async () => {
    const alice = await userWithMessages(2);
    const seen = (await t.gql(PAGE, {}, { token: alice.token })).data!.messages.edges[0]!;
    // A later instant than the newest seen, by the server's clock: then one more message comes.
    while (new Date().toISOString() <= seen.createdAt) await new Promise((resolve) => setImmediate(resolve));
    const later = await t.api.services.inbox.write({ userId: alice.userId, kind: "SYSTEM", title: "Later", body: "…", dedupeKey: "later" });

    const all = await t.gql(MarkAllReadDocument, { upTo: seen.createdAt }, { token: alice.token });
    expect(all.data!.markAllRead.unreadCount).toBe(1);
    const unread = (await t.gql(PAGE, { unreadOnly: true }, { token: alice.token })).data!.messages.edges;
    expect(unread.map((message) => message.id)).toEqual([later!.id]);
    // Without it, every message.
    expect((await t.gql(MarkAllReadDocument, {}, { token: alice.token })).data!.markAllRead.unreadCount).toBe(0);
  });

  it("delivers a user's new messages live over WebSocket, in order, and only to them", async () => {
    const alice = await userWithMessages(0);
    const bob = await userWithMessages(0);
    const aliceClient = wsClient(t.url, alice.token);
    const bobClient = wsClient(t.url, bob.token);
    const aliceStream = collect(aliceClient, 3);
    const bobStream = collect(bobClient, 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // both subscriptions are live

    for (let i = 0; i < 3; i++) {
      const row = await t.api.services.inbox.write({
        userId: alice.userId,
        kind: "ALERT",
        title: `Live ${i}`,
        body: "",
        dedupeKey: `live:${alice.userId}:${i}`,
      });
      t.api.services.inbox.publish(row!);
    }
    await aliceStream.done;
    expect(aliceStream.received.map((value) => value.data.messageReceived.title)).toEqual(["Live 0", "Live 1", "Live 2"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bobStream.received).toEqual([]);
    aliceStream.dispose();
    bobStream.dispose();
    await aliceClient.dispose();
    await bobClient.dispose();
  });

  it("delivers messages another process writes on the same database, to both processes' subscribers, each once", async () => {
    const other = await startTestApi({ dataDir: t.dataDir, databaseUrl: t.databaseUrl, fake: t.fake });
    try {
      const { token, userId } = await userWithMessages(0);
      const here = wsClient(t.url, token);
      const there = wsClient(other.url, token);
      const hereStream = collect(here, 3);
      const thereStream = collect(there, 3);
      await new Promise((resolve) => setTimeout(resolve, 300)); // both subscriptions are live

      // Two written and published by the other process, one by this one.
      for (const [api, title] of [
        [other.api, "There 1"],
        [t.api, "Here"],
        [other.api, "There 2"],
      ] as const) {
        const row = await api.services.inbox.write({ userId, kind: "SYSTEM", title, body: "", dedupeKey: `cross:${userId}:${title}` });
        api.services.inbox.publish(row!);
      }
      await Promise.all([hereStream.done, thereStream.done]);
      // Wait past the follower's next look to see nothing comes twice.
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS * 1.5));
      const titles = (stream: typeof hereStream) => stream.received.map((value) => value.data.messageReceived.title).sort();
      expect(titles(hereStream)).toEqual(["Here", "There 1", "There 2"]);
      expect(titles(thereStream)).toEqual(["Here", "There 1", "There 2"]);
      hereStream.dispose();
      thereStream.dispose();
      await here.dispose();
      await there.dispose();
    } finally {
      await other.close();
    }
  }, 15_000);

  it("hands over more than a page of another process's messages, in order, and only its listeners' ones", async () => {
    const other = await startTestApi({ dataDir: t.dataDir, databaseUrl: t.databaseUrl, fake: t.fake });
    try {
      const { token, userId } = await userWithMessages(0);
      const bystander = await userWithMessages(0);
      const client = wsClient(t.url, token);
      const count = FOLLOW_PAGE_SIZE + 2;
      const stream = collect(client, count);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription is live
      const message = (user: string, i: number) => ({
        userId: user,
        kind: "SYSTEM" as const,
        title: `Bulk ${i}`,
        body: "",
        dedupeKey: `bulk:${user}:${i}`,
      });
      // Written by the other process in one statement each, and not published there: only the follower brings them here.
      await other.api.services.inbox.writeMany(Array.from({ length: 3 }, (_, i) => message(bystander.userId, i)));
      await other.api.services.inbox.writeMany(Array.from({ length: count }, (_, i) => message(userId, i)));
      await stream.done;
      expect(stream.received.map((value) => value.data.messageReceived.title)).toEqual(
        Array.from({ length: count }, (_, i) => `Bulk ${i}`),
      );
      stream.dispose();
      await client.dispose();
    } finally {
      await other.close();
    }
  }, 15_000);

  it("refuses a subscription without a session", async () => {
    const client = wsClient(t.url, null);
    const stream = collect(client, 1);
    await stream.done;
    expect(JSON.stringify(stream.received)).toContain("UNAUTHENTICATED");
    await client.dispose();
  });

  it("refuses a WebSocket upgrade from another site", async () => {
    const socket = new WebSocket(t.url.replace("http", "ws"), "graphql-transport-ws", { headers: { Origin: "https://evil.example" } });
    const status = await new Promise<number>((resolve) => {
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("error", () => resolve(-1));
    });
    expect(status).toBe(403);
  });

  it("writes a message once per dedupe key", async () => {
    const { userId, token } = await userWithMessages(0);
    const first = await t.api.services.inbox.write({ userId, kind: "SYSTEM", title: "once", body: "", dedupeKey: `once:${userId}` });
    const again = await t.api.services.inbox.write({ userId, kind: "SYSTEM", title: "once", body: "", dedupeKey: `once:${userId}` });
    expect(first).not.toBeNull();
    expect(again).toBeNull();
    expect((await t.gql(PAGE, {}, { token })).data!.messages.edges).toHaveLength(1);
  });
});
