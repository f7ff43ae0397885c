import { Client, fetchExchange } from "@urql/core";
import type { SerializedEntries, SerializedRequest, StorageAdapter } from "@urql/exchange-graphcache";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCacheExchange } from "~/lib/graphql/cache";
import { DELETE_MESSAGE_MUTATION } from "~/lib/graphql/signed-in-documents";
import { SETTINGS_QUERY, UPDATE_SETTINGS_MUTATION } from "~/lib/graphql/later-documents";
import { startTestApi, type TestApi } from "../support/api-server";
import {
  TestOfflineAddPlaceDocument,
  TestOfflineInboxDocument as INBOX,
  TestOfflineMessageIdsDocument,
  TestOfflineSaveBriefingDocument,
  TestOfflineSendBriefingNowDocument,
  TestOfflineTemperatureUnitDocument,
} from "../support/documents.generated";

/**
 * The browser's offline exchange with the app's optimistic updates, against the real API:
 * a mutation made while the network is gone shows at once and is sent when it returns.
 */
let t: TestApi;
let token: string;

beforeAll(async () => {
  t = await startTestApi();
  token = await t.signUp();
});
afterAll(() => t.close());

/** A storage adapter in memory, with the "back online" signal in the test's hand; it is read once `read` settles. */
function memoryStorage(read: Promise<void> = Promise.resolve()) {
  let data: SerializedEntries = {};
  let metadata: SerializedRequest[] = [];
  const online: Array<() => void> = [];
  const storage: StorageAdapter = {
    readData: async () => {
      await read;
      return data;
    },
    writeData: async (delta) => void (data = { ...data, ...delta }),
    readMetadata: async () => metadata,
    writeMetadata: (next) => void (metadata = next),
    onOnline: (callback) => void online.push(callback),
  };
  return { storage, queued: () => metadata.length, backOnline: () => online.forEach((callback) => callback()) };
}

/** A client whose network can be cut: offline, fetch fails as the browser's does. `storageRead`: when its store is read. */
function offlineCapableClient(storageRead?: Promise<void>) {
  const memory = memoryStorage(storageRead);
  let offline = false;
  let requests = 0;
  const client = new Client({
    url: t.url,
    exchanges: [createCacheExchange(memory.storage), fetchExchange],
    preferGetMethod: false,
    fetch: (input, init) => {
      requests++;
      return offline ? Promise.reject(new TypeError("Failed to fetch")) : fetch(input, init);
    },
    fetchOptions: { headers: { authorization: `Bearer ${token}` } },
  });
  return { client, memory, goOffline: () => (offline = true), goOnline: () => (offline = false), requests: () => requests };
}

async function oneMessage(): Promise<string> {
  const place = await t.gql(TestOfflineAddPlaceDocument, {}, { token });
  const briefing = await t.gql(TestOfflineSaveBriefingDocument, { placeId: place.data!.addPlace.id }, { token });
  const sent = await t.gql(TestOfflineSendBriefingNowDocument, { id: briefing.data!.saveBriefing.id }, { token });
  return sent.data!.sendBriefingNow.id;
}

describe("mutations made offline", () => {
  it("deleting a message: gone from the inbox at once, unread count down, deleted on the server when back online", async () => {
    const id = await oneMessage();
    const { client, memory, goOffline, goOnline } = offlineCapableClient();
    await client.query(INBOX, {}).toPromise();
    const inbox = () => client.readQuery(INBOX, {}, { requestPolicy: "cache-only" })!.data!;
    expect(inbox().messages.edges.map((edge) => edge.id)).toContain(id);
    const unread = inbox().me!.unreadCount;

    goOffline();
    void client.mutation(DELETE_MESSAGE_MUTATION, { id }).toPromise();
    await expect.poll(() => memory.queued()).toBe(1);
    expect(inbox().messages.edges.map((edge) => edge.id)).not.toContain(id);
    expect(inbox().me!.unreadCount).toBe(unread - 1);
    const onServer = async () => (await t.gql(TestOfflineMessageIdsDocument, {}, { token })).data!.messages.edges.map((edge) => edge.id);
    expect(await onServer()).toContain(id);

    goOnline();
    memory.backOnline();
    await expect.poll(onServer).not.toContain(id);
    await expect.poll(() => memory.queued()).toBe(0);
  });

  it("made before the persisted store has been read: shown at once, sent only after the read, kept then (not refused), and sent when back online", async () => {
    const id = await oneMessage();
    let storeRead!: () => void;
    const { client, memory, goOffline, goOnline, requests } = offlineCapableClient(new Promise((resolve) => (storeRead = resolve)));
    await client.query(INBOX, {}).toPromise();
    const inbox = () => client.readQuery(INBOX, {}, { requestPolicy: "cache-only" })!.data!;
    expect(inbox().messages.edges.map((edge) => edge.id)).toContain(id);
    const requestsBefore = requests();
    goOffline();
    let outcome: { error?: unknown } | null = null;
    void client
      .mutation(DELETE_MESSAGE_MUTATION, { id })
      .toPromise()
      .then((result) => (outcome = result));
    // Everything the mutation set off without waiting (a request, its failure) is over by the next task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(inbox().messages.edges.map((edge) => edge.id)).not.toContain(id);
    expect(requests()).toBe(requestsBefore);
    expect(outcome).toBeNull();

    storeRead();
    await expect.poll(() => memory.queued()).toBe(1);
    expect(outcome).toBeNull();
    const onServer = async () => (await t.gql(TestOfflineMessageIdsDocument, {}, { token })).data!.messages.edges.map((edge) => edge.id);
    expect(await onServer()).toContain(id);

    goOnline();
    memory.backOnline();
    await expect.poll(onServer).not.toContain(id);
    await expect.poll(() => outcome).toMatchObject({ error: undefined });
  });

  it("preferences: applied to every cached view at once, saved on the server when back online", async () => {
    const { client, memory, goOffline, goOnline } = offlineCapableClient();
    await client.query(SETTINGS_QUERY, {}).toPromise();
    const cached = () => client.readQuery(SETTINGS_QUERY, {}, { requestPolicy: "cache-only" })?.data?.me?.settings;
    const before = cached()!;
    const next = before.temperatureUnit === "CELSIUS" ? "FAHRENHEIT" : "CELSIUS";

    goOffline();
    void client.mutation(UPDATE_SETTINGS_MUTATION, { input: { temperatureUnit: next } }).toPromise();
    await expect.poll(() => memory.queued()).toBe(1);
    expect(cached()).toEqual({ ...before, temperatureUnit: next });
    const onServer = async () => (await t.gql(TestOfflineTemperatureUnitDocument, {}, { token })).data!.me!.settings.temperatureUnit;
    expect(await onServer()).toBe(before.temperatureUnit);

    goOnline();
    memory.backOnline();
    await expect.poll(onServer).toBe(next);
  });
});
