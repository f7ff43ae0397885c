import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LISTENER_NAME } from "~/api/db/write-announcements.server";
import { startTestApi, type TestApi } from "../../support/api-server";
import { TestSyncAddPlaceDocument, TestSyncPlaceLabelsDocument, TestSyncRenamePlaceDocument } from "../../support/documents.generated";
import { postgresTestDatabaseUrl } from "../../support/test-database";

/**
 * A relay to the database that, once told to, holds back what the server sends on the
 * write-announcement listener's connection until that connection next sends something: a
 * notification still on its way over the network. Every other connection passes straight through.
 */
async function startNotificationDelay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let holding = false;
  const held: Array<{ toClient: Socket; chunks: Buffer[] }> = [];
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    sockets.add(client).add(server);
    let isListener: boolean | undefined;
    const pending: Buffer[] = [];
    held.push({ toClient: client, chunks: pending });
    client.on("data", (chunk) => {
      // The first message is the startup message, which names the connection's application.
      isListener ??= chunk.includes(`application_name\0${LISTENER_NAME}\0`);
      server.write(chunk);
      // The server's answer travels behind what the server had sent before it.
      if (isListener) holding = false;
      for (const late of pending.splice(0)) client.write(late);
    });
    server.on("data", (chunk) => (holding && isListener ? pending.push(chunk) : client.write(chunk)));
    for (const socket of [client, server]) {
      socket.on("error", () => {});
      socket.on("close", () => (client.destroy(), server.destroy()));
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(databaseUrl);
  relayed.port = String((relay.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    hold: () => (holding = true),
    heldBytes: () => held.reduce((sum, { chunks }) => sum + chunks.reduce((size, chunk) => size + chunk.length, 0), 0),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("each request first hears the writes other instances committed before it", () => {
  it("an answer cached on one instance is not served after another instance's write, even while the write's notification is still on its way", async () => {
    const databaseUrl = await postgresTestDatabaseUrl();
    const delay = await startNotificationDelay(databaseUrl);
    cleanups.push(delay.close);
    const writer: TestApi = await startTestApi({ databaseUrl });
    cleanups.push(writer.close);
    const reader: TestApi = await startTestApi({ databaseUrl: delay.url, fake: writer.fake });
    cleanups.push(reader.close);

    const token = await writer.signUp();
    const added = await writer.gql(TestSyncAddPlaceDocument, { label: "Home" }, { token });
    const placeId = added.data!.addPlace.id;
    const labels = async () => (await reader.gql(TestSyncPlaceLabelsDocument, {}, { token })).data?.places.map((place) => place.label);
    // The reader caches this answer (asked twice: the second comes from what it cached).
    expect(await labels()).toEqual(["Home"]);
    expect(await labels()).toEqual(["Home"]);

    delay.hold();
    await writer.gql(TestSyncRenamePlaceDocument, { id: placeId, label: "Loft" }, { token });
    // The rename is committed, and its notification has reached the relay but not the reader.
    await vi.waitFor(() => expect(delay.heldBytes()).toBeGreaterThan(0));

    expect(await labels()).toEqual(["Loft"]);
  });
});
